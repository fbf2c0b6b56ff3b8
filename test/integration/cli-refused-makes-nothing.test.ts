/**
 * Commands that store nothing make nothing: `tempora reindex` with no embedding model to use,
 * `tempora models pull` of a model the catalogue does not have, `tempora models` (a listing), and
 * `tempora mcp` given an option of `mcp connect` (or `mcp connect` one of `mcp`'s) are refused in
 * words, or answer, and a memory directory that was not there stays not there, with the parents it
 * would have made; one that was there keeps what it held and gets no store. The real command, as
 * its own process with stdin closed, as a client that goes away closes it (Tokyo).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let dir: string;
const file = (name: string) => join(dir, name);

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command as its own process with stdin closed, and a HOME of its own (no agent's config is touched). */
function tempora(args: string[]): Promise<Exit> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', ...args], {
      cwd: root,
      env: { ...process.env, TZ: 'Asia/Tokyo', TEMPORA_TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error', HOME: file('home'), XDG_CONFIG_HOME: file('home') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end();
  });
}

/** Each command line that must make nothing: its exit status and the words on stdout or stderr. */
const MAKES_NOTHING: { name: string; args: (data: string) => string[]; code: number; says: RegExp; on?: 'stdout' }[] = [
  { name: 'reindex with no embedding model', args: (data) => ['reindex', '--data', data], code: 2, says: /^tempora: reindex needs --embedding-model PATH \(no embedding model was used here before\)$/m },
  { name: 'models pull of an unknown model', args: (data) => ['models', 'pull', 'no-such-model', '--data', data], code: 1, says: /^tempora: no model "no-such-model" in the catalogue \(known: .+\)$/m },
  { name: 'models listing', args: (data) => ['models', '--data', data], code: 0, says: /^Models for this machine \(.+ RAM\); download with 'tempora models pull ID':$/m, on: 'stdout' },
  { name: 'models listing as JSON', args: (data) => ['models', '--json', '--data', data], code: 0, says: /^\[\n\s+\{\n\s+"id": /, on: 'stdout' },
  { name: 'mcp with --remove', args: (data) => ['mcp', '--remove', '--data', data], code: 2, says: /^tempora: --remove belongs to `tempora mcp connect CLIENT`/m },
  { name: 'mcp with --remove and a zone it does not know', args: (data) => ['mcp', '--remove', '--tz', 'Mars/Olympus', '--data', data], code: 2, says: /^tempora: --remove belongs to `tempora mcp connect CLIENT`/m },
  { name: 'mcp with --http', args: (data) => ['mcp', '--http', '--data', data], code: 2, says: /^tempora: --http belongs to `tempora mcp connect CLIENT`/m },
  { name: 'mcp connect with --learn', args: (data) => ['mcp', 'connect', 'cursor', '--learn', '--data', data], code: 2, says: /^tempora: --learn belongs to `tempora mcp` \(serving\), not to `tempora mcp connect`/m },
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-makes-nothing-'));
  mkdirSync(file('home'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a command that stores nothing, onto a directory that is not there', () => {
  for (const { name, args, code, says, on } of MAKES_NOTHING) {
    it(`${name}: exits ${code}, says so, and creates nothing, parents included`, async () => {
      const top = file(`new-${name.replaceAll(' ', '-')}`);
      const result = await tempora(args(join(top, 'deeper', 'data')));
      expect(on === 'stdout' ? result.stdout : result.stderr).toMatch(says);
      expect(result.code).toBe(code);
      expect(existsSync(top)).toBe(false);
    });
  }
});

describe('a command that stores nothing, onto a directory that is there', () => {
  it('an empty directory stays empty', async () => {
    const empty = file('empty');
    mkdirSync(empty);
    for (const { name, args, code, says, on } of MAKES_NOTHING) {
      const result = await tempora(args(empty));
      expect(on === 'stdout' ? result.stdout : result.stderr, name).toMatch(says);
      expect(result.code, name).toBe(code);
      expect(readdirSync(empty), name).toEqual([]);
    }
  });

  it('an agent config is not touched by a refused mcp connect', async () => {
    const cursor = join(file('home'), '.cursor');
    mkdirSync(cursor, { recursive: true });
    const result = await tempora(['mcp', 'connect', 'cursor', '--learn', '--data', file('empty')]);
    expect(result.code).toBe(2);
    expect(readdirSync(cursor)).toEqual([]);
  });
});
