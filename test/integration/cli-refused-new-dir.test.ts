/**
 * A write command that refuses its input changes nothing — also on the disk: a memory directory that
 * was not there stays not there (with the parents the command would have made), an existing
 * directory keeps what it held and gets no store, and an existing memory keeps what it remembers.
 * The real command, as its own process (Tokyo).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaProcess as tempora } from './cli-helpers';

let dir: string;
const file = (name: string) => join(dir, name);

const seedLine = JSON.stringify({ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' });

/** Each refused input, the command that refuses it and the words it is refused in. */
const REFUSED: { name: string; args: (data: string) => string[]; says: RegExp }[] = [
  { name: 'import of a file that is not JSON', args: (data) => ['import', file('bad.json'), '--data', data], says: /^tempora: .*bad\.json: not JSON \(line 1, column 2\b/ },
  { name: 'import of JSON that is no export', args: (data) => ['import', file('not-export.json'), '--data', data], says: /^tempora: .*not-export\.json: / },
  { name: 'observe of a line that is not JSON', args: (data) => ['observe', file('bad.jsonl'), '--data', data], says: /^tempora: .*bad\.jsonl:2: not JSON/ },
  { name: 'observe of an observation without its fields', args: (data) => ['observe', file('half.jsonl'), '--data', data], says: /^tempora: .*half\.jsonl:1: predicate: / },
  { name: 'ingest with a model file that is not there', args: (data) => ['ingest', file('messages.jsonl'), '--model', file('missing.gguf'), '--data', data], says: /^tempora: --model: no model file at .*missing\.gguf/ },
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-refused-'));
  writeFileSync(file('seed.jsonl'), `${seedLine}\n`);
  writeFileSync(file('bad.json'), '{bad\n');
  writeFileSync(file('not-export.json'), '{"format":"something else","version":1}\n');
  writeFileSync(file('bad.jsonl'), `${seedLine}\n{"subject":\n`);
  writeFileSync(file('half.jsonl'), '{"subject":"me"}\n');
  writeFileSync(file('messages.jsonl'), `${JSON.stringify({ role: 'user', content: 'I moved to Osaka.', time: '2026-09-02T10:00:00+09:00' })}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a refused write command onto a directory that is not there', () => {
  for (const { name, args, says } of REFUSED) {
    it(`${name}: says why, exits 1 and creates nothing, parents included`, async () => {
      const top = file(`new-${name.replaceAll(' ', '-')}`);
      const result = await tempora(args(join(top, 'deeper', 'data')));
      expect(result.stderr).toMatch(says);
      expect(result.code).toBe(1);
      expect(existsSync(top)).toBe(false);
    });
  }
});

describe('a refused write command onto a directory that is there', () => {
  it('an empty directory stays empty; one holding other things keeps them, and no store', async () => {
    const empty = file('empty');
    mkdirSync(empty);
    const kept = file('kept');
    mkdirSync(kept);
    writeFileSync(join(kept, 'notes.txt'), 'mine');
    for (const data of [empty, kept]) {
      for (const { args, says } of REFUSED) {
        const result = await tempora(args(data));
        expect(result.stderr).toMatch(says);
        expect(result.code).toBe(1);
      }
    }
    expect(readdirSync(empty)).toEqual([]);
    expect(readdirSync(kept)).toEqual(['notes.txt']);
  });

  it('a memory keeps what it remembers', async () => {
    const data = file('memory');
    expect((await tempora(['observe', file('seed.jsonl'), '--data', data])).code).toBe(0);
    const exported = async () => {
      const result = await tempora(['export', '--data', data]);
      expect(result.code).toBe(0);
      const { exported_at: _at, ...document } = JSON.parse(result.stdout) as Record<string, unknown>;
      return document;
    };
    const before = await exported();
    const files = readdirSync(data).sort();
    for (const { args, says } of REFUSED) {
      const result = await tempora(args(data));
      expect(result.stderr).toMatch(says);
      expect(result.code).toBe(1);
    }
    expect(await exported()).toEqual(before);
    expect(readdirSync(data).sort()).toEqual(files);
  });
});
