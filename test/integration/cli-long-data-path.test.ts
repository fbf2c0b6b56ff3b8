/**
 * A memory directory whose path is too long — a name in it longer than a file system allows (255
 * bytes), or so deep that SQLite cannot open the database there (its Unix paths stop at 512 bytes,
 * "-journal" included) — is refused as too long, naming the path and the name, saying nothing was
 * stored, and leaving nothing behind: not "no permission?", which is kept for what a permission is
 * really the cause of. The real command as its own process (Tokyo).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOpenError } from '../../electron/cli/memory-dir';
import { temporaProcess as tempora } from './cli-helpers';

let dir: string;
const file = (name: string) => join(dir, name);

/** A name longer than any file system here allows. */
const longName = 'a'.repeat(300);
/** Names each short enough, together too deep for SQLite. */
const tooDeepForSqlite = ['b', 'c', 'd'].map((letter) => letter.repeat(200));

const seedLine = JSON.stringify({ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-long-path-'));
  writeFileSync(file('seed.jsonl'), `${seedLine}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a write command onto a path too long', () => {
  it('a name over 255 bytes: says which and how long, stores nothing, leaves no parent it made', async () => {
    const top = file('new-long-name');
    const data = join(top, 'deeper', longName);
    const result = await tempora(['observe', file('seed.jsonl'), '--data', data]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`tempora: --data: ${data} is too long a path: a name in it ("${'a'.repeat(24)}…") is 300 bytes, and a file system allows 255; nothing was stored\n`);
    expect(existsSync(top)).toBe(false);
  });

  it('a name over 255 bytes in a directory that is there: the same words, the directory as it was', async () => {
    const there = file('there');
    mkdirSync(there);
    const data = join(there, longName);
    const result = await tempora(['observe', file('seed.jsonl'), '--data', data]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tempora: --data: .* is too long a path: a name in it \("a+…"\) is 300 bytes, and a file system allows 255; nothing was stored\n$/);
    expect(readdirSync(there)).toEqual([]);
  });

  it('too deep for SQLite: says so, not "no permission", and makes nothing', async () => {
    const top = file('new-too-deep');
    const data = join(top, ...tooDeepForSqlite);
    for (const args of [['observe', file('seed.jsonl')], ['mcp']]) {
      const result = await tempora([...args, '--data', data]);
      expect(result.code, args[0]).toBe(1);
      expect(result.stderr, args[0]).toMatch(
        /^tempora: --data: .*\/d{200} is too long a path: the memory's database there would be a path of \d{3} bytes, and SQLite opens one of at most 504; nothing was stored\n$/,
      );
      expect(result.stderr, args[0]).not.toMatch(/permission/);
      expect(existsSync(top), args[0]).toBe(false);
    }
  });
});

describe('a command that only reads, from a path too long', () => {
  it('a name over 255 bytes: too long, in words, not ENAMETOOLONG', async () => {
    mkdirSync(file('read'));
    const data = join(file('read'), longName);
    const result = await tempora(['facts', '--data', data]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tempora: --data: .* is too long a path: a name in it \("a+…"\) is 300 bytes, and a file system allows 255; there is no memory there\n$/);
  });
});

describe('a file named with a path too long', () => {
  it('is said as too long, not as ENAMETOOLONG', async () => {
    const named = join(dir, `${longName}.json`);
    const result = await tempora(['import', named, '--data', file('import-data')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`tempora: cannot read ${named}: its path is too long (a name in it, or the whole, is longer than the file system allows)\n`);
    expect(existsSync(file('import-data'))).toBe(false);
  });
});

describe('a database SQLite cannot open at a path of a usual length', () => {
  it('is still said as a permission problem it likely is', () => {
    const error = Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' });
    expect(describeOpenError(error, false, file('data'))).toBe('cannot open its database file (no permission?)');
    expect(describeOpenError(error, true, file('data'))).toBe('cannot open its database file (no permission?)');
  });
});
