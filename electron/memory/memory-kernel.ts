/**
 * The write kernel every facade of Memory shares (memory.ts): the store it opens, the change
 * listeners, and the one way to write — write(): one IMMEDIATE transaction that gathers the write's
 * claims and resolves each touched slot once when it settles (temporal/write-batch.ts), records why
 * each version was written, indexes what it queued for full-text search, and tells its listeners
 * once after the commit — and the full-text indexes' merge, which waits for the writes to pause
 * (text-search/fts-idle-merge.ts). Only the facades hold it; index.ts never exports it.
 */
import type { ChangeScope, EntityReader, EpisodeReader, JobQueue, MemoryChange, MemoryOptions } from './memory-api';
import { systemClock, type Clock } from './store/clock';
import { databasePath } from './store/data-dir';
import { openDatabase } from './store/database/open-database';
import { storeContext } from './store/store-context';
import { writeContext, type WriteContext } from './temporal/write-batch';
import { changeScope } from './temporal/change-scope';
import type { Forgotten } from './temporal/forget';
import { recordCause } from './temporal/write-cause';
import type { WriteCause } from '../../shared/fact-history';
import type { SlotChanges } from './temporal/slot-resolver';
import { flushFullText } from './text-search/fts-index';
import { cachedStatement } from './store/database/statement-cache';
import { storageErrorOf } from './memory-errors';
import { FullTextIdleMerge } from './text-search/fts-idle-merge';
import { WalIdleCheckpoint } from './store/wal-idle-checkpoint';
import { applyMergeSettings } from './text-search/fts-merge';
import { pendingSlotRefreshes, refreshQueuedSlots } from './temporal/slot-refresh';
import { MemorySearch } from './text-search/search';
import { checkpointInBackground, WAL_AUTOCHECKPOINT_PAGES } from './transfer/background-checkpoint';

/** Queued slots resolved per write by resolveQueuedSlots. */
const QUEUED_SLOTS_PER_WRITE = 1_000;

export type ChangeListener = (change: MemoryChange, scope?: ChangeScope) => void;

export interface WriteOptions {
  /**
   * A database is attached that another thread writes while this write runs (a first sync's
   * full-text worker: transfer/bulk-load-helper.ts): the write locks the memory's database alone.
   */
  attached?: boolean;
}

export class MemoryKernel {
  readonly clock: Clock;
  readonly entities: EntityReader;
  readonly episodes: EpisodeReader;
  readonly jobs: JobQueue;
  readonly store: WriteContext;
  readonly searcher: MemorySearch;
  /** Merges the full-text indexes while idle, not inside writes (text-search/fts-merge.ts); null when read-only. */
  private readonly merges: FullTextIdleMerge | null;
  /** Checkpoints the WAL while idle, not inside a write (store/wal-idle-checkpoint.ts); null when read-only. */
  private readonly checkpoints: WalIdleCheckpoint | null;
  readonly path: string;
  readonly nativeBinding: string | undefined;
  readonly readonly: boolean;
  private background: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<ChangeListener>();
  /** The net changes of the write in progress, once settled. */
  private settledChanges: SlotChanges | null = null;
  /** Set by a write that held a learning for review (its change event says so). */
  held: string | null = null;

  constructor(options: MemoryOptions) {
    this.clock = options.clock ?? systemClock();
    this.path = options.dataDir === ':memory:' ? ':memory:' : databasePath(options.dataDir);
    this.nativeBinding = options.nativeBinding;
    this.readonly = options.readonly === true;
    this.store = writeContext(storeContext(openDatabase({ path: this.path, nativeBinding: options.nativeBinding, readonly: this.readonly }), this.clock));
    this.entities = this.store.entities;
    this.episodes = this.store.episodes;
    this.jobs = this.store.jobs;
    this.searcher = new MemorySearch(this.store.db);
    if (!this.readonly) applyMergeSettings(this.store.db);
    this.merges = this.readonly ? null : new FullTextIdleMerge(this.store.db);
    this.checkpoints = this.readonly || this.path === ':memory:' ? null : new WalIdleCheckpoint(this.store.db);
  }

  /**
   * Resolves the slots a migration merged (slot-refresh.ts), QUEUED_SLOTS_PER_WRITE to a write,
   * telling `onProgress` after each; openMemory runs it before anything reads them. Returns how
   * many there were.
   */
  resolveQueuedSlots(onProgress?: (done: number, total: number) => void): number {
    if (this.readonly) return 0;
    const total = pendingSlotRefreshes(this.store.db).length;
    let done = 0;
    while (done < total) {
      const resolved = this.write(
        () => {
          const n = refreshQueuedSlots(this.store, QUEUED_SLOTS_PER_WRITE);
          return { n, changes: this.caused({ kind: 'migrated' }) };
        },
        (r) => ({ kind: 'facts', reason: 'migrated', changes: r.changes }),
      );
      if (resolved.n === 0) break;
      done += resolved.n;
      onProgress?.(done, total);
    }
    return done;
  }

  /**
   * Subscribes to changes (vector sync, UI refresh); returns the unsubscribe function. `scope` says
   * what the change touched (temporal/change-scope.ts); undefined: anything may have changed.
   */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The episode whose learning the current write held for review (read once by its change). */
  takeHeld(): string | null {
    const held = this.held;
    this.held = null;
    return held;
  }

