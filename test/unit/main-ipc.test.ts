/**
 * electron/main/ipc.ts with a stand-in for Electron's ipcMain: every call of the contract is
 * registered (and nothing else), the sender frame is checked, payloads are validated before they
 * reach a handler, and answers are validated before they reach the page. A call answers its
 * outcome ({ ok: true, value } or { ok: false, error, code, field? }); only a refused sender is
 * rejected.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiCalls, type ApiCallName } from '../../shared/api-contract';
import type { FactRecord } from '../../shared/memory-schema';
import type { ApiHandlers } from '../../electron/engine/api-handlers';
import { ModelLoadError } from '../../electron/llm/model-errors';
import { MemoryInputError } from '../../electron/memory/index';
import { sampleFact } from '../fixtures/fact-record';

type Sender = { senderFrame: { url: string } | null };
type Listener = (event: Sender, payload: unknown) => Promise<unknown>;
const registered = new Map<string, Listener>();

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, listener: Listener) => {
      if (registered.has(channel)) throw new Error(`second handler for ${channel}`);
      registered.set(channel, listener);
    },
    removeHandler: (channel: string) => registered.delete(channel),
  },
}));

const { registerIpc, unregisterIpc } = await import('../../electron/main/ipc');

const fact: FactRecord = sampleFact;

const appFrame: Sender = { senderFrame: { url: 'app://tempora/index.html' } };
const calls: Array<{ name: string; request: unknown }> = [];
let answers: Partial<Record<ApiCallName, unknown>> = {};

function fakeHandlers(): ApiHandlers {
  const entries = (Object.keys(apiCalls) as ApiCallName[]).map((name) => [
    name,
    async (request: unknown) => {
      calls.push({ name, request });
      if (!(name in answers)) throw new Error(`${name} is not answered in this test`);
      if (answers[name] instanceof Error) throw answers[name];
      return answers[name];
    },
  ]);
  return Object.fromEntries(entries) as ApiHandlers;
}

const invoke = (channel: string, event: Sender, payload: unknown) => {
  const listener = registered.get(channel);
  if (!listener) throw new Error(`no handler registered for ${channel}`);
  return listener(event, payload);
};

beforeEach(() => {
  unregisterIpc();
  calls.length = 0;
  answers = { listFacts: { facts: [fact], total: 1 }, modelStatus: undefined, pickModelFile: { path: null } };
  registerIpc(fakeHandlers(), 'app://tempora');
});

describe('IPC registration', () => {
  it('registers exactly the channels of the contract', () => {
    expect([...registered.keys()].sort()).toEqual(Object.values(apiCalls).map((c) => c.channel).sort());
  });

  it('removes them all again', () => {
    unregisterIpc();
    expect(registered.size).toBe(0);
  });
});

describe('a call over IPC', () => {
  it('answers the app’s own page with the handler’s validated answer', async () => {
    await expect(invoke('memory:listFacts', appFrame, { asOf: '2026-09-10T00:00:00.000Z', subject: 'me' })).resolves.toEqual({ ok: true, value: { facts: [fact], total: 1 } });
    expect(calls).toEqual([{ name: 'listFacts', request: { asOf: '2026-09-10T00:00:00.000Z', subject: 'me' } }]);
  });

  it('routes each channel to its own handler', async () => {
    await expect(invoke('models:pickFile', appFrame, {})).resolves.toEqual({ ok: true, value: { path: null } });
    expect(calls.map((c) => c.name)).toEqual(['pickModelFile']);
  });

  it.each([
    [{ senderFrame: { url: 'https://example.com/' } }, /refused a call from "https:\/\/example.com\/"/],
    [{ senderFrame: { url: 'app://other/index.html' } }, /refused/],
    [{ senderFrame: { url: 'file:///tmp/index.html' } }, /refused/],
    [{ senderFrame: { url: 'http://127.0.0.1:5173/' } }, /refused/],
    [{ senderFrame: null }, /refused a call from a detached frame/],
  ])('refuses other senders (%j) on every channel', async (event, message) => {
    for (const call of Object.values(apiCalls)) await expect(invoke(call.channel, event, {})).rejects.toThrow(message);
    expect(calls).toEqual([]);
  });

  it.each([
    ['memory:listFacts', 'facts', /listFacts: invalid request/, undefined],
    ['memory:listFacts', { asOf: 'yesterday' }, /asOf: must be an ISO-8601 UTC time/, 'asOf'],
    ['memory:listFacts', { limit: -1 }, /limit:/, 'limit'],
    ['memory:listFacts', { history: 'yes' }, /history:/, 'history'],
    ['memory:listFacts', { subject: 'me', sql: 'DROP TABLE facts' }, /invalid request/, 'sql'],
    ['memory:editFact', { fact: 'no id' }, /editFact: invalid request: id:/, 'id'],
    ['models:load', { role: 'vision', path: '/m.gguf' }, /role:/, 'role'],
    ['chat:send', { conversationId: 'c1', turnId: 'short' }, /turnId:/, 'turnId'],
  ])('refuses a malformed payload on %s (%j) before it reaches a handler, naming the field', async (channel, payload, message, field) => {
    const outcome = await invoke(channel, appFrame, payload);
    expect(outcome).toEqual({ ok: false, code: 'invalid_request', error: expect.stringMatching(message), ...(field ? { field } : {}) });
    expect(calls).toEqual([]);
  });

  it('refuses to pass on an answer that breaks the contract', async () => {
    answers.listFacts = { facts: [{ ...fact, valid_at: 'not a time' }], total: 1 };
    await expect(invoke('memory:listFacts', appFrame, {})).resolves.toMatchObject({ ok: false, code: 'invalid_response', error: expect.stringMatching(/invalid response: facts\.0\.valid_at/) });
    answers.modelStatus = { chat: null };
    await expect(invoke('models:status', appFrame, {})).resolves.toMatchObject({ ok: false, code: 'invalid_response', error: expect.stringMatching(/modelStatus: invalid response/) });
  });

  it('answers a handler’s error with its code and field, as a plain object that survives IPC', async () => {
    answers.editFact = new MemoryInputError('invalid_at (2026-08-01T00:00:00.000Z) is before valid_at', 'invalid_at');
    const outcome = await invoke('memory:editFact', appFrame, { id: 'f1', invalid_at: '2026-08-01T00:00:00.000Z' });
    expect(structuredClone(outcome)).toEqual({ ok: false, code: 'invalid_input', field: 'invalid_at', error: 'invalid_at (2026-08-01T00:00:00.000Z) is before valid_at' });
    answers.factDetails = new MemoryInputError('no fact with id nope', 'fact_id', 'not_found');
    await expect(invoke('memory:factDetails', appFrame, { id: 'nope' })).resolves.toEqual({ ok: false, code: 'not_found', field: 'fact_id', error: 'no fact with id nope' });
    answers.loadModel = new ModelLoadError('not_gguf', '/m.gguf', '/m.gguf is not a GGUF model file');
    await expect(invoke('models:load', appFrame, { role: 'chat', path: '/m.gguf' })).resolves.toEqual({ ok: false, code: 'model', detail: 'not_gguf', error: '/m.gguf is not a GGUF model file' });
    answers.listEntities = new Error('the disk is full');
    await expect(invoke('memory:listEntities', appFrame, {})).resolves.toEqual({ ok: false, code: 'internal', error: 'the disk is full' });
  });
});
