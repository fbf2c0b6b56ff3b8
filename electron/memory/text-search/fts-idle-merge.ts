/**
 * Merging the full-text indexes while the memory is idle (why: fts-merge.ts). Every committed write
 * tells `wrote()`; once no write has come for IDLE_DELAY_MS (or MAX_WAIT_MS after the first write
 * that found no merge pending), a pass runs short FTS5 merge steps (each in its own transaction)
 * over the tables in turn, yielding to the event loop between steps so that writes and searches
 * interleave. A write stops the pass at its next step and starts the wait again (what the steps
 * merged stays merged); close() stops it for good, after a bounded last merge (a `tempora` command
 * writes once and exits: without it, only the crisismerge cap would ever merge its segments).
 *
 * The timer is unref()'d: a process never stays alive to merge. Only this memory's connection is
 * used; another process writing the same file (`tempora mcp` beside the app) makes a step fail at
 * once (busy_timeout 0 for the step) instead of blocking this thread, and the pass waits again.
 */
import type { Database } from 'better-sqlite3';
import { MERGE_STEP_PAGES, MERGED_TABLES, mergeStep, type MergedTable } from './fts-merge';

/** Idle this long after the last write before merging: a chat turn's writes come closer together. */
export const IDLE_DELAY_MS = 1_500;
/**
 * Writes postpone the merge, but not beyond this long after the first of them: a memory written every
 * second (learning with a fast model) still merges, between two writes, before a level reaches the
 * crisismerge cap. Only writes in one unbroken stretch of the event loop leave it no turn at all.
 */
export const MAX_WAIT_MS = 10_000;
/** At close, merge for at most this long (a CLI command's exit waits for it). */
export const CLOSE_BUDGET_MS = 50;

type PassEnd = 'done' | 'interrupted' | 'busy' | 'failed';

export class FullTextIdleMerge {
  private timer: NodeJS.Timeout | null = null;
  /** When the pending timer was first set (performance.now()): writes postpone it until MAX_WAIT_MS after. */
  private armedAt = 0;
  /** Bumped by every write: a pass started before it stops at its next step. */
  private generation = 0;
  private closed = false;
  private reported = false;
  /** Something was written since a pass last found nothing to merge: only then does close() merge. */
  private dirty = false;

  /** `pagesPerStep`: tests make the steps smaller, so that a small store's merge takes many. */
  constructor(
    private readonly db: Database,
    private readonly pagesPerStep: number = MERGE_STEP_PAGES,
  ) {}

  /** A write committed: merging waits until the memory has been idle for IDLE_DELAY_MS. */
  wrote(): void {
    if (this.closed) return;
    this.dirty = true;
    this.generation++;
    this.schedule();
  }

  /**
   * Runs the idle merge now, to completion: resolves once a pass found nothing left to merge (passes
   * a write interrupted are run again), or when the memory closes. For tests and benchmarks, which
   * must not wait for the timer; rejects when another process holds the write lock or a step failed.
   */
  async mergeNow(): Promise<void> {
    this.cancelTimer();
    for (;;) {
      const end = await this.pass();
      if (end === 'done' || this.closed) return;
      if (end === 'busy') throw new Error('the full-text indexes could not be merged: another process is writing this memory');
      if (end === 'failed') throw new Error('the full-text indexes could not be merged (the error was logged)');
      this.cancelTimer(); // interrupted by a write: merge again at once rather than after the delay
    }
  }

  /**
   * Stops merging for good: the pending wait is dropped, a pass in flight ends at its next step, and
   * up to CLOSE_BUDGET_MS of merge steps run now, before the caller closes the database.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.cancelTimer();
    // A memory opened only to read (most `tempora` commands) takes no write lock to merge at close.
    if (!this.dirty) return;
    const deadline = performance.now() + CLOSE_BUDGET_MS;
    const tables = new Set<MergedTable>(MERGED_TABLES);
    while (tables.size && performance.now() < deadline) {
      for (const table of tables) {
        const worked = this.step(table);
        if (worked !== true) tables.delete(table);
        if (worked === 'busy' || worked === 'failed') return;
      }
    }
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer) {
      if (performance.now() - this.armedAt < MAX_WAIT_MS - IDLE_DELAY_MS) this.timer.refresh();
      return;
    }
    this.armedAt = performance.now();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.pass().then((end) => {
        if (end === 'busy') this.schedule();
      });
    }, IDLE_DELAY_MS);
    this.timer.unref();
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Steps through the tables in turn, one step each per round, until none has work left. */
  private async pass(): Promise<PassEnd> {
    const generation = this.generation;
    const tables = new Set<MergedTable>(MERGED_TABLES);
    while (tables.size) {
      for (const table of tables) {
        if (this.closed || generation !== this.generation) return 'interrupted';
        const worked = this.step(table);
        if (worked === 'busy' || worked === 'failed') return worked;
        if (!worked) tables.delete(table);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    if (generation === this.generation) this.dirty = false;
    return 'done';
  }

  /** One merge step; true when it did work. Never throws: a failure is logged once and ends the pass. */
  private step(table: MergedTable): boolean | 'busy' | 'failed' {
    const { db } = this;
    // A transaction left open on this connection (never by the memory's own writes, which are
    // synchronous) would take the step in: wait for the next write instead.
    if (!db.open) return false;
    if (db.inTransaction) return 'busy';
    const timeout = db.pragma('busy_timeout', { simple: true }) as number;
    db.pragma('busy_timeout = 0');
    try {
      return mergeStep(db, table, this.pagesPerStep);
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return 'busy';
      if (!this.reported) console.error(`tempora: merging the full-text index ${table} failed:`, error);
      this.reported = true;
      return 'failed';
    } finally {
      if (db.open) db.pragma(`busy_timeout = ${timeout}`);
    }
  }
}
