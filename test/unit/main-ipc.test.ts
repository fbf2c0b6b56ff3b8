/** electron/main/ipc.ts with a stand-in for Electron's ipcMain: sender checks and payload validation. */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FactRecord } from '../../shared/memory-schema';

type Listener = (event: { senderFrame: { url: string } | null }, payload: unknown) => Promise<unknown>;
const handlers = new Map<string, Listener>();

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, listener: Listener) => handlers.set(channel, listener),
    removeHandler: (channel: string) => handlers.delete(channel),
  },
}));

const { registerIpc, unregisterIpc } = await import('../../electron/main/ipc');

const fact: FactRecord = {
  id: 'f1',
  subject_id: 'e1',
  subject: 'me',
  predicate: 'manager',
  object_id: 'e2',
  object: 'A',
  fact: 'My manager is A.',
  cardinality: 'one',
  valid_at: '2026-09-01T01:00:00.000Z',
  invalid_at: null,
  created_at: '2026-09-01T01:00:05.000Z',
  expired_at: null,
  episode_ids: ['ep1'],
  invalidated_by: null,
  supersedes: null,
  origin: 'observed',
};

const appFrame = { senderFrame: { url: 'app://tempora/index.html' } };

describe('memory:listFacts over IPC', () => {
  const calls: unknown[] = [];
  let answer: unknown[] = [fact];

  beforeEach(() => {
    unregisterIpc();
    calls.length = 0;
    answer = [fact];
    const memory = {
      listFacts: (query: unknown) => {
        calls.push(query);
        return answer as FactRecord[];
      },
      close: () => {},
    };
    registerIpc(memory as unknown as Parameters<typeof registerIpc>[0], 'app://tempora');
  });

  const invoke = (event: { senderFrame: { url: string } | null }, payload: unknown) => {
    const listener = handlers.get('memory:listFacts');
    if (!listener) throw new Error('no handler registered');
    return listener(event, payload);
  };

  it('answers the app’s own page', async () => {
    await expect(invoke(appFrame, { asOf: '2026-09-10T00:00:00.000Z', subject: 'me' })).resolves.toEqual([fact]);
    expect(calls).toEqual([{ asOf: '2026-09-10T00:00:00.000Z', subject: 'me' }]);
  });

  it.each([
    [{ senderFrame: { url: 'https://example.com/' } }, /refused a call from "https:\/\/example.com\/"/],
    [{ senderFrame: { url: 'app://other/index.html' } }, /refused/],
    [{ senderFrame: { url: 'file:///tmp/index.html' } }, /refused/],
    [{ senderFrame: null }, /refused a call from a detached frame/],
  ])('refuses other senders (%j)', async (event, message) => {
    await expect(invoke(event, {})).rejects.toThrow(message);
    expect(calls).toEqual([]);
  });

  it.each([
    [null, /invalid request/],
    ['facts', /invalid request/],
    [{ asOf: 'yesterday' }, /asOf: must be an ISO-8601 UTC time/],
    [{ limit: -1 }, /limit:/],
    [{ history: 'yes' }, /history:/],
    [{ subject: 'me', sql: 'DROP TABLE facts' }, /invalid request/],
  ])('rejects a malformed payload %j before it reaches the memory', async (payload, message) => {
    await expect(invoke(appFrame, payload)).rejects.toThrow(message);
    expect(calls).toEqual([]);
  });

  it('refuses to pass on an answer that breaks the contract', async () => {
    answer = [{ ...fact, valid_at: 'not a time' }];
    await expect(invoke(appFrame, {})).rejects.toThrow(/invalid response: 0\.valid_at/);
  });
});
