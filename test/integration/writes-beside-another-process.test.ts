/**
 * Writes that read first, while another process writes the same memory (`tempora import` beside the
 * app learning a message; the app's learning beside `tempora observe`): like every other write, each
 * waits for the other's write to commit (busy_timeout) and then writes on top of it. A transaction
 * begun deferred reads first, and a write that commits after that read leaves it a snapshot it may
 * not write from: SQLITE_BUSY_SNAPSHOT, at once, whatever the wait.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { IngestionWorker, type IngestionEvent } from '../../electron/assistant/ingestion/ingestion-worker';
import { scriptedModel } from '../fixtures/scripted-model';

let dir: string;
let memory: Memory;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-import-beside-'));
  memory = openMemory({ dataDir: dir, clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
});
afterEach(() => {
  memory.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Another process that takes the write lock, says so, writes a setting, and commits `holdMs` later. */
async function writerHoldingTheLock(path: string, holdMs = 300): Promise<{ done: Promise<unknown> }> {
  const script = `
    const db = new (require('better-sqlite3'))(process.argv[1]);
    db.exec('BEGIN IMMEDIATE');
    db.prepare("INSERT INTO memory_settings (key, value) VALUES ('elsewhere', '1')").run();
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`;
  const child = spawn(process.execPath, ['-e', script, path, String(holdMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  expect(line.toString()).toBe('locked\n');
  return { done: once(child, 'exit') };
}

it('an import waits for another process’s write and writes after it, never failing on a stale read', async () => {
  memory.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: '2026-11-01T00:00:00.000Z' as never }]);
  const other = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
  other.facts.observe([{ subject: 'me', predicate: 'lives_in', object: 'Osaka', fact: 'I live in Osaka.', reference_time: '2026-10-01T00:00:00.000Z' as never }]);
  const document = other.transfer.export();
  other.close();

  const writer = await writerHoldingTheLock(join(dir, 'memory.sqlite'));
  const summary = memory.transfer.import(document);
  await writer.done;
  expect(summary.facts).toBe(1);
  expect(memory.facts.list({ subject: 'me' }).map((f) => f.object).sort()).toEqual(['Osaka', 'tea']);
});

it('so does an import into an empty memory with its indexes built on the other thread', async () => {
  const other = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
  other.facts.observe([{ subject: 'me', predicate: 'lives_in', object: 'Osaka', fact: 'I live in Osaka.', reference_time: '2026-10-01T00:00:00.000Z' as never }]);
  const document = other.transfer.export();
  other.close();

  const writer = await writerHoldingTheLock(join(dir, 'memory.sqlite'));
  const summary = memory.transfer.import(document, { helper: true });
  await writer.done;
  expect(summary.facts).toBe(1);
  expect(memory.facts.list({ subject: 'me' }).map((f) => f.object)).toEqual(['Osaka']);
});

it('the learning takes its next message while another process writes, instead of stopping on "locked"', async () => {
  const { episode } = memory.messages.append({ conversation: 'cnv_a', role: 'user', content: 'I moved to Kyoto.', time: '2026-11-30T09:00:00.000Z' });
  const writer = await writerHoldingTheLock(join(dir, 'memory.sqlite'));
  const job = memory.jobs.claimNext();
  await writer.done;
  expect(job).toMatchObject({ episode_id: episode.id, status: 'running', attempts: 1 });
});

it('the learning rests and asks again when another process holds the lock past the busy timeout', async () => {
  const { episode } = memory.messages.append({ conversation: 'cnv_a', role: 'user', content: 'I live in Kyoto.', time: '2026-11-30T09:00:00.000Z' });
  // The app waits 5 s for a lock; 50 ms here, so that a 600 ms hold outlasts it.
  databaseOf(memory).pragma('busy_timeout = 50');
  const fact = { subject: 'me', subject_type: 'user' as const, predicate: 'lives_in', object: 'Kyoto', object_type: 'place' as const, fact: 'I live in Kyoto.', cardinality: 'one' as const };
  const events: IngestionEvent[] = [];
  let learned!: () => void;
  const done = new Promise<void>((resolve) => (learned = resolve));
  // Started with no model loaded (the jobs wait); the model comes once the other process holds the lock.
  const model = scriptedModel({ extract: { 'I live in Kyoto.': [fact] } });
  let loaded = false;
  const worker = new IngestionWorker(memory, { model: () => (loaded ? model : null), onEvent: (e) => (events.push(e), e.type === 'job-done' && learned()) });
  worker.start();
  const writer = await writerHoldingTheLock(join(dir, 'memory.sqlite'), 600);
  loaded = true;
  worker.notify();
  await writer.done;
  await done;
  await worker.stop();
  expect(events.filter((e) => e.type === 'job-done').map((e) => (e as { job: { episode_id: string } }).job.episode_id)).toEqual([episode.id]);
  expect(memory.facts.list({ subject: 'me' }).map((f) => f.object)).toEqual(['Kyoto']);
});
