/**
 * Fuzz of the WebSocket frames a client can send (shared/bridge-protocol.ts; fast-check, bounded,
 * part of `npm test`), against a running bridge with a real engine: text that is not JSON, any
 * JSON value, call-shaped messages with odd types, ids, names (real calls, unknown ones,
 * prototype names) and any request, deep nesting.
 *
 * The invariant: every frame gets exactly one answer - a valid result for its id, or a clear
 * error (a message in words; with a code when it names an id, with id null when its id cannot be
 * read) - and the connection and the server stay up. Calls that would reach the network or load
 * a file (downloadModel, loadModel), start a chat turn (sendMessage) or replace the memory
 * (importMemory) are left out; their names still appear with requests that cannot pass.
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls } from '../../shared/api-contract';
import { TemporaEngine } from '../../electron/engine/engine';
import { startBridge, type Bridge } from '../../electron/server/bridge-server';
import { openClient, writeFixtureRenderer, type BridgeTestClient, type ServerMessage } from './bridge-helpers';

const RUNS = 200;
const UNSAFE = new Set(['downloadModel', 'loadModel', 'sendMessage', 'importMemory']);
const SAFE_CALLS = Object.keys(apiCalls).filter((name) => !UNSAFE.has(name));

let dir: string;
let engine: TemporaEngine;
let bridge: Bridge;
let client: BridgeTestClient;
let nextId = 1;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-bridge-frame-fuzz-'));
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  writeFixtureRenderer(join(dir, 'renderer'), join(dir, 'secret.txt'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false });
  engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' }], { where: 'frame fuzz' });
  bridge = await startBridge({ engine, rendererDir: join(dir, 'renderer'), port: 0 });
  client = await openClient(bridge.port, bridge.token);
});

afterAll(async () => {
  client?.close();
  await bridge?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Result = Extract<ServerMessage, { type: 'result' }>;

/** Sends one frame and waits for the next result (events may come between). */
async function answerTo(frame: string): Promise<Result> {
  const seen = client.messages.length;
  client.sendRaw(frame);
  return (await client.next((m) => m.type === 'result' && client.messages.indexOf(m) >= seen, 10_000)) as Result;
}

/** The id a frame's answer must carry: its id when the frame is a JSON object with an integer id, else null. */
function expectedId(frame: string): number | null {
  try {
    const value: unknown = JSON.parse(frame);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const id = (value as { id?: unknown }).id;
    return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
  } catch {
    return null;
  }
}

function checkAnswer(frame: string, answer: Result): void {
  const id = expectedId(frame);
  expect(answer.id === null ? null : Number(answer.id), frame.slice(0, 200)).toBe(id === null ? null : Number(id));
  if (answer.ok) return; // a valid result: the contract's response schema was checked by the server
  expect(typeof answer.error).toBe('string');
  expect(answer.error.length).toBeGreaterThan(0);
  expect(answer.error).not.toMatch(/\n\s+at /); // words, not a stack trace
  if (answer.id !== null) expect((answer as { code?: unknown }).code).toEqual(expect.any(String));
  expect(client.socket.readyState).toBe(WebSocket.OPEN);
}

const id = fc.oneof(
  fc.constant(null).map(() => nextId++),
  fc.constantFrom(-0, 1.5, -1, 2 ** 53, '1', null, true, [], {}),
);
const name = fc.oneof(fc.constantFrom(...SAFE_CALLS), fc.constantFrom(...UNSAFE), fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'listFacts '), fc.string(), fc.jsonValue());
const request = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom('id', 'query', 'asOf', 'limit', 'offset', 'subject', 'fact', 'title', 'document', 'role', 'path', 'timeZone', 'turnId', 'forget', 'entity'), fc.jsonValue(), {
    maxKeys: 4,
  }),
);
const callFrame = fc
  .record(
    { type: fc.oneof(fc.constant('call'), fc.jsonValue()), id, name, request, extra: fc.jsonValue() },
    { requiredKeys: ['type', 'id', 'name'] },
  )
  .map((message) => {
    // A real call with a request that cannot pass: the dangerous calls are only ever refused.
    if (UNSAFE.has(message.name as string)) return JSON.stringify({ ...message, request: { not: 'a field' } });
    return JSON.stringify(message);
  });
const frame = fc.oneof(
  { arbitrary: callFrame, weight: 6 },
  { arbitrary: fc.jsonValue().map((value) => JSON.stringify(value) ?? 'null'), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 5_000 }).map((depth) => `{"type":"call","id":${nextId++},"name":"listFacts","request":${'['.repeat(depth)}${']'.repeat(depth)}}`), weight: 1 },
  { arbitrary: fc.constantFrom('', ' ', '{', '{"type":"call","id":1e400,"name":"listFacts"}', '{"__proto__":{"id":1},"type":"call"}', '\u0000', '"\\ud800"'), weight: 1 },
);

describe('bridge frames', () => {
  it('every frame gets one answer: a valid result or a clear error, and the connection stays open', async () => {
    await fc.assert(
      fc.asyncProperty(frame, async (text) => {
        checkAnswer(text, await answerTo(text));
      }),
      { numRuns: RUNS },
    );
  });

  it('the server still serves: the same connection, and a new one', async () => {
    const after = await answerTo(JSON.stringify({ type: 'call', id: 10_000_000, name: 'listFacts', request: {} }));
    expect(after).toMatchObject({ id: 10_000_000, ok: true, value: { facts: expect.any(Array), total: expect.any(Number) } });
    const fresh = await openClient(bridge.port, bridge.token);
    expect(await fresh.call('listEntities', {})).toMatchObject({ ok: true });
    fresh.close();
  });
});
