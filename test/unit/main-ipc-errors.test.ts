/**
 * Typed errors across Electron IPC, end to end: electron/main/ipc.ts, electron/preload/index.ts
 * and the renderer's ipc-client.ts, joined by a stand-in for Electron that behaves as Electron
 * does at the seams: what a handler resolves is structured-cloned, and what it rejects with reaches
 * the caller as a new Error with the message only ("Error invoking remote method ..."), custom
 * properties gone. A call's error must still reach UI code as an ApiError with code and field.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { apiCalls, type ApiCallName, type ApiEventEnvelope, type TemporaIpcApi } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import type { FactRecord } from '../../shared/memory-schema';
import type { ApiHandlers } from '../../electron/engine/api-handlers';
import { MemoryInputError } from '../../electron/memory/index';
import { ModelLoadError } from '../../electron/llm/model-errors';
import { ipcApi } from '../../renderer/src/api/ipc-client';
import { errorField, errorMessage } from '../../renderer/src/api/errors';
import { sampleFact } from '../fixtures/fact-record';

type Listener = (event: { senderFrame: { url: string } | null }, payload: unknown) => Promise<unknown>;
const handlers = new Map<string, Listener>();
const exposed = new Map<string, unknown>();
const eventListeners = new Set<(event: unknown, envelope: unknown) => void>();
let senderUrl = 'app://tempora/index.html';

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, listener: Listener) => handlers.set(channel, listener),
    removeHandler: (channel: string) => handlers.delete(channel),
  },
  ipcRenderer: {
    invoke: async (channel: string, payload: unknown) => {
      const listener = handlers.get(channel);
      if (!listener) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`);
      try {
        return structuredClone(await listener({ senderFrame: { url: senderUrl } }, structuredClone(payload)));
      } catch (error) {
        throw new Error(`Error invoking remote method '${channel}': ${String(error)}`, { cause: error });
      }
    },
    on: (_channel: string, listener: (event: unknown, envelope: unknown) => void) => eventListeners.add(listener),
    removeListener: (_channel: string, listener: (event: unknown, envelope: unknown) => void) => eventListeners.delete(listener),
  },
  contextBridge: { exposeInMainWorld: (name: string, value: unknown) => exposed.set(name, value) },
}));

const { registerIpc, unregisterIpc } = await import('../../electron/main/ipc');
await import('../../electron/preload/index');
const preloadApi = exposed.get('tempora') as TemporaIpcApi;

const fact: FactRecord = sampleFact;

const throwing: Partial<Record<ApiCallName, unknown>> = {
  editFact: new MemoryInputError('invalid_at (2026-08-01T00:00:00.000Z) must be after valid_at (2026-09-01T01:00:00.000Z)', 'invalid_at'),
  factDetails: new MemoryInputError('no fact with id nope', 'fact_id', 'not_found'),
  loadModel: new ModelLoadError('truncated', '/m.gguf', '/m.gguf is truncated: download it again'),
  listEntities: new Error('the disk is full'),
};

function fakeHandlers(): ApiHandlers {
  const entries = (Object.keys(apiCalls) as ApiCallName[]).map((name) => [
    name,
    async () => {
      if (name in throwing) throw throwing[name];
      if (name === 'listFacts') return { facts: [fact], total: 1 };
      throw new Error(`${name} is not answered in this test`);
    },
  ]);
  return Object.fromEntries(entries) as ApiHandlers;
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const api = ipcApi(preloadApi);

beforeEach(() => {
  unregisterIpc();
  senderUrl = 'app://tempora/index.html';
  registerIpc(fakeHandlers(), 'app://tempora');
});

describe('errors from main to the page', () => {
  it('a good call resolves to its value, not the outcome around it', async () => {
    await expect(api.listFacts({})).resolves.toEqual({ facts: [fact], total: 1 });
  });

  it('a MemoryInputError arrives as an ApiError with code invalid_input and its where as field', async () => {
    const error = await rejection(api.editFact({ id: 'f1', invalid_at: '2026-08-01T00:00:00.000Z' }));
    expect({ code: error.code, field: error.field }).toEqual({ code: 'invalid_input', field: 'invalid_at' });
    expect(errorMessage(error)).toBe('invalid_at (2026-08-01T00:00:00.000Z) must be after valid_at (2026-09-01T01:00:00.000Z)');
    expect(errorField(error)).toBe('invalid_at');
    const missing = await rejection(api.factDetails({ id: 'nope' }));
    expect({ code: missing.code, field: missing.field }).toEqual({ code: 'not_found', field: 'fact_id' });
  });

  it('a request that breaks the schema arrives with code invalid_request and the path of the field', async () => {
    const error = await rejection(api.listFacts({ asOf: 'yesterday' }));
    expect({ code: error.code, field: error.field }).toEqual({ code: 'invalid_request', field: 'asOf' });
    expect(errorMessage(error)).toMatch(/^listFacts: invalid request: asOf: must be an ISO-8601 UTC time/);
    const emptyId = await rejection(api.editFact({ id: '' }));
    expect({ code: emptyId.code, field: emptyId.field }).toEqual({ code: 'invalid_request', field: 'id' });
  });

  it('a model error arrives with code model and the model layer’s code as detail; anything else as internal', async () => {
    const model = await rejection(api.loadModel({ role: 'chat', path: '/m.gguf' }));
    expect({ code: model.code, detail: model.detail, message: model.message }).toEqual({ code: 'model', detail: 'truncated', message: '/m.gguf is truncated: download it again' });
    const other = await rejection(api.listEntities({}));
    expect({ code: other.code, message: other.message }).toEqual({ code: 'internal', message: 'the disk is full' });
  });

  it('a refused sender (a rejection, not an outcome) still becomes an ApiError, without Electron’s prefix', async () => {
    senderUrl = 'https://example.com/';
    const error = await rejection(api.listFacts({}));
    expect(error.code).toBe('internal');
    expect(errorMessage(error)).toMatch(/^memory:listFacts: refused a call from "https:\/\/example.com\/"/);
  });

  it('an answer that is not an outcome is refused as internal', async () => {
    const broken = ipcApi({ ...preloadApi, listFacts: (async () => ({ facts: [fact], total: 1 })) as unknown as TemporaIpcApi['listFacts'] });
    const error = await rejection(broken.listFacts({}));
    expect(error.code).toBe('internal');
    expect(error.message).toMatch(/cannot read/);
  });

  it('has exactly the contract’s calls plus onEvent, and passes events on', () => {
    expect(Object.keys(api).sort()).toEqual([...Object.keys(apiCalls), 'onEvent'].sort());
    const received: ApiEventEnvelope[] = [];
    const off = api.onEvent((event) => received.push(event));
    const envelope: ApiEventEnvelope = { name: 'memoryChanged', payload: { reason: 'edit' } };
    for (const listener of eventListeners) listener({ sender: 'ipc event' }, envelope);
    off();
    expect(received).toEqual([envelope]);
    expect(eventListeners.size).toBe(0);
  });
});
