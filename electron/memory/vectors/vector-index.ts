/**
 * The vector index: embeddings in a LanceDB table (the app embeds live facts only:
 * vector-source.ts; the kinds below are what a table may hold). It is derived
 * data — SQLite is the truth, and vector-sync.ts reconciles this table with it (or rebuilds it) —
 * so whenever the stored table cannot be used as it is (another vector length, another embedding
 * model, an older layout, unreadable) it is dropped and recreated empty, never mixed.
 *
 * A table (`items` unless named; the app keeps its facts in `items` in `<dataDir>/vectors`, see
 * engine/vector-service.ts), its columns in vector-table.ts:
 *   id     utf8                          the SQLite id ("fct_…", "ent_…", "epi_…"), unique
 *   kind   utf8                          'fact' | 'entity' | 'episode'
 *   hash   utf8                          hash of the embedded text ('' if unknown), to spot stale vectors
 *   vector fixed_size_list<float16>[d]   L2-normalised embedding (half-float.ts); searched by cosine distance
 *
 * Writes (upsert, delete, reset, maintenance) run one at a time on a promise chain (table-access.ts),
 * so callers may fire and forget; a failed write rejects its own promise (never an unhandled
 * rejection) and is reported to `onError`. Reads do not wait for queued writes, except `ids`,
 * `hashes` and `count`, which reflect everything queued before them.
 *
 * Beside each table, `<table>.sync.json` stamps the generation of its last sync (sync-stamp.ts).
 *
 * Search (vector-search.ts) is exact (brute force) while the table is small, and goes through an
 * IVF_RQ index once the table is large enough (ann-index.ts, which also compacts small writes).
 * Once writes have been quiet a while (and on open, when the last session left old versions), the
 * table is compacted and every old version removed (vector-upkeep.ts).
 * Rows are checked as vector-rows.ts says. LanceDB is loaded when the first index opens.
 * A stored table that no longer fits is dropped, and one in float32 (before float16) rewritten, on
 * open (vector-table-open.ts).
 */
import type * as lancedb from '@lancedb/lancedb';
import { MemoryInputError } from '../memory-errors';
import { AnnIndex, type AnnIndexOptions, type AnnTuning } from './ann-index';
import { closedError, TableAccess } from './table-access';
import { checkVector, chunks, validRows, type VectorRow } from './vector-rows';
import { searchTable, type VectorHit, type VectorSearchOptions } from './vector-search';
import type { VectorMigration } from './vector-migration';
import { openStoredTable } from './vector-table-open';
import { DEFAULT_UPKEEP_QUIET_MS, realTimer, UpkeepSchedule, type UpkeepTimer } from './vector-upkeep';
import { kindList, kindPredicate, loadLanceDb, type LanceDb, schemaFor, sqlString, toArrow, VECTOR_KINDS, VECTOR_TABLE, type VectorKind, type VectorResetReason } from './vector-table';

export { sqlString, VECTOR_KINDS, VECTOR_LAYOUT_VERSION, VECTOR_TABLE, type VectorKind, type VectorResetReason } from './vector-table';
export type { VectorRow } from './vector-rows';
export type { VectorHit, VectorSearchOptions } from './vector-search';

export interface VectorIndexOptions extends AnnIndexOptions {
  /**
   * Identity of the embedding model (e.g. file name and size). When given and different from the
   * one the table was built with, the table is reset like on a dimension change.
   */
  model?: string;
  /** Every failed write (also those whose promise is awaited) and failed background maintenance. */
  onError?: (error: unknown) => void;
  /** Name of the table in the LanceDB directory (default `items`): several indexes can share one. */
  table?: string;
  /**
   * The kinds this table holds (default: all). Rows of other kinds are refused on write and
   * removed on open; a search for every kind it holds needs no kind filter.
   */
  kinds?: readonly VectorKind[];
  /** Writes quiet this long (ms) before compaction and removal of old versions (default 90 s). */
  upkeepQuietMs?: number;
  /** The timer for that quiet time (default setTimeout; tests drive their own). */
  upkeepTimer?: UpkeepTimer;
}

/** Rows per Arrow batch / merge. */
const WRITE_CHUNK = 10_000;
/** Ids per `IN (...)` list in a delete. */
const SQL_LIST_CHUNK = 1_000;
const MAX_DIMENSIONS = 65_536;
const MAX_LIMIT = 10_000;

