/**
 * `tempora ingest` with review before remembering on, as a spawned process with the tiny
 * random-weights GGUF: what the model read waits for review, so the summary says how many messages
 * wait (and where to see them), never "learned" — nothing of them is remembered yet.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaCommand } from './cli-helpers';
import { openMemory } from '../../electron/memory/index';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

let dir: string;

// TEMPORA_PROGRESS=1: the piped stderr stands in for a terminal, so the progress line is written.
const tempora = (...args: string[]) => temporaCommand([...args, '--data', join(dir, 'data')], { env: { TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error', TEMPORA_PROGRESS: '1' } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-ingest-review-'));
  await writeTinyGguf(join(dir, 'tiny.gguf'));
  const lines = [
    { role: 'user', content: 'My manager is Sato.', time: '2026-09-01T09:00:00+09:00', conversation: 'c1', id: 'epi_review_1' },
    { role: 'user', content: 'I live in Kyoto.', time: '2026-09-02T09:00:00+09:00', conversation: 'c1', id: 'epi_review_2' },
  ];
  writeFileSync(join(dir, 'two.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tempora ingest with review on', () => {
  it('says the messages wait for review, not that they were learned', async () => {
    expect((await tempora('review', 'on')).code).toBe(0);
    const ingest = await tempora('ingest', join(dir, 'two.jsonl'), '--model', join(dir, 'tiny.gguf'), '--threads', '1');
    expect(ingest.code).toBe(0);
    const memory = openMemory({ dataDir: join(dir, 'data'), readonly: true });
    const waiting = memory.review.pending().map((r) => r.episodeId);
    memory.close();
    expect(waiting.sort()).toEqual(['epi_review_1', 'epi_review_2']);
    expect(ingest.stdout.split('\n')[0]).toMatch(/^Read 2 messages in [\d.]+ s: 2 messages waiting for your review \(see them with 'tempora review'\); nothing of them is remembered yet\.$/);
    expect(ingest.stdout).not.toMatch(/learned/i);
    expect(ingest.stderr).toMatch(/\[2\/2\] read for review/);
    expect(ingest.stderr).not.toMatch(/learned/);

    const json = await tempora('ingest', join(dir, 'two.jsonl'), '--model', join(dir, 'tiny.gguf'), '--threads', '1', '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ messages: 2, facts_added: 0, facts_closed: 0, waiting_for_review: 2 });
  }, 120_000);
});
