/**
 * The memory's one entry point: opens the store and hands the layers above one facade per domain,
 * all sharing one write kernel (memory-kernel.ts):
 *   facts          observe, the queries behind the screens, search, edit, close, forget
 *   messages       messages and their learning: append, apply, undo, redo, parked, forget
 *   review         review before remembering: what waits, approve, reject
 *   conversations  list, create, rename, learn on/off, delete
 *   history        imported ChatGPT/Claude histories and their backfill
 *   transfer       export (streamed) and import
 *   settings       the one settings store
 *   sync           this device's side of sync: what it has not sent, another device's segment applied
 * Each write is one SQLite transaction — it happens whole or not at all — and raises one change
 * event saying what changed (onChange). Nothing outside electron/memory/ sees the database.
 * Plain Node: never imports 'electron', and needs no llm types. Opening writes nothing; the slots an
 * upgrade merged are resolved by resolveQueuedSlots, an explicit step with progress (openMemory).
 */
import type { Database } from 'better-sqlite3';
import type { ChangeScope, EntityReader, EpisodeReader, JobQueue, MemoryChange, MemoryOptions } from './memory-api';
import type { Clock } from './store/clock';
import { MemoryConversations } from './memory-conversations';
import { MemoryFacts } from './memory-facts';
import { MemoryHistory } from './memory-history';
import { MemoryKernel } from './memory-kernel';
import { MemoryMessages } from './memory-messages';
import { MemoryReview } from './memory-review';
import { MemorySettings } from './memory-settings';
import { memorySync } from './memory-sync';
import type { SyncStore } from './sync/sync-store';
import { MemoryTransfer } from './memory-transfer';
import type { WriteContext } from './temporal/write-batch';
import { vectorItemsOf, type MemoryVectorItems } from './vectors/vector-source';

/** Each Memory's kernel, for storeOf/databaseOf (code inside memory and tests) without reaching into private fields. */
const kernels = new WeakMap<Memory, MemoryKernel>();

export class Memory {
  readonly clock: Clock;
  readonly entities: EntityReader;
  readonly episodes: EpisodeReader;
  readonly jobs: JobQueue;
  readonly facts: MemoryFacts;
  readonly messages: MemoryMessages;
  readonly review: MemoryReview;
  readonly conversations: MemoryConversations;
  readonly history: MemoryHistory;
  readonly transfer: MemoryTransfer;
  readonly settings: MemorySettings;
  readonly sync: SyncStore;
  private readonly kernel: MemoryKernel;

  constructor(options: MemoryOptions) {
    const kernel = new MemoryKernel(options);
    this.kernel = kernel;
    kernels.set(this, kernel);
    this.clock = kernel.clock;
    this.entities = kernel.entities;
    this.episodes = kernel.episodes;
    this.jobs = kernel.jobs;
    this.facts = new MemoryFacts(kernel);
    this.messages = new MemoryMessages(kernel);
    this.review = new MemoryReview(kernel);
    this.conversations = new MemoryConversations(kernel);
    this.history = new MemoryHistory(kernel);
    this.transfer = new MemoryTransfer(kernel);
    this.settings = new MemorySettings(kernel);
    this.sync = memorySync(kernel);
  }

  /**
   * Resolves the slots a migration merged (temporal/slot-refresh.ts), a bounded number to a write,
   * telling `onProgress` after each; openMemory runs it before anything reads them. Returns how many.
   */
  resolveQueuedSlots(onProgress?: (done: number, total: number) => void): number {
    return this.kernel.resolveQueuedSlots(onProgress);
  }

  /**
   * Subscribes to changes (vector sync, UI refresh); returns the unsubscribe function. `scope` says
   * what the change touched (temporal/change-scope.ts); undefined: anything may have changed.
   */
  onChange(listener: (change: MemoryChange, scope?: ChangeScope) => void): () => void {
    return this.kernel.onChange(listener);
  }

  /** Resolves when background work started by a write (an import's WAL checkpoint) has finished. */
  settled(): Promise<void> {
    return this.kernel.settled();
  }

  /**
   * Runs the full-text indexes' idle merge now, to completion (the app runs it ~1.5 s after the last
   * write): resolves when nothing is left to merge, or once the memory is closed. For tests and benchmarks.
   */
  mergeFullText(): Promise<void> {
    return this.kernel.mergeFullText();
  }

  /** The memory's live facts as vector items: what the vector index holds, and its sync. */
  vectorItems(): MemoryVectorItems {
    return vectorItemsOf(this.kernel.store);
  }

  /** Ends the exports still being read (their snapshots and connections), then closes the memory. */
  close(): void {
    this.transfer.closeExports();
    this.kernel.close();
  }
}

/** Opens a memory; the slots an upgrade merged are resolved before it is handed out (progress: options.onQueuedSlots). */
export function openMemory(options: MemoryOptions): Memory {
  const memory = new Memory(options);
  try {
    memory.resolveQueuedSlots(options.onQueuedSlots);
  } catch (error) {
    memory.close();
    throw error;
  }
  return memory;
}

/** The store behind a Memory, for code inside electron/memory/ and for tests; never exported by index.ts. */
export function storeOf(memory: Memory): WriteContext {
  return kernels.get(memory)!.store;
}

/** The database behind a Memory, for code inside electron/memory/ and for tests; never exported by index.ts. */
export function databaseOf(memory: Memory): Database {
  return storeOf(memory).db;
}
