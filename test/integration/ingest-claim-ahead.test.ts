/**
 * One commit per learned message on the worker's side: the transaction that applies a message's
 * learning and completes its job also claims the next job (issue 29). The new boundary — the next
 * job claimed, its learning not yet applied — must lose nothing: a process that dies there leaves
 * that job 'running', and the next start learns it once; a worker stopped there, or left without a
 * model, puts it back in the queue without counting an attempt.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StructuredModel } from '../../electron/llm/ports';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { IngestionWorker, type IngestionEvent } from '../../electron/assistant/ingestion/ingestion-worker';
import { scriptedModel, type Script } from '../fixtures/scripted-model';
import { startCommitCount, stopCommitCount } from '../bench/commit-count';

const SCRIPT: Script = {
  extract: {
    'I live in Kyoto.': [{ subject: 'me', predicate: 'lives_in', object: 'Kyoto', object_type: 'place', fact: 'I live in Kyoto.', cardinality: 'one' }],
    'I play the piano.': [{ subject: 'me', predicate: 'plays', object: 'piano', object_type: 'thing', fact: 'I play the piano.' }],
    'I work at Acme.': [{ subject: 'me', predicate: 'works_at', object: 'Acme', object_type: 'organization', fact: 'I work at Acme.', cardinality: 'one' }],
  },
};
const MESSAGES = ['I live in Kyoto.', 'I play the piano.', 'I work at Acme.'];

/** The scripted model, except that the extraction of `holdOn` never answers (until aborted). */
function holdingModel(holdOn: string): StructuredModel & { held: Promise<void> } {
  const inner = scriptedModel(SCRIPT);
  let reached: () => void = () => {};
  const held = new Promise<void>((resolve) => (reached = resolve));
  const model: StructuredModel = {
    completeJson(req) {
      if (!req.prompt.includes(holdOn)) return inner.completeJson(req);
      reached();
      return new Promise<never>((_, reject) => req.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    },
  };
  return Object.assign(model, { held });
}

let dir: string;
beforeEach(() => {
  vi.stubEnv('TEMPORA_TZ', 'UTC');
  dir = mkdtempSync(join(tmpdir(), 'tempora-claim-ahead-'));
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

/** A clock a second a step: jobs are taken in the order they were stored, never by a tie on the same millisecond. */
function open(): Memory {
  return openMemory({ dataDir: dir, clock: steppingClock('2026-11-01T00:00:00.000Z', 1000) });
}

function append(memory: Memory): void {
  MESSAGES.forEach((content, i) => memory.messages.append({ role: 'user', content, time: `2026-09-0${i + 1}T10:00:00Z`, conversation: 'c1' }));
}

function jobs(): { content: string; status: string; attempts: number }[] {
  const db = new Database(join(dir, 'memory.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT e.content, j.status, j.attempts FROM ingestion_jobs j JOIN episodes e ON e.id = j.episode_id ORDER BY e.reference_time').all() as { content: string; status: string; attempts: number }[];
  } finally {
    db.close();
  }
}

describe('the worker claims the next job in the commit that completes one', () => {
  it('learns a queue of messages with one commit per message, plus the first claim', async () => {
    const memory = open();
    try {
      append(memory);
      const worker = new IngestionWorker(memory, { model: () => scriptedModel(SCRIPT) });
      startCommitCount();
      worker.start();
      await worker.whenIdle();
      await worker.stop();
      const sites = stopCommitCount();
      const commits = (name: string) => sites.filter((s) => s.site.includes(name)).reduce((n, s) => n + s.commits, 0);
      expect(commits('learnJob'), JSON.stringify(sites)).toBe(MESSAGES.length);
      // Besides, the first job's claim; nothing else per message (the start had nothing to recover).
      expect(commits('claimNext'), JSON.stringify(sites)).toBe(1);
      expect(sites.reduce((n, s) => n + s.commits, 0), JSON.stringify(sites)).toBe(MESSAGES.length + 1);
      expect(jobs().map((j) => [j.status, j.attempts])).toEqual(MESSAGES.map(() => ['done', 1]));
    } finally {
      memory.close();
    }
  });

  it('a process that dies after a job completed and the next was claimed learns that next one once on its next start', async () => {
    const first = open();
    append(first);
    const model = holdingModel('I play the piano.');
    const done: IngestionEvent[] = [];
    const worker = new IngestionWorker(first, { model: () => model, onEvent: (e) => e.type === 'job-done' && done.push(e) });
    worker.start();
    await model.held;
    // Committed together: the first job done, the second running (claimed by that same commit).
    expect(done).toHaveLength(1);
    expect(jobs().map((j) => [j.content, j.status, j.attempts])).toEqual([
      ['I live in Kyoto.', 'done', 1],
      ['I play the piano.', 'running', 1],
      ['I work at Acme.', 'pending', 0],
    ]);
    // The process dies here: no stop(), no release; the store is simply left as it is on disk.
    first.close();

    const again = open();
    try {
      const next = new IngestionWorker(again, { model: () => scriptedModel(SCRIPT) });
      next.start();
      await next.whenIdle();
      await next.stop();
      expect(jobs().map((j) => [j.content, j.status, j.attempts])).toEqual([
        ['I live in Kyoto.', 'done', 1],
        ['I play the piano.', 'done', 2],
        ['I work at Acme.', 'done', 1],
      ]);
      expect(again.facts.list({ subject: 'me' }).map((f) => f.object).sort()).toEqual(['Acme', 'Kyoto', 'piano']);
      // each message's facts once: the piano was learned by one job, not two
      expect(again.facts.list({ subject: 'me', history: true }).filter((f) => f.object === 'piano')).toHaveLength(1);
    } finally {
      again.close();
    }
  });

  it('a worker stopped while it holds a claimed job puts it back untouched', async () => {
    const memory = open();
    try {
      append(memory);
      const model = holdingModel('I play the piano.');
      const worker = new IngestionWorker(memory, { model: () => model });
      worker.start();
      await model.held;
      await worker.stop(0);
      expect(jobs().map((j) => [j.content, j.status, j.attempts])).toEqual([
        ['I live in Kyoto.', 'done', 1],
        ['I play the piano.', 'pending', 0],
        ['I work at Acme.', 'pending', 0],
      ]);
    } finally {
      memory.close();
    }
  });

  it('a job claimed ahead goes back to the queue when the model is unloaded meanwhile', async () => {
    const memory = open();
    try {
      append(memory);
      let loaded = true;
      const model = scriptedModel(SCRIPT);
      const worker = new IngestionWorker(memory, {
        model: () => (loaded ? model : null),
        // The model goes away as the first message is learned: the job claimed with it must not stay 'running'.
        onEvent: (e) => {
          if (e.type === 'job-done') loaded = false;
        },
      });
      worker.start();
      await worker.whenIdle();
      expect(jobs().map((j) => [j.content, j.status, j.attempts])).toEqual([
        ['I live in Kyoto.', 'done', 1],
        ['I play the piano.', 'pending', 0],
        ['I work at Acme.', 'pending', 0],
      ]);
      expect(memory.jobs.counts()).toMatchObject({ running: 0, pending: 2, done: 1 });
      await worker.stop();
    } finally {
      memory.close();
    }
  });
});
