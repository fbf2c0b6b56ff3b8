/**
 * Typed errors over the loopback bridge, with a real engine and real WebSockets: a call's error
 * arrives with its code and field - on the wire (the test client of bridge-helpers.ts) and as the
 * ApiError the renderer's own BridgeClient rejects with.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WS from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FactRecord } from '../../shared/memory-schema';
import { ApiError } from '../../shared/api-error';
import { TemporaEngine } from '../../electron/engine/engine';
import { startBridge, type Bridge } from '../../electron/server/bridge-server';
import { BridgeClient } from '../../renderer/src/api/bridge-client';
import { errorMessage } from '../../renderer/src/api/errors';
import { openClient, writeFixtureRenderer, type BridgeTestClient } from './bridge-helpers';

let dir: string;
let engine: TemporaEngine;
let bridge: Bridge;
let client: BridgeTestClient;
let fact: FactRecord;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-bridge-errors-'));
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  writeFixtureRenderer(join(dir, 'renderer'), join(dir, 'secret.txt'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false });
  engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' }], {
    where: 'bridge errors test',
  });
  bridge = await startBridge({ engine, rendererDir: join(dir, 'renderer'), port: 0 });
  client = await openClient(bridge.port, bridge.token);
  fact = (await client.value<{ facts: FactRecord[] }>('listFacts', {})).facts[0]!;
});

afterAll(async () => {
  client?.close();
  await bridge?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('on the wire', () => {
  it('a MemoryInputError arrives with code invalid_input and its `where` as the field', async () => {
    const result = await client.call('editFact', { id: fact.id, invalid_at: '2026-08-01T00:00:00.000Z' });
    expect(result).toEqual({ type: 'result', id: expect.any(Number), ok: false, code: 'invalid_input', field: 'invalid_at', error: expect.stringMatching(/invalid_at .* must be after valid_at/) });
    const conversation = await client.value<{ id: string }>('createConversation', {});
    expect(await client.call('renameConversation', { id: conversation.id, title: '   ' })).toMatchObject({ ok: false, code: 'invalid_input', field: 'title' });
  });

  it('a request that breaks the schema arrives with code invalid_request and the path of the field', async () => {
    expect(await client.call('listFacts', { asOf: 'yesterday' })).toMatchObject({ ok: false, code: 'invalid_request', field: 'asOf', error: expect.stringMatching(/^listFacts: invalid request: asOf:/) });
    expect(await client.call('listFacts', { subject: 'me', sql: 'DROP TABLE facts' })).toMatchObject({ ok: false, code: 'invalid_request', field: 'sql' });
    expect(await client.call('editFact', { fact: 'no id' })).toMatchObject({ ok: false, code: 'invalid_request', field: 'id' });
    const whole = await client.call('listFacts', 'all of them');
    expect(whole).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(whole).not.toHaveProperty('field');
  });

  it('bad frames with a readable id say what kind of problem they are', async () => {
    expect(await client.call('dropTables', {})).toMatchObject({ ok: false, code: 'unknown_call', error: 'unknown call "dropTables"' });
    client.sendRaw(JSON.stringify({ type: 'call', id: 700, name: 'listFacts', request: {}, extra: true }));
    expect(await client.next((m) => m.type === 'result' && m.id === 700)).toMatchObject({ ok: false, code: 'invalid_request', error: 'unexpected field "extra" in the message' });
  });
});

describe('through the renderer’s BridgeClient', () => {
  let original: unknown;
  let renderer: BridgeClient;

  beforeAll(async () => {
    // Node 20 has no WebSocket global: ws's client has the same interface, and sends the page's Origin here.
    original = (globalThis as { WebSocket?: unknown }).WebSocket;
    const origin = `http://127.0.0.1:${bridge.port}`;
    (globalThis as { WebSocket?: unknown }).WebSocket = class extends WS {
      constructor(url: string) {
        super(url, { origin });
      }
    };
    renderer = new BridgeClient(`ws://127.0.0.1:${bridge.port}/api?token=${bridge.token}`);
    await new Promise<void>((resolve) => {
      const off = renderer.subscribe(() => {
        if (renderer.get().kind === 'open') {
          off();
          resolve();
        }
      });
    });
  });

  afterAll(() => {
    renderer?.dispose();
    (globalThis as { WebSocket?: unknown }).WebSocket = original;
  });

  const failureOf = async (promise: Promise<unknown>): Promise<ApiError> => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  };

  it('answers a good call with its value', async () => {
    const { facts, total } = await renderer.call('listFacts', {});
    expect(facts.map((f) => f.id)).toContain(fact.id);
    expect(total).toBe(facts.length);
  });

  it('rejects with an ApiError carrying the engine error’s code and field', async () => {
    const error = await failureOf(renderer.call('editFact', { id: fact.id, invalid_at: '2026-08-01T00:00:00.000Z' }));
    expect({ code: error.code, field: error.field }).toEqual({ code: 'invalid_input', field: 'invalid_at' });
    expect(errorMessage(error)).toMatch(/invalid_at .* must be after valid_at/);
  });

  it('rejects with an ApiError naming the field path of a validation error', async () => {
    const error = await failureOf(renderer.call('listFacts', { asOf: 'yesterday' }));
    expect({ code: error.code, field: error.field }).toEqual({ code: 'invalid_request', field: 'asOf' });
    expect(errorMessage(error)).toMatch(/^listFacts: invalid request: asOf:/);
  });

  it('refuses to send a request over the bridge’s size limit, and the connection stays up', async () => {
    const error = await failureOf(renderer.call('previewImport', { document: 'x'.repeat(26 * 1024 * 1024) }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/too large/);
    expect(renderer.get().kind).toBe('open');
    await expect(renderer.call('listEntities', {})).resolves.toEqual(expect.any(Array));
  });
});
