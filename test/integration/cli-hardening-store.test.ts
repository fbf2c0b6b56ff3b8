/**
 * The memory directory under unlucky conditions (issue 13): `--data ''`, a missing directory for a
 * command that only reads, a file or an unwritable parent where the directory should be, a store on
 * read-only media, a store from an older or a newer Tempora, and the scratch file a killed bulk
 * import leaves behind. Commands that only read open the store read-only and change nothing; a file
 * that is refused is left byte for byte as it was.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTemporaIn, temporaCommand, type Exit } from './cli-helpers';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { registerNaturalOrder } from '../../electron/memory/store/natural-order';
import { steppingClock } from '../../electron/memory/index';

const root = resolve(import.meta.dirname, '../..');
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-hardening-'));
});
afterEach(() => {
  chmodTree(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

function chmodTree(path: string, mode: number): void {
  if (!existsSync(path)) return;
  chmodSync(path, mode);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) chmodTree(join(path, name), mode);
}

const tempora = (...argv: string[]) => runTemporaIn(dir, steppingClock('2026-12-01T00:00:00.000Z'), argv);

const seedLine = JSON.stringify({ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' });

/** A store with one fact in `data` (relative to dir); returns its absolute path. */
function seeded(data = 'data'): string {
  writeFileSync(join(dir, 'seed.jsonl'), `${seedLine}\n`);
  expect(tempora('observe', 'seed.jsonl', '--data', data)).toMatchObject({ code: 0, err: '' });
  return join(dir, data);
}

const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * Why the unprivileged user cannot run the command from this checkout, or null: a clone in root's
 * home is not readable by `nobody`, and the command would fail with "Cannot find package 'tsx'".
 */