  /** Resolves when background work started by a write (an import's WAL checkpoint) has finished. */
  settled(): Promise<void> {
    return this.background;
  }

  /** Background work a write started (an import's WAL checkpoint), for settled() to wait for. */
  inBackground(work: Promise<unknown>): void {
    this.background = Promise.all([this.background, work]).then(() => undefined);
  }

  /**
   * Copies the WAL into the database file on a worker thread, for settled() to wait for (after a
   * write that turned SQLite's automatic checkpoint off: a first sync). The automatic checkpoint
   * stays off until the worker is done — else the next write's commit, a moment later, would copy
   * the WAL itself, on this thread. False where none can run (an in-memory or read-only store, no
   * worker): the caller turns the automatic checkpoint back on.
   */
  checkpointInBackground(): boolean {
    if (this.readonly || this.path === ':memory:') return false;
    const work = checkpointInBackground(this.path, this.nativeBinding);
    if (!work) return false;
    const db = this.store.db;
    this.inBackground(
      work.finally(() => {
        if (db.open) db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      }),
    );
    return true;
  }

  /**
   * Runs the full-text indexes' idle merge now, to completion (the app runs it ~1.5 s after the last
   * write): resolves when nothing is left to merge, or once the memory is closed. For tests and benchmarks.
   */
  mergeFullText(): Promise<void> {
    return this.merges?.mergeNow() ?? Promise.resolve();
  }

  close(): void {
    this.listeners.clear();
    this.checkpoints?.close();
    // Before the database closes: stops the idle merge, after a bounded last merge.
    if (this.store.db.open) this.merges?.close();
    if (this.store.db.open) this.store.db.close();
  }

  forget<T extends Forgotten>(run: () => T): T {
    flushFullText(this.store.db);
    return this.write(
      () => {
        const forgotten = run();
        this.caused({ kind: 'forget' });
        return forgotten;
      },
      (forgotten) => ({ kind: 'forgotten', reason: 'forget', forgotten }),
    );
  }

  /**
   * One write transaction, the rows it queued for full-text search indexed within it; the change
   * is told after the commit, and only when the write changed something (`change` gives null).
   */
  write<T>(fn: () => T, change: (result: T) => MemoryChange | null, options: WriteOptions = {}): T {
    const outermost = !this.store.db.inTransaction;
    // IMMEDIATE: the write lock is taken at BEGIN, so a second process writing the same memory
    // (`tempora mcp` beside the app) waits its busy_timeout instead of failing with SQLITE_BUSY.
    // BEGIN IMMEDIATE takes it on every attached database too; with `attached`, the write begins
    // deferred and its first statement writes to the memory's own database, which takes the same
    // lock there (waiting as IMMEDIATE does: nothing was read before it) and none on the other.
    const run = this.store.db.transaction(() => {
      if (outermost && options.attached) cachedStatement(this.store.db, 'DELETE FROM main.fts_queue WHERE 0').run();
      if (!outermost) return fn();
      this.store.slots.begin();
      this.settledChanges = null;
      const value = fn();
      this.settle();
      // Indexed in the same transaction: a write that committed is searchable, and nothing after
      // the commit can fail and make a caller that retries on "busy" write it twice.
      flushFullText(this.store.db);
      return value;
    });
    let result: T;
    try {
      result = options.attached ? run.deferred() : run.immediate();
    } catch (error) {
      // What the write gathered goes with it (a first sync's may be 150k claims), not at the next write.
      if (outermost) this.store.slots.begin();
      // A full disk or read-only media, in words (rolled back: nothing was stored).
      throw outermost ? storageErrorOf(error) : error;
    }
    const told = change(result);
    if (told) this.emit(told);
    return result;
  }

  /**
   * Resolves the write in progress (each slot it touched, once: temporal/write-batch.ts) and returns
   * what it changed. Idempotent within a write: the first call settles it.
   */
  settle(): SlotChanges {
    this.settledChanges ??= this.store.slots.commit();
    return this.settledChanges;
  }

  /** settle(), recording on each version the write wrote why it was written (temporal/write-cause.ts). */
  caused(cause: WriteCause): SlotChanges {
    const changes = this.settle();
    recordCause(this.store.db, changes.inserted, cause);
    return changes;
  }

  learnedRef(episodeId: string) {
    return { episodeId, conversationId: this.store.episodes.byId(episodeId)?.conversation_id ?? null };
  }

  /** Tells the listeners of a committed change (and the idle merge, which waits for quiet); a listener that throws must not make it look failed. */
  emit(change: MemoryChange): void {
    this.merges?.wrote();
    this.checkpoints?.wrote();
    this.searcher.wrote();
    let scope: ChangeScope | undefined;
    let scoped = false;
    const scopeOfChange = () => (scoped ? scope : ((scoped = true), (scope = changeScope(this.store.db, change))));
    for (const listener of this.listeners) {
      try {
        // Read only for listeners that take it (the engine's), once per change.
        listener(change, listener.length > 1 ? scopeOfChange() : undefined);
      } catch (error) {
        console.error('tempora: a memory change listener failed:', error);
      }
    }
  }
}
