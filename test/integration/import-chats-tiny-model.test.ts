/**
 * `tempora import-chats FILE --model PATH` with the tiny random-weights GGUF: the export is
 * imported, then its backfill is learned by the real model path; every imported message of yours
 * ends learned (or parked), none is left waiting, and the output gives the learning status.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import { openMemory } from '../../electron/memory/index';
import { sampleClaudeExport } from '../fixtures/chat-exports';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-import-chats-model-'));
  await writeTinyGguf(join(dir, 'tiny.gguf'));
  writeFileSync(join(dir, 'conversations.json'), JSON.stringify(sampleClaudeExport()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('import-chats --model', () => {
  it('imports, then learns the whole backfill with the model', async () => {
    let out = '';
    let err = '';
    const code = await runAsync(['import-chats', 'conversations.json', '--model', 'tiny.gguf', '--data', join(dir, 'data')], {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      cwd: dir,
      env: { ...process.env, TEMPORA_THREADS: '1', TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error' },
    });
    expect(err).not.toMatch(/unexpected error/);
    expect(code).toBe(0);
    expect(out).toContain('Claude export: 1 conversation, 4 messages');
    expect(out).toMatch(/Imported chats: \d of 3 learned, 0 left/);
    const memory = openMemory({ dataDir: join(dir, 'data') });
    try {
      const status = memory.history.backfillStatus();
      expect(status).toMatchObject({ total: 3, pending: 0, running: 0 });
      expect(status.done + status.parked).toBe(3);
    } finally {
      memory.close();
    }
  });
});
