/**
 * A long-running command refused at its start, before it stored anything, leaves a memory directory
 * that was not there not there, with the parents it would have made: `tempora mcp` with a zone it
 * does not know or a memory SQLite cannot open (its path too long), `tempora chat` with a file that is not a model or a
 * conversation that is not there, `tempora serve` on a port in use. One that started keeps the
 * memory it made. The real command as its own process, its stdin closed as a client that goes away
 * closes it (Tokyo).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaCommand, type Exit } from './cli-helpers';
import { databasePath } from '../../electron/memory/index';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

let dir: string;
let portInUse: Server;
const file = (name: string) => join(dir, name);
const heldPort = () => String((portInUse.address() as { port: number }).port);

/** Deeper than SQLite opens a database (its Unix paths stop at 512 bytes), not deeper than a directory may be. */
const tooDeepForSqlite = ['a', 'b', 'c'].map((letter) => letter.repeat(200));

/** Each refused start: the command, the memory directory below the new top it names, and the words it is refused in. */
const REFUSED: { name: string; args: (data: string) => string[]; below?: string[]; says: RegExp }[] = [
  { name: 'mcp with a zone it does not know', args: (data) => ['mcp', '--tz', 'Mars/Olympus', '--data', data], says: /^tempora: --tz: unknown time zone "Mars\/Olympus"/ },
  { name: 'mcp on a memory SQLite cannot open', args: (data) => ['mcp', '--data', data], below: tooDeepForSqlite, says: /^tempora: --data: .* is too long a path: the memory's database there would be a path of \d+ bytes/ },
  { name: 'chat with a file that is not a model', args: (data) => ['chat', '--model', file('not-a-model.gguf'), '--data', data], says: /^tempora: --model: .*not-a-model\.gguf is not a GGUF model file/ },
  {
    name: 'chat in a conversation that is not there',
    args: (data) => ['chat', '--model', file('tiny.gguf'), '--embedding-model', file('tiny.gguf'), '--threads', '1', '--conversation', 'nowhere', '--data', data],
    says: /^tempora: --conversation: no conversation nowhere$/m,
  },
  { name: 'serve on a port in use', args: (data) => ['serve', '--port', heldPort(), '--renderer', file('ui'), '--data', data], says: /^tempora: serve: port \d+ on 127\.0\.0\.1 is in use/ },
];

/** The command as its own process with stdin closed: its exit code and what it wrote. */
function tempora(args: string[]): Promise<Exit> {
  return temporaCommand(args, { env: { TZ: 'Asia/Tokyo', TEMPORA_TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error' }, input: '' });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-refused-start-'));
  writeFileSync(file('not-a-model.gguf'), 'not a model\n');
  await writeTinyGguf(file('tiny.gguf'));
  mkdirSync(file('ui'));
  writeFileSync(join(file('ui'), 'index.html'), '<!doctype html><title>Tempora</title>\n');
  portInUse = createServer();
  await new Promise<void>((listening) => portInUse.listen(0, '127.0.0.1', listening));
});
afterAll(async () => {
  await new Promise((closed) => portInUse.close(closed));
  rmSync(dir, { recursive: true, force: true });
});

describe('a long-running command refused at its start onto a directory that is not there', () => {
  for (const { name, args, below = ['deeper', 'data'], says } of REFUSED) {
    it(`${name}: says why, exits 1 and creates nothing, parents included`, async () => {
      const top = file(`new-${name.replaceAll(' ', '-')}`);
      const result = await tempora(args(join(top, ...below)));
      expect(result.stderr).toMatch(says);
      expect(result.code).toBe(1);
      expect(existsSync(top)).toBe(false);
    });
  }
});

describe('a long-running command that started', () => {
  it('mcp keeps the memory it made, though its client went away at once', async () => {
    const data = join(file('new-mcp-started'), 'data');
    const result = await tempora(['mcp', '--data', data]);
    expect(result.stderr).toMatch(/^tempora mcp: serving .* over stdio$/m);
    expect(result.code).toBe(0);
    expect(existsSync(databasePath(data))).toBe(true);
  });
});
