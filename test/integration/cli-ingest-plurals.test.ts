/**
 * `tempora ingest` says its counts as the rest of the command line does: "1 message", "1 call",
 * never "1 messages" (the tiny random-weights GGUF stands in for a model).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../fixtures/tiny-gguf';
import { temporaProcess } from './cli-helpers';

let dir: string;
let model: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-ingest-plurals-'));
  model = join(dir, 'tiny.gguf');
  await writeTinyGguf(model);
  writeFileSync(join(dir, 'one.jsonl'), `${JSON.stringify({ role: 'user', content: '大阪に引っ越しました。', time: '2026-09-01T09:00:00+09:00', conversation: 'c1' })}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** "1 call", "2 calls", "0 facts": the word agrees with its count. */
const agrees = (n: string, word: string, one: string) => expect(word).toBe(n === '1' ? one : `${one}s`);

describe('tempora ingest: counts in words', () => {
  it('says 1 message, and each count with the word that agrees with it', async () => {
    const run = await temporaProcess(['ingest', join(dir, 'one.jsonl'), '--model', model, '--threads', '1', '--data', join(dir, 'data')], { TEMPORA_TZ: 'Asia/Tokyo', TEMPORA_THREADS: '1', TEMPORA_PROGRESS: '' });
    expect(run.code, run.stderr).toBe(0);
    const [learned, calls] = run.stdout.split('\n');
    const facts = /^Learned from 1 message in [\d.]+ s: ([\d,]+) (facts?) added, [\d,]+ closed\.$/.exec(learned!);
    expect(facts, learned).not.toBeNull();
    agrees(facts![1]!, facts![2]!, 'fact');
    const usage = /^Model: ([\d,]+) (calls?) \([\d.]+ per message\), [\d,]+ prompt \+ [\d,]+ completion tokens\.$/.exec(calls!);
    expect(usage, calls).not.toBeNull();
    agrees(usage![1]!, usage![2]!, 'call');
  }, 120_000);
});
