/**
 * `tempora chat` as a process, typed to through its stdin: /undo takes back what the last message of
 * the conversation taught, /redo applies the same learning again (no model reads the message), and
 * the memory holds what it held before the Undo. The chat model is the tiny random-weights GGUF
 * (the command needs one); the learning was made beforehand with the scripted model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaCommand, type Exit } from './cli-helpers';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { openMemory } from '../../electron/memory/index';
import { scriptedModel } from '../fixtures/scripted-model';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

const lives = (city: string) => [{ subject: 'me', subject_type: 'user' as const, predicate: 'lives_in', object: city, object_type: 'place' as const, fact: `I live in ${city}.`, cardinality: 'one' as const }];
let dir: string;
let data: string;
let conversation: string;
let osaka: string;

/** Runs `tempora chat` with these lines on its stdin; resolves with its exit code and output. */
function chat(lines: string[]): Promise<Exit> {
  const args = ['chat', '--model', join(dir, 'tiny.gguf'), '--threads', '1', '--conversation', conversation, '--data', data];
  return temporaCommand(args, { env: { TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error' }, input: lines.map((l) => `${l}\n`).join('') });
}

const livesIn = () => {
  const memory = openMemory({ dataDir: data });
  try {
    return memory
      .facts.list({ history: true })
      .filter((f) => f.expired_at === null)
      .map((f) => [f.object, f.valid_at, f.invalid_at]);
  } finally {
    memory.close();
  }
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-redo-'));
  data = join(dir, 'data');
  await writeTinyGguf(join(dir, 'tiny.gguf'));
  const memory = openMemory({ dataDir: data });
  conversation = memory.conversations.create('Moving').id;
  memory.messages.append({ role: 'user', content: 'I live in Tokyo.', time: '2026-09-01T09:00:00Z', conversation });
  osaka = memory.messages.append({ role: 'user', content: 'I moved to Osaka.', time: '2026-09-15T09:00:00Z', conversation }).episode.id;
  const worker = new IngestionWorker(memory, { model: () => scriptedModel({ extract: { 'I live in Tokyo.': lives('Tokyo'), 'I moved to Osaka.': lives('Osaka') } }) });
  worker.start();
  await worker.whenIdle();
  await worker.stop();
  memory.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora chat: /undo and /redo', () => {
  it('undoes the last message’s learning, then applies the same learning again', async () => {
    const learned = livesIn();
    expect(learned).toEqual(expect.arrayContaining([['Osaka', '2026-09-15T09:00:00.000Z', null]]));
    const run = await chat(['/redo', '/undo', '/redo', '/quit']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const said = run.stdout.split('\n').map((l) => l.replace(/^you> /, '').trim());
    expect(said).toContain('Nothing to redo: no message of this conversation was undone.');
    expect(said).toContain('Undone: forgot 1 fact; reopened I live in Tokyo.');
    expect(said.find((l) => l.startsWith('Redone: '))).toMatch(/^Redone: Learned: I live in Osaka\. · Closed: I live in Tokyo\. \(.+\)$/);
    expect(livesIn()).toEqual(learned);
    const memory = openMemory({ dataDir: data });
    try {
      expect(memory.messages.learning(osaka)).toMatchObject({ state: 'learned', canUndo: true, canRedo: false });
    } finally {
      memory.close();
    }
    // A process start and the model's load, on a shared machine.
  }, 120_000);
});
