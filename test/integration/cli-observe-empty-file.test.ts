/**
 * `tempora observe` on a file that holds no observation — empty, or only blank lines — is bad
 * input: it says so naming the file, stores nothing and exits 1, as a malformed file does, rather
 * than "Observed 0 observations" and 0. No memory directory is made for it. The real process.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaCommand } from './cli-helpers';

let dir: string;

const tempora = (...args: string[]) => temporaCommand(args, { env: { TEMPORA_TZ: 'UTC' } });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-cli-observe-empty-'));
  writeFileSync(join(dir, 'empty.jsonl'), '');
  writeFileSync(join(dir, 'blank.jsonl'), '\n   \n\t\n\r\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('observe on a file with no observations', () => {
  it('refuses an empty file in words, exits 1, and makes no memory', async () => {
    const data = join(dir, 'data');
    const file = join(dir, 'empty.jsonl');
    const empty = await tempora('observe', file, '--data', data);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toBe(`tempora: ${file} holds no observations: nothing was stored\n`);
    expect(empty.code).toBe(1);
    expect(existsSync(data)).toBe(false);
  });

  it('refuses a file of only blank lines the same way, with --json too', async () => {
    const file = join(dir, 'blank.jsonl');
    const blank = await tempora('observe', file, '--data', join(dir, 'data'), '--json');
    expect(blank.stdout).toBe('');
    expect(blank.stderr).toBe(`tempora: ${file} holds no observations: nothing was stored\n`);
    expect(blank.code).toBe(1);
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });
});