export class VectorIndex {
  private readonly access: TableAccess;
  private readonly ann: AnnIndex;
  /** The stored table's schema, which rows are written in (float16, or float32 for a table not migrated). */
  private schema: import('apache-arrow').Schema;
  private readonly tableName: string;
  private readonly kinds: readonly VectorKind[];
  private readonly upkeep: UpkeepSchedule;
  /** The upkeep running now (compaction, then removal of old versions), for `flush`. */
  private upkeeping: Promise<void> = Promise.resolve();

  private constructor(
    lance: LanceDb,
    private readonly db: lancedb.Connection,
    private table: lancedb.Table,
    readonly path: string,
    readonly dimensions: number,
    /** The embedding model's identity the table is stamped with (given, or read from the table). */
    readonly model: string | undefined,
    /** Set when `open` found a table it could not use and dropped it (the index is now empty). */
    readonly resetReason: VectorResetReason | null,
    /** True when `open` created the table (none was stored, or it was dropped): it holds nothing. */
    readonly created: boolean,
    /** Set when `open` rewrote a float32 table in float16 (vector-migration.ts). */
    readonly migrated: VectorMigration | null,
    schema: import('apache-arrow').Schema,
    options: VectorIndexOptions,
  ) {
    this.access = new TableAccess(options.onError);
    this.ann = new AnnIndex(lance, options, (error) => this.access.report(error));
    this.schema = schema;
    this.tableName = options.table ?? VECTOR_TABLE;
    this.kinds = options.kinds ?? VECTOR_KINDS;
    this.upkeep = new UpkeepSchedule(options.upkeepQuietMs ?? DEFAULT_UPKEEP_QUIET_MS, options.upkeepTimer ?? realTimer, () => this.startUpkeep());
  }

  /** The table's name in the LanceDB directory (`path`). */
  get name(): string {
    return this.tableName;
  }

  /** True when `open` dropped a stored table (other dimensions, model, layout, or unreadable). */
  get wasReset(): boolean {
    return this.resetReason !== null;
  }

  /** Whether searches currently go through the ANN index (false: exact brute force). */
  get annIndexed(): boolean {
    return this.ann.built;
  }

  /** How a query goes through the ANN index now (probes, refine factor); null while search is brute force. */
  get annTuning(): AnnTuning | null {
    return this.ann.tuning();
  }

