/**
 * One sync of a memory at a time. The app and `tempora sync --watch` on the same memory would send
 * this device's next segment under the same number, and the second upload removes the first's file
 * as a stray: records the other devices never see. Through the real door: spawned `tempora sync`
 * against a memory whose sync lock another live process holds, one whose holder is gone, and a
 * `--watch` that waits its turn.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { databasePath } from '../../electron/memory/store/data-dir';
import { openMemory } from '../../electron/memory/index';
import { cipherFromKey, unlockTarget } from '../../electron/sync/sync-crypto';
import { syncOnce } from '../../electron/sync/sync-runner';
import { SyncBusyError } from '../../electron/sync/sync-lock';
import { createFolderTarget } from '../../electron/sync/targets/folder-target';
import { temporaProcess as tempora } from './cli-helpers';

const root = resolve(import.meta.dirname, '../..');
const PASS = { TEMPORA_SYNC_PASSPHRASE: 'correct horse battery staple' };
let dir: string;
let folder: string;
let laptop: string;
let holder: ChildProcess | undefined;

const segments = () => (existsSync(join(folder, 'devices')) ? readdirSync(join(folder, 'devices'), { recursive: true }).filter((n) => /\/segments\/\d{8}-[0-9a-f]+$/.test(String(n))) : []);
const lockFile = () => `${databasePath(laptop)}.sync-lock`;

/** A process that stays alive until killed, holding the laptop memory's sync lock as the app would. */
function holdLock(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  writeFileSync(lockFile(), JSON.stringify({ pid: child.pid, who: 'the Tempora app', since: new Date().toISOString() }));
  return child;
}

async function release(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill();
  await exited;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-sync-lock-'));
  folder = join(dir, 'Sync');
  mkdirSync(folder);
  laptop = join(dir, 'laptop');
  const told = join(dir, 'told.jsonl');
  writeFileSync(told, `${JSON.stringify({ subject: 'me', predicate: 'lives_in', object: 'Osaka', fact: 'I live in Osaka.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' })}\n`);
  expect((await tempora(['observe', told, '--data', laptop])).code).toBe(0);
});
afterEach(async () => {
  if (holder) await release(holder);
  holder = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one sync of a memory at a time', () => {
  it('refuses in words while another live process holds the lock, and sends nothing', async () => {
    holder = holdLock();
    const busy = await tempora(['sync', '--folder', folder, '--data', laptop, '--name', 'laptop'], PASS);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toBe(
      `tempora: Another sync of this memory is running (the Tempora app, process ${holder.pid}): this one did nothing; the next sync sends and receives what it would have.\n`,
    );
    expect(segments()).toEqual([]);
    expect(existsSync(lockFile())).toBe(true); // the holder's, left alone
    const status = await tempora(['sync', 'status', '--data', laptop]);
    expect(status.stdout).toContain('Last sync: never');
  });

  it('takes over a lock whose process is gone, syncs, and leaves no lock behind', async () => {
    holder = holdLock();
    await release(holder);
    const synced = await tempora(['sync', '--folder', folder, '--data', laptop, '--name', 'laptop'], PASS);
    expect(synced.stderr).toBe('');
    expect(synced.code).toBe(0);
    expect(segments()).toHaveLength(1);
    expect(existsSync(lockFile())).toBe(false);
  });

  it('--watch says it waits for the other sync, and syncs once the lock is free', async () => {
    holder = holdLock();
    const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', 'sync', '--folder', folder, '--data', laptop, '--watch', '--every', '1'], {
      cwd: root,
      env: { ...process.env, TEMPORA_TZ: 'Asia/Tokyo', LANCEDB_LOG: 'error', ...PASS },
    });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    await new Promise<void>((done) => child.stderr.on('data', () => err.includes('Trying again in 1 second.') && done()));
    expect(err).toContain(`Another sync of this memory is running (the Tempora app, process ${holder.pid})`);
    await release(holder);
    await new Promise<void>((done) => child.stdout.on('data', (chunk: Buffer) => ((out += chunk.toString()), /^Synced with /m.test(out) && done())));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });

  it('a second sync started while one runs in this process is refused; the first completes', async () => {
    const memory = openMemory({ dataDir: laptop });
    try {
      const target = createFolderTarget(folder);
      const cipher = cipherFromKey(await unlockTarget(target, PASS.TEMPORA_SYNC_PASSPHRASE));
      const first = syncOnce(memory.sync, target, cipher);
      await expect(syncOnce(memory.sync, target, cipher)).rejects.toBeInstanceOf(SyncBusyError);
      await first;
      expect(existsSync(lockFile())).toBe(false);
      await syncOnce(memory.sync, target, cipher); // free again
    } finally {
      memory.close();
    }
  });
});
