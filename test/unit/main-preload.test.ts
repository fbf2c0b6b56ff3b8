/**
 * electron/preload/index.ts with stand-ins for contextBridge and ipcRenderer: it exposes exactly
 * the contract's calls plus onEvent under `window.tempora`, each call invokes its own channel and
 * nothing else, and events reach the page without Electron's event object.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { API_GLOBAL, EVENT_CHANNEL, apiCalls, type ApiEventEnvelope, type TemporaApi } from '../../shared/api-contract';

const exposed = new Map<string, unknown>();
const invoked: Array<{ channel: string; payload: unknown }> = [];
const listeners = new Map<string, Set<(...args: unknown[]) => void>>();

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (name: string, value: unknown) => exposed.set(name, value) },
  ipcRenderer: {
    invoke: async (channel: string, payload: unknown) => {
      invoked.push({ channel, payload });
      return { channel };
    },
    on: (channel: string, listener: (...args: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
    },
    removeListener: (channel: string, listener: (...args: unknown[]) => void) => listeners.get(channel)?.delete(listener),
  },
}));

await import('../../electron/preload/index');
const api = exposed.get(API_GLOBAL) as TemporaApi;

beforeEach(() => {
  invoked.length = 0;
});

describe('the preload', () => {
  it('exposes one object, window.tempora, and nothing else', () => {
    expect([...exposed.keys()]).toEqual(['tempora']);
  });

  it('exposes exactly the contract’s calls plus onEvent, all functions', () => {
    expect(Object.keys(api).sort()).toEqual([...Object.keys(apiCalls), 'onEvent'].sort());
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    for (const generic of ['invoke', 'send', 'on', 'ipcRenderer', 'require']) expect(api).not.toHaveProperty(generic);
  });

  it('sends each call on its own channel with the payload as given', async () => {
    for (const [name, call] of Object.entries(apiCalls)) {
      const fn = api[name as keyof typeof apiCalls] as (request: unknown) => Promise<unknown>;
      await expect(fn({ probe: name })).resolves.toEqual({ channel: call.channel });
    }
    expect(invoked).toEqual(Object.entries(apiCalls).map(([name, call]) => ({ channel: call.channel, payload: { probe: name } })));
  });

  it('sends an empty request for a call made without one', async () => {
    await (api.listEntities as (request?: unknown) => Promise<unknown>)();
    expect(invoked).toEqual([{ channel: 'memory:listEntities', payload: {} }]);
  });

  it('passes events to the page without Electron’s event object, until unsubscribed', () => {
    const received: unknown[] = [];
    const off = api.onEvent((event) => received.push(event));
    const envelope: ApiEventEnvelope = { name: 'memoryChanged', payload: { reason: 'edit' } };
    const channelListeners = listeners.get(EVENT_CHANNEL)!;
    expect(channelListeners.size).toBe(1);
    for (const listener of channelListeners) listener({ sender: 'the ipcRenderer event' }, envelope);
    expect(received).toEqual([envelope]);
    off();
    expect(channelListeners.size).toBe(0);
  });

  it('refuses a listener that is not a function', () => {
    expect(() => api.onEvent('x' as unknown as () => void)).toThrow(TypeError);
  });
});
