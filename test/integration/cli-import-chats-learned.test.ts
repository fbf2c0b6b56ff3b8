/**
 * `tempora import-chats FILE --model PATH` ends with what `tempora ingest` reports: the facts the
 * imported messages added and closed, and the model's calls and tokens (the tiny random-weights
 * GGUF stands in for a model).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { temporaProcess } from './cli-helpers';
import { gptConversation } from '../fixtures/chat-exports';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

const dir = mkdtempSync(join(tmpdir(), 'tempora-import-learned-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T = Date.parse('2026-03-01T00:00:00Z') / 1000;

describe('tempora import-chats --model: the end summary', () => {
  it('says the facts learned and the model calls, as ingest does', async () => {
    const model = join(dir, 'tiny.gguf');
    await writeTinyGguf(model);
    const conversations = [0, 1].map((i) =>
      gptConversation({ id: `c${i}`, title: `Chat ${i}`, createTime: T + i * 60, thread: [{ id: `c${i}-u`, role: 'user', text: `大阪に住んでいます ${i}`, time: T + i * 60 + 1 }] }),
    );
    writeFileSync(join(dir, 'conversations.json'), JSON.stringify(conversations));
    const run = await temporaProcess(['import-chats', join(dir, 'conversations.json'), '--data', join(dir, 'data'), '--model', model, '--threads', '1'], { TEMPORA_THREADS: '1', TEMPORA_PROGRESS: '' });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    const at = lines.findIndex((l) => l.startsWith('Imported chats: 2 of 2 learned, 0 left'));
    expect(at, run.stdout).toBeGreaterThanOrEqual(0);
    expect(lines[at + 1]).toMatch(/^From imported chats: [\d,]+ facts? added, [\d,]+ closed\.$/);
    expect(lines[at + 2]).toMatch(/^Model: [\d,]+ calls? \([\d.]+ per message\), [\d,]+ prompt \+ [\d,]+ completion tokens\.$/);
  }, 120_000);
});