const UNPRIVILEGED_CANNOT_READ: string | null = (() => {
  if (process.getuid?.() !== 0) return null;
  const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(join(root, 'node_modules', 'tsx', 'package.json'))})`], { uid: 65534, gid: 65534 });
  return probe.status === 0 ? null : `the unprivileged user nobody cannot read the checkout at ${root} (make it world-readable to run these tests)`;
})();
if (UNPRIVILEGED_CANNOT_READ) console.warn(`cli-hardening-store: skipped the tests run as nobody: ${UNPRIVILEGED_CANNOT_READ}`);

/** The real command as another process; as root, as the unprivileged user `nobody`, so that permissions apply. */
function asUnprivileged(args: string[]): Promise<Exit> {
  return temporaCommand(args, { env: { HOME: dir, TEMPORA_TZ: 'UTC' }, ...(process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}) });
}

describe('--data names a usable directory, or says why not', () => {
  it("--data '' is refused: no store in the working directory", () => {
    for (const command of [['facts'], ['observe', 'seed.jsonl']]) {
      writeFileSync(join(dir, 'seed.jsonl'), `${seedLine}\n`);
      const result = tempora(...command, '--data', '');
      expect(result.code).toBe(1);
      expect(result.err).toBe('tempora: --data: must not be empty\n');
      expect(existsSync(join(dir, 'memory.sqlite'))).toBe(false);
    }
  });

  it('a command that only reads creates nothing in a missing directory: "no memory in DIR"', () => {
    seeded();
    const factId = (JSON.parse(tempora('facts', '--json', '--data', 'data').out) as { id: string }[])[0]!.id;
    for (const command of [['facts'], ['search', 'Kyoto'], ['show', factId], ['export']]) {
      const result = tempora(...command, '--data', 'missing/store');
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/^tempora: no memory in .*missing\/store/);
      expect(existsSync(join(dir, 'missing'))).toBe(false);
    }
    // An empty directory is no memory either, and stays empty.
    mkdirSync(join(dir, 'empty'));
    expect(tempora('facts', '--data', 'empty').err).toMatch(/no memory in .*empty/);
    expect(readdirSync(join(dir, 'empty'))).toEqual([]);
  });

  it('--data naming a file, or under a file, says so in words', () => {
    writeFileSync(join(dir, 'plain.txt'), 'not a directory');
    writeFileSync(join(dir, 'seed.jsonl'), `${seedLine}\n`);
    expect(tempora('observe', 'seed.jsonl', '--data', 'plain.txt').err).toMatch(/^tempora: --data: .*plain\.txt is a file, not a directory\n$/);
    expect(tempora('facts', '--data', 'plain.txt').err).toMatch(/^tempora: --data: .*plain\.txt is a file, not a directory\n$/);
    const under = tempora('observe', 'seed.jsonl', '--data', 'plain.txt/data');
    expect(under.code).toBe(1);
    expect(under.err).toMatch(/^tempora: --data: cannot create .*plain\.txt\/data: a parent of it is a file, not a directory\n$/);
    expect(under.err).not.toMatch(/EEXIST|ENOTDIR/);
  });

  it.skipIf(UNPRIVILEGED_CANNOT_READ !== null)('an unwritable parent: "cannot create DIR: permission denied"', async () => {
    mkdirSync(join(dir, 'locked'));
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'locked'), 0o555);
    writeFileSync(join(dir, 'seed.jsonl'), `${seedLine}\n`);
    chmodSync(join(dir, 'seed.jsonl'), 0o644);
    const result = await asUnprivileged(['observe', join(dir, 'seed.jsonl'), '--data', join(dir, 'locked', 'data')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tempora: --data: cannot create .*locked\/data: permission denied\n$/);
    expect(result.stderr).not.toMatch(/EACCES/);
  }, 30_000);
});

describe('commands that only read open the store read-only', () => {
  it('facts, search, show and export change no byte of the store', () => {
    const data = seeded();
    const db = join(data, 'memory.sqlite');
    const before = sha(db);
    const factId = (JSON.parse(tempora('facts', '--json', '--data', 'data').out) as { id: string }[])[0]!.id;
    for (const command of [['facts'], ['facts', '--history'], ['search', 'Kyoto'], ['show', factId], ['export']]) {
      const result = tempora(...command, '--data', 'data');
      expect(result).toMatchObject({ code: 0, err: '' });
    }
    expect(tempora('search', 'Kyoto', '--json', '--data', 'data').out).toMatch(/I live in Kyoto/);
    expect(sha(db)).toBe(before);
    const wal = join(data, 'memory.sqlite-wal');
    if (existsSync(wal)) expect(statSync(wal).size).toBe(0);
  });

  it.skipIf(UNPRIVILEGED_CANNOT_READ !== null)('a store on read-only media can be read and exported', async () => {
    const data = seeded();
    chmodTree(dir, 0o755);
    chmodTree(data, 0o555);
    chmodSync(join(data, 'memory.sqlite'), 0o444);
    const before = sha(join(data, 'memory.sqlite'));
    const exported = await asUnprivileged(['export', '--data', data]);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect((JSON.parse(exported.stdout) as { facts: unknown[] }).facts).toHaveLength(1);
    const facts = await asUnprivileged(['facts', '--data', data]);
    expect(facts).toMatchObject({ code: 0, stderr: '' });
    expect(facts.stdout).toMatch(/I live in Kyoto/);
    // A command that writes says why it cannot, in words.
    const observed = await asUnprivileged(['observe', join(dir, 'seed.jsonl'), '--data', data]);
    expect(observed.code).toBe(1);
    expect(observed.stderr).toMatch(/cannot write the memory in .*: it is on read-only media, or you have no permission to write there; nothing was stored/);
    expect(sha(join(data, 'memory.sqlite'))).toBe(before);
  }, 60_000);

  it('a store from an older Tempora is upgraded by a read where it can be written, then read', () => {
    // A real older store: the schema of the build before the last migration, with one fact in it.
    mkdirSync(join(dir, 'data'), { recursive: true });
    const file = join(dir, 'data', 'memory.sqlite');
    const raw = new Database(file);
    registerNaturalOrder(raw); // as every connection does (open-database.ts): the timeline's triggers call it
    migrate(raw, migrations.slice(0, migrations.length - 1));
    raw.exec(`INSERT INTO entities (id, name, normalized_name, type, created_at) VALUES ('ent_me', 'me', 'me', 'user', '2026-09-01T00:00:00.000Z')`);
    raw.exec(`INSERT INTO facts (id, lineage_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, end_kind, reference_time, created_at, origin)
      VALUES ('fct_old', 'fct_old', 'ent_me', 'likes', 'tea', 'I like tea.', 'many', '2026-09-01T00:00:00.000Z', 'open', '2026-09-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z', 'import')`);
    raw.close();
    const result = tempora('facts', '--data', 'data', '--json');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.out) as { id: string }[]).map((f) => f.id)).toEqual(['fct_old']);
    const after = new Database(file, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(migrations.length);
    after.close();
  });

  it('a store from a newer Tempora in rollback-journal mode is refused unchanged, byte for byte', () => {
    const data = seeded();
    const file = join(data, 'memory.sqlite');
    const raw = new Database(file);
    raw.pragma('journal_mode = DELETE');
    raw.pragma(`user_version = ${migrations.length + 3}`);
    raw.close();
    const before = sha(file);
    writeFileSync(join(dir, 'more.jsonl'), `${seedLine}\n`);
    for (const command of [['facts'], ['export'], ['observe', 'more.jsonl']]) {
      const result = tempora(...command, '--data', 'data');
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/written by a newer Tempora \(schema \d+, this build knows \d+\); update Tempora/);
      expect(sha(file)).toBe(before);
      expect(readdirSync(data).sort()).toEqual(['memory.sqlite']);
    }
  });
});

describe('the scratch file of a killed bulk import', () => {
  function scratch(data: string, ageMs: number): string {
    const path = join(data, 'memory.sqlite.bulk-scratch');
    const db = new Database(path);
    db.exec('CREATE TABLE episodes (x); INSERT INTO episodes VALUES (1)');
    db.close();
    const at = (Date.now() - ageMs) / 1000;
    utimesSync(path, at, at);
    return path;
  }

  it('is removed when the store is next opened for writing', () => {
    const data = seeded();
    const path = scratch(data, 5 * 60_000);
    writeFileSync(join(dir, 'more.jsonl'), `${seedLine}\n`);
    // A read opens read-only and leaves it; the next write removes it.
    expect(tempora('facts', '--data', 'data').code).toBe(0);
    expect(existsSync(path)).toBe(true);
    expect(tempora('observe', 'more.jsonl', '--data', 'data')).toMatchObject({ code: 0, err: '' });
    expect(existsSync(path)).toBe(false);
  });

  it('is left alone while a load may still be using it: just written, or locked', () => {
    const data = seeded();
    writeFileSync(join(dir, 'more.jsonl'), `${seedLine}\n`);
    const fresh = scratch(data, 0);
    expect(tempora('observe', 'more.jsonl', '--data', 'data').code).toBe(0);
    expect(existsSync(fresh)).toBe(true);
    rmSync(fresh);

    const locked = scratch(data, 5 * 60_000);
    const holder = new Database(locked);
    holder.exec('BEGIN IMMEDIATE; INSERT INTO episodes VALUES (2)');
    try {
      expect(tempora('observe', 'more.jsonl', '--data', 'data').code).toBe(0);
      expect(existsSync(locked)).toBe(true);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });
});
