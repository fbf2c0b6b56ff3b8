/**
 * The WAL is copied into the database file once the memory is idle, so that a learned message's
 * commit does not pay for the writes before it (issue 29: those checkpoints were the slowest commits
 * of the ingestion bench). Seen from outside: the database file alone, without its WAL, holds a
 * message only after the checkpoint.
 */
import Database from 'better-sqlite3';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openMemory, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { IDLE_DELAY_MS } from '../../electron/memory/store/wal-idle-checkpoint';

let dir: string;
let m: Memory;

/** Episodes in the database file as it is on disk, its WAL left out. */
function episodesInFile(): number {
  const copy = join(dir, `copy-${Date.now()}-${Math.random()}.sqlite`);
  copyFileSync(join(dir, 'memory.sqlite'), copy);
  const db = new Database(copy);
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM episodes').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  dir = mkdtempSync(join(tmpdir(), 'tempora-wal-'));
  m = openMemory({ dataDir: dir });
  // What opening wrote (the schema) is in the file; from here on the WAL holds only the test's writes.
  databaseOf(m).pragma('wal_checkpoint(TRUNCATE)');
});
afterEach(() => {
  m.close();
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

describe('the WAL is checkpointed while the memory is idle', () => {
  it('copies a write into the database file once no write has come for the idle delay, not before', () => {
    m.messages.append({ role: 'user', content: 'I live in Kyoto.', time: '2026-09-01T10:00:00Z', conversation: 'c1' });
    expect(episodesInFile()).toBe(0);
    vi.advanceTimersByTime(IDLE_DELAY_MS - 1);
    expect(episodesInFile()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(episodesInFile()).toBe(1);
  });

  it('a write within the delay postpones it: a burst is checkpointed once, after its last write', () => {
    m.messages.append({ role: 'user', content: 'I live in Kyoto.', time: '2026-09-01T10:00:00Z', conversation: 'c1' });
    vi.advanceTimersByTime(IDLE_DELAY_MS - 1);
    m.messages.append({ role: 'user', content: 'I play the piano.', time: '2026-09-02T10:00:00Z', conversation: 'c1' });
    vi.advanceTimersByTime(IDLE_DELAY_MS - 1);
    expect(episodesInFile()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(episodesInFile()).toBe(2);
  });

  it('a memory closed before the delay leaves no timer behind', () => {
    m.messages.append({ role: 'user', content: 'I live in Kyoto.', time: '2026-09-01T10:00:00Z', conversation: 'c1' });
    m.close();
    expect(() => vi.advanceTimersByTime(IDLE_DELAY_MS)).not.toThrow();
    // SQLite itself checkpoints when the last connection closes.
    expect(episodesInFile()).toBe(1);
  });
});
