/**
 * A `tempora chat` refused once its engine is open — with an embedding model given, or one used
 * before (the memory's settings name it), and a vector index built — closes every connection to the
 * store before it returns: SQLite removes `memory.sqlite-wal` and `-shm` when the last connection
 * closes, so none is left beside the database, and the memory is unchanged. In-process (runAsync):
 * a process that exits closes what is left open by itself, and would hide a connection left open.
 * The tiny model on one thread (Tokyo).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

process.env.TZ = 'Asia/Tokyo';

let dir: string;
const file = (name: string) => join(dir, name);
const data = () => file('data');

/** The command in this process, against the memory in `data`: its exit code and what it wrote. */
async function tempora(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (t: string) => (stdout += t), stderr: (t: string) => (stderr += t), cwd: dir, env: { TEMPORA_TZ: 'Asia/Tokyo' } };
  const code = await runAsync([...args, '--data', data()], io);
  return { code, stdout, stderr };
}

/** What SQLite keeps beside the database while a connection is open. */
const companions = () => readdirSync(data()).filter((name) => /-(wal|shm)$/.test(name));

const seedLines = ['Kyoto', 'Osaka', 'Nara'].map((city, i) =>
  JSON.stringify({ subject: 'me', predicate: `visited ${i}`, object: city, fact: `I visited ${city}.`, reference_time: '2026-09-01T10:00:00+09:00' }),
);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-refused-chat-'));
  await writeTinyGguf(file('tiny.gguf'));
  writeFileSync(file('seed.jsonl'), `${seedLines.join('\n')}\n`);
  expect((await tempora(['observe', file('seed.jsonl')])).code).toBe(0);
  // The vector index built, and the embedding model named in the memory's settings.
  const reindexed = await tempora(['reindex', '--embedding-model', file('tiny.gguf'), '--threads', '1']);
  expect(reindexed.stdout).toMatch(/^Vector index rebuilt: 3 items embedded\.$/m);
  expect(companions()).toEqual([]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a refused chat closes the store', () => {
  const refused = [
    { name: 'a conversation that is not there, the embedding model given', args: () => ['chat', '--model', file('tiny.gguf'), '--embedding-model', file('tiny.gguf'), '--threads', '1', '--conversation', 'nowhere'], says: /^tempora: --conversation: no conversation nowhere$/m },
    { name: 'a conversation that is not there, the embedding model used before', args: () => ['chat', '--model', file('tiny.gguf'), '--threads', '1', '--conversation', 'nowhere'], says: /^tempora: --conversation: no conversation nowhere$/m },
    { name: 'an embedding model that is not there', args: () => ['chat', '--model', file('tiny.gguf'), '--embedding-model', file('missing.gguf'), '--threads', '1'], says: /^tempora: --embedding-model: no model file at .*missing\.gguf$/m },
  ];
  for (const { name, args, says } of refused) {
    it(`${name}: exits 1, no -wal or -shm left, the memory unchanged`, async () => {
      const before = await tempora(['export']);
      const result = await tempora(args());
      expect(result.stderr).toMatch(says);
      expect(result.code).toBe(1);
      expect(companions()).toEqual([]);
      const after = await tempora(['export']);
      const document = (text: string) => {
        const { exported_at: _at, ...rest } = JSON.parse(text) as Record<string, unknown>;
        return rest;
      };
      expect(document(after.stdout)).toEqual(document(before.stdout));
    });
  }
});
