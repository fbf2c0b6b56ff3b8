/**
 * The WAL copied back into the database file while the memory is idle, not inside a write. SQLite
 * checkpoints by itself when a commit leaves the WAL over 1,000 pages (wal_autocheckpoint): that
 * commit — one learned message's, say — then also copies every page the writes before it changed and
 * syncs the file, ten or more times its own cost (issue 29; test/bench/ingestion.ts counts it). Every
 * committed write tells `wrote()`; once none has come for IDLE_DELAY_MS, one PASSIVE checkpoint
 * runs, so a message learned between the model's calls starts from an empty WAL. The automatic
 * checkpoint stays as the bound for a process that never idles; durability is unchanged (WAL with
 * synchronous=NORMAL: open-database.ts).
 *
 * PASSIVE never waits: a reader in another process (`tempora mcp`) only leaves its pages for later.
 * The timer is unref()'d: a process never stays alive to checkpoint (SQLite checkpoints at close).
 */
import type { Database } from 'better-sqlite3';

/** After the full-text idle merge's delay (1.5 s: text-search/fts-idle-merge.ts), so its pages go too. */
export const IDLE_DELAY_MS = 2_000;

export class WalIdleCheckpoint {
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly db: Database) {}

  /** A write committed: checkpoint once the memory has been idle for IDLE_DELAY_MS. */
  wrote(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.checkpoint(), IDLE_DELAY_MS);
    this.timer.unref();
  }

  /** Copies what it can of the WAL into the database file now; the frames it copied, or null when it could not run. */
  checkpoint(): number | null {
    this.timer = null;
    if (this.closed || !this.db.open || this.db.inTransaction) return null;
    try {
      const [row] = this.db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      return row?.checkpointed ?? null;
    } catch (error) {
      // Never a reason to fail anything: the automatic checkpoint still bounds the WAL.
      console.error('tempora: the idle WAL checkpoint failed:', error);
      return null;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
