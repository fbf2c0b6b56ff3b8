/**
 * One sync of a memory at a time, across processes. The app and `tempora sync --watch` on the same
 * memory would both send this device's next segment under the same number, and the second's upload
 * removes the first's file as a stray (sync-runner.ts) — records the other devices never see. A lock
 * file beside the memory, made exclusively and holding who holds it, is taken for the sync and
 * removed after; one left by a process that is gone (killed mid-sync), or older than any sync runs,
 * is taken over.
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { isAlive } from './segment-spool';

/** Another sync of this memory runs now: said in words, nothing was synced. */
export class SyncBusyError extends Error {
  constructor(readonly holder: LockHolder) {
    super(`Another sync of this memory is running (${holder.who}, process ${holder.pid}): this one did nothing; the next sync sends and receives what it would have.`);
    this.name = 'SyncBusyError';
  }
}

export interface LockHolder {
  pid: number;
  who: string;
  since: string;
}

/** A lock held longer than this is left over, whoever's pid it names now (a first sync of a million facts takes minutes). */
const STALE_AFTER_MS = 6 * 60 * 60 * 1000;

/** Who this process is, as another one reads it. */
function me(): string {
  return process.versions.electron ? 'the Tempora app' : 'tempora sync';
}

/** Runs `sync` holding the lock at `file` (null: an in-memory store, which no other process can open). */
export async function withSyncLock<T>(file: string | null, sync: () => Promise<T>): Promise<T> {
  if (file === null) return sync();
  const mine: LockHolder = { pid: process.pid, who: me(), since: new Date().toISOString() };
  take(file, mine);
  try {
    return await sync();
  } finally {
    release(file, mine);
  }
}

function take(file: string, mine: LockHolder): void {
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, JSON.stringify(mine), { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const raw = readRaw(file);
    const held = holderOf(raw);
    if (held && (held.pid === process.pid || isAlive(held.pid)) && Date.now() - Date.parse(held.since) < STALE_AFTER_MS) throw new SyncBusyError(held);
    // Left over: removed, unless another process took it over in between.
    if (readRaw(file) === raw) unlinkQuietly(file);
  }
}

function release(file: string, mine: LockHolder): void {
  if (readRaw(file) === JSON.stringify(mine)) unlinkQuietly(file);
}

function holderOf(raw: string | null): LockHolder | null {
  try {
    const value = JSON.parse(raw ?? '') as Partial<LockHolder>;
    return typeof value.pid === 'number' && typeof value.who === 'string' && typeof value.since === 'string' ? (value as LockHolder) : null;
  } catch {
    return null; // cut short or not ours: left over
  }
}

function readRaw(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already
  }
}
