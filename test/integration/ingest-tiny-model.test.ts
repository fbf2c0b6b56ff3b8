/**
 * The real model path end to end: node-llama-cpp with a tiny random-weights GGUF (written here, at
 * test time) drives `tempora ingest`. Its answers are valid JSON with nonsense content: the point is
 * that the whole pipeline runs, every job finishes, the counts agree and nothing crashes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import { openMemory } from '../../electron/memory/index';
import { memoryExport } from '../../shared/memory-schema';
import { conversationLines } from '../fixtures/conversation';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

let dir: string;
let model: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-ingest-'));
  model = join(dir, 'tiny.gguf');
  await writeTinyGguf(model);
  writeFileSync(join(dir, 'conversation.jsonl'), conversationLines(10));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tempora(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runAsync([...argv, '--data', join(dir, 'data')], { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: dir, env: { ...process.env, TEMPORA_THREADS: '1' } });
  return { code, out, err };
}

describe('ingest with the tiny real model', () => {
  it('learns from every message with at most 2 model calls each, and the counts agree', async () => {
    const result = await tempora('ingest', 'conversation.jsonl', '--model', 'tiny.gguf', '--embedding-model', 'tiny.gguf', '--json');
    expect(result.err).not.toMatch(/unexpected error/);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.out) as { messages: number; model_calls: number; facts_added: number; prompt_tokens: number; completion_tokens: number; parked: number };
    expect(summary.messages).toBe(10);
    expect(summary.model_calls).toBeGreaterThanOrEqual(10);
    expect(summary.model_calls).toBeLessThanOrEqual(20);
    expect(summary.prompt_tokens).toBeGreaterThan(0);
    expect(summary.completion_tokens).toBeGreaterThan(0);

    const memory = openMemory({ dataDir: join(dir, 'data') });
    try {
      const counts = memory.jobs.counts();
      expect(counts.pending + counts.running).toBe(0);
      expect(counts.done + counts.parked).toBe(10);
      expect(memory.jobs.totals().factsAdded).toBe(summary.facts_added);
      const facts = memory.facts.list({ history: true });
      expect(new Set(facts.map((f) => f.id)).size).toBe(facts.length);
      // whatever the model said, the stored memory is a valid export
      expect(memoryExport.safeParse(memory.transfer.export()).success).toBe(true);
    } finally {
      memory.close();
    }
  });

  it('stores nothing twice when the same file is ingested again', async () => {
    const result = await tempora('ingest', 'conversation.jsonl', '--model', 'tiny.gguf', '--json');
    expect(result.code).toBe(0);
    const memory = openMemory({ dataDir: join(dir, 'data') });
    try {
      expect(memory.transfer.export().episodes).toHaveLength(10);
      expect(memory.jobs.counts().done + memory.jobs.counts().parked).toBe(10);
    } finally {
      memory.close();
    }
  });

  it('refuses a bad line naming file, line and field, storing nothing', async () => {
    writeFileSync(join(dir, 'bad.jsonl'), `${JSON.stringify({ role: 'user', content: 'hi', time: '2026-09-01T00:00:00Z' })}\n${JSON.stringify({ role: 'robot', content: 'x', time: '2026-09-01' })}\n`);
    const result = await tempora('ingest', 'bad.jsonl', '--model', 'tiny.gguf');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^tempora: bad\.jsonl:2: role: /);
    const missing = await tempora('ingest', 'conversation.jsonl', '--model', 'nope.gguf');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/--model: .*nope\.gguf/);
  });
});