  /**
   * Opens (creating if needed) the index at `path` for vectors of `dimensions` floats. A stored
   * table of another dimension, another `model`, an older layout, or one that cannot be read is
   * dropped and recreated empty (`wasReset`, `resetReason`).
   */
  static async open(path: string, dimensions: number, options: VectorIndexOptions = {}): Promise<VectorIndex> {
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) {
      throw new MemoryInputError(`vector dimensions must be an integer from 1 to ${MAX_DIMENSIONS}, got ${dimensions}`, 'dimensions');
    }
    const name = options.table ?? VECTOR_TABLE;
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) throw new MemoryInputError(`vector table name must be lowercase letters, digits and _, got ${JSON.stringify(name)}`, 'table');
    const kinds = kindList(options.kinds, 'kinds');
    if (kinds?.length === 0) throw new MemoryInputError('a vector table must hold at least one kind', 'kinds');
    const { lance, db, table, model, reason, migrated, created } = await openStoredTable(path, name, dimensions, { model: options.model, kinds, onError: options.onError });
    try {
      const index = new VectorIndex(lance, db, table, path, dimensions, model, reason, created, migrated, await table.schema(), options);
      await index.ann.load(table);
      // What the last session left (old versions, small fragments) is cleaned up at the first quiet
      // moment, not under the first searches; a rewritten table (which lost its indexes and holds a
      // fragment per batch) is compacted and indexed now.
      if (migrated) index.ann.wrote(migrated.rows);
      else if (!created && (await table.stats()).fragmentStats.numSmallFragments > 1) index.ann.wrote();
      if (migrated || (!created && (await table.listVersions()).length > 1)) {
        index.ann.cleanupDue = true;
        if (migrated) index.startUpkeep();
        else index.upkeep.wrote();
      }
      return index;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * Removes the table `name` from the index directory at `path`, if it is there (with its files):
   * for a table a newer version no longer keeps. Returns whether there was one.
   */
  static async dropTable(path: string, name: string): Promise<boolean> {
    const lance = await loadLanceDb();
    const db = await lance.connect(path);
    try {
      if (!(await db.tableNames()).includes(name)) return false;
      await db.dropTable(name);
      return true;
    } finally {
      db.close();
    }
  }

  // ----- writes (serialised) -----

  /**
   * Inserts or replaces rows by id (a later row with the same id in `items` wins). Vectors must
   * have `dimensions` finite floats; nothing is written when one does not. `maintain: false` leaves
   * compaction and the ANN index to an optimize() after a bulk write.
   */
  upsert(items: readonly VectorRow[], options: { maintain?: boolean } = {}): Promise<void> {
    return this.writeRows(items, options, (arrow) => this.table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(arrow));
  }

  /**
   * Adds rows known not to be stored yet (reconcile found no vector for their ids): an append, not
   * a merge on id — a merge reads the whole table, so embedding a large memory for the first time
   * 1,024 rows at a time grew with the square of its size.
   */
  insert(items: readonly VectorRow[], options: { maintain?: boolean } = {}): Promise<void> {
    return this.writeRows(items, options, (arrow) => this.table.add(arrow));
  }

  /** Checks the rows, then writes them in chunks with `put` on the write chain, counting them for maintenance. */
  private writeRows(items: readonly VectorRow[], options: { maintain?: boolean }, put: (arrow: ReturnType<typeof toArrow>) => Promise<unknown>): Promise<void> {
    let rows: ReturnType<typeof validRows>;
    try {
      rows = validRows(items, this.dimensions, this.kinds);
    } catch (error) {
      return this.access.fail(error);
    }
    if (rows.length === 0) return this.access.closed ? this.access.fail(closedError()) : Promise.resolve();
    return this.written(async () => {
      for (const part of chunks(rows, WRITE_CHUNK)) {
        await put(toArrow(part, this.schema, this.dimensions));
        this.ann.wrote(part.length);
      }
      if (options.maintain !== false) await this.ann.maintain(this.table, false);
    });
  }

  /** Removes these ids (any kind); ids not stored are ignored. */
  delete(ids: Iterable<string>): Promise<void> {
    const unique = [...new Set(ids)].filter((id) => typeof id === 'string');
    if (unique.length === 0) return this.access.closed ? this.access.fail(closedError()) : Promise.resolve();
    return this.written(async () => {
      for (const part of chunks(unique, SQL_LIST_CHUNK)) {
        await this.table.delete(`id IN (${part.map(sqlString).join(', ')})`);
        this.ann.wrote();
      }
      await this.ann.maintain(this.table, false);
    });
  }

  /** Drops every row and the ANN index (for `tempora reindex`). Reads issued meanwhile wait for it. */
  reset(): Promise<void> {
    return this.access.exclusive(async () => {
      this.table.close();
      await this.db.dropTable(this.tableName).catch(() => undefined);
      this.schema = schemaFor(this.dimensions, this.model ?? '');
      this.table = await this.db.createEmptyTable(this.tableName, this.schema, { mode: 'overwrite' });
      this.ann.reset();
    });
  }

  /**
   * Compacts small writes, adds new rows to the indexes and removes old versions; builds the ANN
   * index once the table is large enough. Runs by itself after writes; call it after bulk work.
   */
  optimize(): Promise<void> {
    return this.written(() => this.ann.maintain(this.table, true, true));
  }

  /** Queues a write, and when it is done re-arms the upkeep's quiet time. */
  private written(op: () => Promise<void>): Promise<void> {
    const run = this.access.enqueue(op);
    const arm = () => {
      if (!this.access.closed) this.upkeep.wrote();
    };
    run.then(arm, arm);
    return run;
  }

  private startUpkeep(): void {
    const previous = this.upkeeping;
    this.upkeeping = previous.then(() => this.upkeepNow());
  }

  /**
   * Compacts what was written when due and builds or retrains the ANN index if due (a write like
   * any), then removes every old version while no read of this process runs. Failures go to `onError`.
   */
  private async upkeepNow(): Promise<void> {
    try {
      if (this.access.closed) return;
      await this.access.enqueue(async () => {
        await this.ann.maintain(this.table, this.ann.quietCompactionDue(), true);
        await this.ann.beforeCleanUp(this.table); // outside the part that holds reads back
      });
      // Nothing rewritten since the last clean-up: the old versions hold little but their manifests.
      if (this.access.closed || !this.ann.cleanupDue) return;
      await this.access.exclusive(() => this.ann.cleanUp(this.table));
    } catch {
      // reported to onError by the access
    }
  }

  /** Waits until every write queued so far, and an upkeep running, have finished (whether they succeeded or not). */
  async flush(): Promise<void> {
    await Promise.all([this.access.flush(), this.upkeeping]);
  }

  /**
   * Builds (or retrains) the ANN index now, whatever the table's size, and compacts the table.
   * Maintenance does this by itself; this is for after bulk loads and for benchmarks.
   */
  createAnnIndex(): Promise<void> {
    return this.written(async () => {
      await this.ann.build(this.table, await this.table.countRows());
    });
  }

  // ----- reads -----

  /** Runs a read on the current table: after any queued reset, never overlapping a reset or close. */
  private read<T>(run: (table: lancedb.Table) => Promise<T>): Promise<T> {
    return this.access.read(() => run(this.table));
  }

  /** Every stored id (of `kind`), after the writes queued so far. Reads only the id column. */
  async ids(kind?: VectorKind | readonly VectorKind[]): Promise<Set<string>> {
    const ids = new Set<string>();
    await this.scan(['id'], kind, (batch) => {
      for (const id of batch.getChild('id')!.toArray() as string[]) ids.add(id);
    });
    return ids;
  }

  /** id → stored text hash ('' when written without one), after the writes queued so far. */
  async hashes(kind?: VectorKind | readonly VectorKind[]): Promise<Map<string, string>> {
    const hashes = new Map<string, string>();
    await this.scan(['id', 'hash'], kind, (batch) => {
      const ids = batch.getChild('id')!.toArray() as string[];
      const values = batch.getChild('hash')!.toArray() as string[];
      ids.forEach((id, i) => hashes.set(id, values[i] ?? ''));
    });
    return hashes;
  }

  /**
   * id → stored text hash for these ids only (those stored), after the writes queued so far: what a
   * sync of a few changed items reads instead of every hash (the btree on id serves the filter).
   */
  async hashesOf(ids: Iterable<string>): Promise<Map<string, string>> {
    const hashes = new Map<string, string>();
    const unique = [...new Set(ids)];
    if (unique.length === 0) return hashes;
    await this.flush();
    await this.read(async (table) => {
      for (const part of chunks(unique, SQL_LIST_CHUNK)) {
        for await (const batch of table.query().where(`id IN (${part.map(sqlString).join(', ')})`).select(['id', 'hash'])) {
          const found = batch.getChild('id')!.toArray() as string[];
          const values = batch.getChild('hash')!.toArray() as string[];
          found.forEach((id, i) => hashes.set(id, values[i] ?? ''));
        }
      }
    });
    return hashes;
  }

  /** The filter for these kinds, or null when they cover every kind this table holds. */
  private kindFilter(kinds: VectorKind[] | null): string | null {
    if (kinds === null || this.kinds.every((k) => kinds.includes(k))) return null;
    return kindPredicate(kinds);
  }

  private async scan(columns: string[], kind: VectorKind | readonly VectorKind[] | undefined, each: (batch: import('apache-arrow').RecordBatch) => void): Promise<void> {
    const predicate = this.kindFilter(kindList(kind, 'kind'));
    await this.flush();
    await this.read(async (table) => {
      let query = table.query().select(columns);
      if (predicate) query = query.where(predicate);
      for await (const batch of query) each(batch);
    });
  }

  /** Rows stored (of `kind`), after the writes queued so far. */
  async count(kind?: VectorKind | readonly VectorKind[]): Promise<number> {
    const predicate = this.kindFilter(kindList(kind, 'kind'));
    await this.flush();
    return this.read((table) => (predicate ? table.countRows(predicate) : table.countRows()));
  }

  /** The `limit` stored vectors nearest to `vector` by cosine distance, best first. */
  async search(vector: Float32Array | readonly number[], options: VectorSearchOptions): Promise<VectorHit[]> {
    checkVector(vector, this.dimensions, 'vector');
    const limit = Math.min(MAX_LIMIT, Math.floor(options.limit));
    if (!Number.isFinite(limit) || limit < 1) return [];
    const kinds = kindList(options.kind, 'kind');
    const ids = options.ids === undefined ? null : new Set(options.ids);
    if (ids?.size === 0 || kinds?.length === 0) return [];
    const kindWhere = this.kindFilter(kinds);
    const query = vector instanceof Float32Array ? vector : Float32Array.from(vector);
    return this.read((table) => searchTable(table, query, limit, kindWhere, ids, () => this.ann.tuning(), options.onSearching));
  }

  // ----- lifecycle -----

  /** Finishes the queued writes and a due upkeep, then closes the table and the connection. Idempotent. */
  async close(): Promise<void> {
    if (this.access.closed) return this.access.flush();
    // Closing is the quiet moment for an upkeep still due (no read of this process can start now).
    const due = this.upkeep.pending;
    this.upkeep.stop();
    await this.flush();
    if (due || this.ann.cleanupDue) await this.upkeepNow();
    await this.access.shut();
    this.table.close();
    this.db.close();
  }
}
