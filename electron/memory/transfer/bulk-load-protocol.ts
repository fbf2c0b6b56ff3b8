/**
 * What the main thread and the bulk-load worker (bulk-load-worker.ts) say to each other: the start
 * data, the shared state the main thread waits on, the messages, and how rows travel. Rows travel
 * in batches of at most BATCH_ROWS, a few ahead of the worker at most, each batch packed — each column's strings joined into one text with their lengths in an Int32Array — because
 * copying one long string to another thread is ~10× cheaper than copying a million short ones.
 */

/** Index of the state in the shared Int32Array. */
export const STATE = 0;
/** Index of the count of row batches the worker has written (the main thread sends at most a few ahead). */
export const TAKEN = 1;
/** Slots of the shared Int32Array. */
export const SHARED_SLOTS = 2;
/** Rows in one batch at most: the rows travel as the import reads them, never all at once. */
export const BATCH_ROWS = 4096;
/** Batches sent and not yet written by the worker, at most: the main thread waits for it beyond. */
export const BATCHES_IN_FLIGHT = 4;
/**
 * The same bound for the rows of a full-text-only load (a first sync's), sent all at once when the
 * load's rows are written: the main thread then goes on building indexes instead of waiting for the
 * worker's scratch inserts. A batch holds at most ~1 Mi characters of text, so at most ~32 Mi
 * characters are in flight.
 */
export const FULL_TEXT_BATCHES_IN_FLIGHT = 32;
/** Values of the state: not running yet, running and waiting for rows, building, built, failed. */
export const STARTING = 0;
export const READY = 1;
export const BUILDING = 2;
export const BUILT = 3;
export const FAILED = 4;

/**
 * Both connections to the scratch database map it into memory (SQLite's mmap_size, an upper bound):
 * the worker, whose small page cache keeps re-reading the b-tree pages it spilled, and the main
 * thread, which copies every table out of it. ~5% of the 100k import's wall time and CPU.
 */
export const SCRATCH_MMAP_BYTES = 1 << 30;

/** workerData of the worker. */
export interface BulkLoadStart {
  /** The scratch database file the worker builds its tables in. */
  scratchPath: string;
  nativeBinding?: string;
  /** An Int32Array's buffer: the state at STATE, the batches written at TAKEN. */
  state: SharedArrayBuffer;
}

/** The tables the worker writes, by the memory's own CREATE statements (sqlite_master). */
export interface BulkLoadSchema {
  /** episodes and fact_episodes, then the full-text tables (only these when `fullTextOnly`). */
  tables: string[];
  /** The secondary indexes of episodes and fact_episodes, built after their rows. */
  indexes: string[];
  /**
   * The worker builds only the full-text indexes, of rows the main thread has written and sends
   * with their rowids (`stored` batches): a first sync's load (memory/sync/sync-first.ts).
   */
  fullTextOnly?: boolean;
}

/** Rows of a fixed number of text columns (null allowed), packed. */
export interface PackedRows {
  columns: number;
  text: string;
  /** Length of each value in `text`, row by row; -1 is null. */
  lengths: Int32Array;
}

/**
 * To the worker, in this order: the schema; batches of episodes and of facts (as the import reads
 * them: episodes first, each batch of at most BATCH_ROWS rows); the end of the rows (build the
 * indexes and the full text); then, after the load, checkpoint this database file, or just finish.
 */
export type BulkLoadMessage =
  | { schema: BulkLoadSchema }
  /** id, conversation_id, role, content, reference_time, created_at, utc_offset, time_zone (rowid = index + 1, counted across batches). */
  | { episodes: PackedRows }
  /** fact, predicate of each fact in the order the main thread inserts them (rowid = index + 1); fact_id, episode_id of their links. */
  | { facts: PackedRows; links: PackedRows }
  /** Full text only: rows as stored in the main thread's table — rowid, content of episodes; rowid, fact, predicate of facts. */
  | { stored: 'episodes' | 'facts'; rows: PackedRows }
  | { end: true }
  | { checkpoint: string }
  | { close: true };

/** From the worker: what went wrong (the state says FAILED when it was the build). */
export interface BulkLoadReport {
  error: string;
}

/**
 * Packs rows: `columns` has one getter per column, giving each item's value. Values go straight
 * into a presized array (join() writes null as ''), their lengths into the Int32Array.
 */
export function packRows<T>(items: readonly T[], columns: readonly ((item: T) => string | null)[]): PackedRows {
  const width = columns.length;
  const parts: (string | null)[] = new Array(items.length * width);
  const lengths = new Int32Array(items.length * width);
  let k = 0;
  for (const item of items) {
    for (let c = 0; c < width; c++, k++) {
      const value = columns[c]!(item);
      parts[k] = value;
      lengths[k] = value === null ? -1 : value.length;
    }
  }
  return { columns: width, text: parts.join(''), lengths };
}

/** Calls `row` with each row's values, in order (the array is reused between rows). */
export function forEachRow(packed: PackedRows, row: (values: (string | null)[]) => void): void {
  const values: (string | null)[] = new Array(packed.columns).fill(null);
  let offset = 0;
  for (let i = 0; i < packed.lengths.length; ) {
    for (let c = 0; c < packed.columns; c++, i++) {
      const length = packed.lengths[i]!;
      if (length < 0) {
        values[c] = null;
      } else {
        values[c] = packed.text.slice(offset, offset + length);
        offset += length;
      }
    }
    row(values);
  }
}
