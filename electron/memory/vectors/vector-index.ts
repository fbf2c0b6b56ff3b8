/**
 * The vector index: embeddings of facts, entities and episodes in a LanceDB table. It is derived
 * data — SQLite is the truth, and vector-sync.ts reconciles this table with it (or rebuilds it) —
 * so whenever the stored table cannot be used as it is (another vector length, another embedding
 * model, an older layout, unreadable) it is dropped and recreated empty, never mixed.
 *
 * A table (`items` unless named; the app keeps facts in `items` and entities and episodes in
 * `others`, both in `<dataDir>/vectors`, see engine/vector-service.ts), its columns in vector-table.ts:
 *   id     utf8                          the SQLite id ("fct_…", "ent_…", "epi_…"), unique
 *   kind   utf8                          'fact' | 'entity' | 'episode'
 *   hash   utf8                          hash of the embedded text ('' if unknown), to spot stale vectors
 *   vector fixed_size_list<float32>[d]   L2-normalised embedding; searched by cosine distance
 *
 * Writes (upsert, delete, reset, maintenance) run one at a time on a promise chain inside the
 * class, so callers may fire and forget; a failed write rejects its own promise (never an
 * unhandled rejection) and is reported to `onError`. Reads do not wait for queued writes, except
 * `ids`, `hashes` and `count`, which reflect everything queued before them.
 *
 * Search is exact (brute force) while the table is small. From `annMinRows` rows on, an IVF_RQ
 * index (RaBitQ codes of 4 bits per dimension; trains in seconds at 100k × 384 on two cores, where
 * IVF_PQ and HNSW take minutes) is built on the write chain, with a bitmap index on `kind` and a
 * btree on `id`; queries then re-rank `refineFactor × limit` candidates by their exact cosine
 * distance. Brute force at 100k × 384 takes hundreds of ms on two cores; see
 * test/bench/vector-search.ts for the numbers.
 * Small writes are compacted (and newly written rows added to the indexes) every so often.
 */
import * as lancedb from '@lancedb/lancedb';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryInputError } from '../memory-errors';
import { isKind, kindList, kindPredicate, META_MODEL, mismatch, schemaFor, sqlString, toArrow, VECTOR_KINDS, VECTOR_TABLE, type VectorKind, type VectorResetReason } from './vector-table';

export { sqlString, VECTOR_KINDS, VECTOR_LAYOUT_VERSION, VECTOR_TABLE, type VectorKind, type VectorResetReason } from './vector-table';

export interface VectorRow {
  id: string;
  kind: VectorKind;
  vector: Float32Array | readonly number[];
  /** Hash of the text the vector was made from (vector-sync's `textHash`); '' or absent = unknown. */
  hash?: string;
}

export interface VectorHit {
  id: string;
  kind: VectorKind;
  /** Cosine distance, 0 (same direction) … 2 (opposite). Best first. */
  distance: number;
}

export interface VectorSearchOptions {
  limit: number;
  kind?: VectorKind | readonly VectorKind[];
  /** Only these ids are candidates (e.g. the facts current at `as_of`). An empty list finds nothing. */
  ids?: Iterable<string>;
}

export interface VectorIndexOptions {
  /**
   * Identity of the embedding model (e.g. file name and size). When given and different from the
   * one the table was built with, the table is reset like on a dimension change.
   */
  model?: string;
  /** Every failed write (also those whose promise is awaited) and failed background maintenance. */
  onError?: (error: unknown) => void;
  /** Rows from which an ANN index is built (default 5000; Infinity: always brute force). */
  annMinRows?: number;
  /** With an ANN index, candidates re-ranked by exact distance = refineFactor × limit (default 3). */
  refineFactor?: number;
  /** Bits per dimension of the IVF_RQ codes, 1 … 8 (default 4: recall ≈ 0.99 with refine 3). */
  annBits?: number;
  /** Compact after this many small writes (default 32). */
  compactAfterWrites?: number;
  /** Name of the table in the LanceDB directory (default `items`): several indexes can share one. */
  table?: string;
  /**
   * The kinds this table holds (default: all). Rows of other kinds are refused on write and
   * removed on open; a search for every kind it holds needs no kind filter (~3 ms at 100k).
   */
  kinds?: readonly VectorKind[];
}

const DEFAULT_ANN_MIN_ROWS = 5_000;
const DEFAULT_REFINE_FACTOR = 3;
const DEFAULT_ANN_BITS = 4;
const DEFAULT_COMPACT_AFTER_WRITES = 32;
/** With an ANN index, rows written since the last optimize that trigger one (they are searched flat). */
const OPTIMIZE_AFTER_ROWS = 2_000;
/** Retrain the ANN index when the table has grown this much since it was trained … */
const RETRAIN_GROWTH = 4;
/** … or when compactions have added more incremental parts than this. */
const MAX_INDEX_PARTS = 6;
const ANN_INDEX = 'vector_idx';
/** Rows per Arrow batch / merge. */
const WRITE_CHUNK = 10_000;
/** Ids per `IN (...)` list in a delete or a prefilter. */
const SQL_LIST_CHUNK = 1_000;
/** Above this many candidate ids, search over-fetches and filters in JS instead of an IN list. */
const PREFILTER_MAX_IDS = 1_000;
/** Versions younger than this survive compaction, so a query already reading one never loses its files. */
const KEEP_VERSIONS_MS = 60_000;
const MAX_DIMENSIONS = 65_536;
const MAX_LIMIT = 10_000;

/**
 * IVF partitions for an index trained on `rows` rows: one per 4096 rows (25 at 100k). Fewer,
 * larger partitions than the usual √rows: scanning 4-bit codes is cheap, and on embeddings without
 * much cluster structure recall is roughly the share of partitions probed (√rows partitions with
 * 40 probes found a third of the true neighbours of evenly spread vectors at 100k).
 */
function partitionsFor(rows: number): number {
  return Math.max(1, Math.ceil(rows / 4096));
}

/** Partitions probed per query: all of them up to 32, then a quarter (at least 32). */
function probesFor(trainedRows: number): number {
  const partitions = partitionsFor(trainedRows);
  return Math.min(partitions, Math.max(32, Math.ceil(partitions / 4)));
}

/** `<dataDir>/vectors`. */
export function vectorIndexPath(dataDir: string): string {
  return join(dataDir, 'vectors');
}

function closedError(): Error {
  return new Error('the vector index is closed');
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export class VectorIndex {
  private chain: Promise<void> = Promise.resolve();
  /**
   * Resets queued or running: reads wait for `resetting` while there are any, and a reset (and
   * close) waits for the reads already running, since it replaces (closes) the table handle.
   */
  private pendingResets = 0;
  private resetting: Promise<void> = Promise.resolve();
  private activeReads = 0;
  private readsIdle: (() => void)[] = [];
  private closed = false;
  private hasAnn = false;
  private trainedRows = 0;
  /** After a failed ANN build, the row count at which to try again. */
  private annRetryAt = 0;
  private writesSinceOptimize = 0;
  private rowsSinceOptimize = 0;
  private readonly annMinRows: number;
  private readonly refineFactor: number;
  private readonly annBits: number;
  private readonly compactAfterWrites: number;
  private readonly onError: ((error: unknown) => void) | undefined;
  private readonly schema: import('apache-arrow').Schema;

  private readonly tableName: string;
  private readonly kinds: readonly VectorKind[];

  private constructor(
    private readonly db: lancedb.Connection,
    private table: lancedb.Table,
    readonly path: string,
    readonly dimensions: number,
    /** The embedding model's identity the table is stamped with (given, or read from the table). */
    readonly model: string | undefined,
    /** Set when `open` found a table it could not use and dropped it (the index is now empty). */
    readonly resetReason: VectorResetReason | null,
    options: VectorIndexOptions,
  ) {
    this.annMinRows = options.annMinRows ?? DEFAULT_ANN_MIN_ROWS;
    this.refineFactor = Math.max(1, Math.round(options.refineFactor ?? DEFAULT_REFINE_FACTOR));
    this.annBits = Math.min(8, Math.max(1, Math.round(options.annBits ?? DEFAULT_ANN_BITS)));
    this.compactAfterWrites = Math.max(1, options.compactAfterWrites ?? DEFAULT_COMPACT_AFTER_WRITES);
    this.onError = options.onError;
    this.schema = schemaFor(dimensions, model ?? '');
    this.tableName = options.table ?? VECTOR_TABLE;
    this.kinds = options.kinds ?? VECTOR_KINDS;
  }

  /** True when `open` dropped a stored table (other dimensions, model, layout, or unreadable). */
  get wasReset(): boolean {
    return this.resetReason !== null;
  }

  /** Whether searches currently go through the ANN index (false: exact brute force). */
  get annIndexed(): boolean {
    return this.hasAnn;
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
    mkdirSync(path, { recursive: true });
    const db = await lancedb.connect(path);
    try {
      let table: lancedb.Table | null = null;
      let reason: VectorResetReason | null = null;
      let model = options.model;
      if ((await db.tableNames()).includes(name)) {
        try {
          table = await db.openTable(name);
          const schema = await table.schema();
          reason = mismatch(schema, dimensions, options.model);
          // Opened without a model: keep the one the table was built with (also across reset()).
          model ??= schema.metadata.get(META_MODEL) || undefined;
          if (reason === null) await table.countRows();
        } catch {
          reason = 'unreadable';
        }
        if (reason !== null) {
          table?.close();
          table = null;
          await db.dropTable(name).catch(() => undefined);
        }
      }
      // A table kept from when it held every kind: what is not ours goes now.
      if (table && kinds && kinds.length < VECTOR_KINDS.length && (await table.countRows(`NOT (${kindPredicate(kinds)})`)) > 0) {
        await table.delete(`NOT (${kindPredicate(kinds)})`);
      }
      table ??= await db.createEmptyTable(name, schemaFor(dimensions, model ?? ''), { mode: 'overwrite' });
      const index = new VectorIndex(db, table, path, dimensions, model, reason, options);
      await index.loadIndexState();
      return index;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  private async loadIndexState(): Promise<void> {
    const ann = await this.annIndexInfo();
    this.hasAnn = ann !== undefined;
    this.trainedRows = ann?.numIndexedRows ?? 0;
  }

  // ----- writes (serialised) -----

  /** Runs `op` after every write queued before it. The promise is marked handled: fire and forget is safe. */
  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    if (this.closed) return this.fail(closedError());
    const run = this.chain.then(op);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    run.catch((error: unknown) => this.report(error));
    return run;
  }

  /** A rejected promise that is already handled (reported to `onError`), for fire-and-forget callers. */
  private fail<T>(error: unknown): Promise<T> {
    this.report(error);
    const p = Promise.reject(error as Error);
    p.catch(() => undefined);
    return p;
  }

  private report(error: unknown): void {
    try {
      this.onError?.(error);
    } catch {
      // a failing error listener must not break the chain
    }
  }

  /**
   * Inserts or replaces rows by id (a later row with the same id in `items` wins). Vectors must
   * have `dimensions` finite floats; nothing is written when one does not.
   */
  upsert(items: readonly VectorRow[]): Promise<void> {
    let rows: { id: string; kind: VectorKind; hash: string; vector: Float32Array | readonly number[] }[];
    try {
      rows = this.validRows(items);
    } catch (error) {
      return this.fail(error);
    }
    if (rows.length === 0) return this.closed ? this.fail(closedError()) : Promise.resolve();
    return this.enqueue(async () => {
      for (const part of chunks(rows, WRITE_CHUNK)) {
        await this.table.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(toArrow(part, this.schema, this.dimensions));
        this.writesSinceOptimize++;
        this.rowsSinceOptimize += part.length;
      }
      await this.maintain(false);
    });
  }

  private validRows(items: readonly VectorRow[]) {
    const byId = new Map<string, { id: string; kind: VectorKind; hash: string; vector: Float32Array | readonly number[] }>();
    items.forEach((item, i) => {
      if (typeof item.id !== 'string' || item.id.length === 0) throw new MemoryInputError('a vector row needs a non-empty string id', `items.${i}.id`);
      if (!isKind(item.kind)) throw new MemoryInputError(`unknown vector kind ${JSON.stringify(item.kind)} (fact, entity or episode)`, `items.${i}.kind`);
      if (!this.kinds.includes(item.kind)) throw new MemoryInputError(`this vector table holds ${this.kinds.join(', ')}, not ${item.kind}`, `items.${i}.kind`);
      this.checkVector(item.vector, `items.${i}.vector`);
      byId.delete(item.id); // keep the last occurrence, in its position
      byId.set(item.id, { id: item.id, kind: item.kind, hash: item.hash ?? '', vector: item.vector });
    });
    return [...byId.values()];
  }

  private checkVector(vector: Float32Array | readonly number[], where: string): void {
    if (!vector || typeof vector.length !== 'number') throw new MemoryInputError('a vector must be a Float32Array or an array of numbers', where);
    if (vector.length !== this.dimensions) {
      throw new MemoryInputError(`a vector of ${vector.length} floats does not fit this index of ${this.dimensions} dimensions`, where);
    }
    for (let i = 0; i < vector.length; i++) {
      if (!Number.isFinite(vector[i])) throw new MemoryInputError(`vector value ${i} is not a finite number`, where);
    }
  }

  /** Removes these ids (any kind); ids not stored are ignored. */
  delete(ids: Iterable<string>): Promise<void> {
    const unique = [...new Set(ids)].filter((id) => typeof id === 'string');
    if (unique.length === 0) return this.closed ? this.fail(closedError()) : Promise.resolve();
    return this.enqueue(async () => {
      for (const part of chunks(unique, SQL_LIST_CHUNK)) {
        await this.table.delete(`id IN (${part.map(sqlString).join(', ')})`);
        this.writesSinceOptimize++;
      }
      await this.maintain(false);
    });
  }

  /** Drops every row and the ANN index (for `tempora reindex`). Reads issued meanwhile wait for it. */
  reset(): Promise<void> {
    if (this.closed) return this.fail(closedError());
    let done!: () => void;
    this.pendingResets++;
    this.resetting = new Promise<void>((resolve) => (done = resolve));
    const op = this.enqueue(async () => {
      await this.readsDone();
      this.table.close();
      await this.db.dropTable(this.tableName).catch(() => undefined);
      this.table = await this.db.createEmptyTable(this.tableName, this.schema, { mode: 'overwrite' });
      this.hasAnn = false;
      this.trainedRows = 0;
      this.annRetryAt = 0;
      this.writesSinceOptimize = 0;
      this.rowsSinceOptimize = 0;
    });
    const settle = () => {
      this.pendingResets--;
      done();
    };
    op.then(settle, settle);
    return op;
  }

  /**
   * Compacts small writes, adds new rows to the indexes and removes old versions; builds the ANN
   * index once the table is large enough. Runs by itself after writes; call it after bulk work.
   */
  optimize(): Promise<void> {
    return this.enqueue(() => this.maintain(true, true));
  }

  /** Waits until every write queued so far has finished (whether it succeeded or not). */
  flush(): Promise<void> {
    return this.chain;
  }

  /**
   * Builds (or retrains) the ANN index now, whatever the table's size, and compacts the table.
   * Maintenance does this by itself; this is for after bulk loads and for benchmarks.
   */
  createAnnIndex(): Promise<void> {
    return this.enqueue(async () => {
      await this.buildAnnIndex(await this.table.countRows());
    });
  }

  /**
   * Inside the chain, after writes: compacts when enough small writes piled up, builds the ANN
   * index when the table is large enough, retrains it when the table has grown a lot or its
   * incremental parts (one per compaction) have piled up. After a write, failures are reported
   * (the write itself succeeded); an explicit `optimize()` rejects with them.
   *
   * Why retrain to compact: LanceDB does not merge fragments covered by different index parts, so
   * with an ANN index every compaction adds a delta part and small fragments stay apart; searches
   * slow down as they pile up. A retrain covers everything with one part, after which the
   * compaction merges all fragments (~5–10 s at 100k × 384 on a busy two-core machine).
   */
  private async maintain(force: boolean, rethrow = false): Promise<void> {
    try {
      let deltas = 0;
      if (this.writesSinceOptimize >= this.compactAfterWrites || (this.hasAnn && this.rowsSinceOptimize >= OPTIMIZE_AFTER_ROWS) || (force && this.writesSinceOptimize > 0)) {
        await this.compact();
        if (this.hasAnn) deltas = (await this.annIndexInfo())?.numSegments ?? 0;
      }
      const rows = await this.table.countRows();
      const dueAnn = !this.hasAnn || rows >= RETRAIN_GROWTH * Math.max(1, this.trainedRows) || deltas > MAX_INDEX_PARTS;
      if (dueAnn && rows >= Math.max(this.annMinRows, this.annRetryAt)) {
        try {
          await this.buildAnnIndex(rows);
        } catch (error) {
          // Do not retry on every write: wait until the table has grown by half.
          this.annRetryAt = Math.ceil(rows * 1.5);
          throw error;
        }
      }
    } catch (error) {
      if (rethrow) throw error;
      this.report(error);
    }
  }

  private async annIndexInfo(): Promise<lancedb.IndexConfig | undefined> {
    return (await this.table.listIndices()).find((i) => i.name === ANN_INDEX);
  }

  private async compact(): Promise<void> {
    await this.table.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) });
    this.writesSinceOptimize = 0;
    this.rowsSinceOptimize = 0;
  }

  private async buildAnnIndex(rows: number): Promise<void> {
    await this.table.createIndex('vector', {
      config: lancedb.Index.ivfRq({ distanceType: 'cosine', numBits: this.annBits, numPartitions: partitionsFor(rows) }),
      replace: true,
    });
    const scalar = new Set((await this.table.listIndices()).map((i) => i.name));
    if (!scalar.has('kind_idx')) await this.table.createIndex('kind', { config: lancedb.Index.bitmap() });
    if (!scalar.has('id_idx')) await this.table.createIndex('id', { config: lancedb.Index.btree() });
    this.hasAnn = true;
    this.trainedRows = rows;
    this.annRetryAt = 0;
    await this.compact();
  }

  // ----- reads -----

  /** Runs a read on the current table: after any queued reset, never overlapping a reset or close. */
  private async read<T>(run: (table: lancedb.Table) => Promise<T>): Promise<T> {
    while (this.pendingResets > 0 && !this.closed) await this.resetting;
    if (this.closed) throw closedError();
    this.activeReads++; // synchronously after the checks: a reset called from now on waits for this read
    try {
      return await run(this.table);
    } finally {
      this.activeReads--;
      if (this.activeReads === 0) for (const wake of this.readsIdle.splice(0)) wake();
    }
  }

  private readsDone(): Promise<void> {
    return this.activeReads === 0 ? Promise.resolve() : new Promise((resolve) => this.readsIdle.push(resolve));
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
      for await (const batch of query) each(batch as import('apache-arrow').RecordBatch);
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
    this.checkVector(vector, 'vector');
    const limit = Math.min(MAX_LIMIT, Math.floor(options.limit));
    if (!Number.isFinite(limit) || limit < 1) return [];
    const kinds = kindList(options.kind, 'kind');
    const ids = options.ids === undefined ? null : new Set(options.ids);
    if (ids?.size === 0 || kinds?.length === 0) return [];
    const kindWhere = this.kindFilter(kinds);
    const query = vector instanceof Float32Array ? vector : Float32Array.from(vector);
    return this.read(async (table) => {
      if (ids === null || ids.size <= PREFILTER_MAX_IDS) {
        const idWhere = ids === null ? null : `id IN (${[...ids].map(sqlString).join(', ')})`;
        return this.nearest(table, query, limit, [kindWhere, idWhere].filter((w): w is string => w !== null).join(' AND ') || null);
      }
      // Many candidate ids: an IN list that long costs more than it saves. Over-fetch and filter
      // here, widening until enough hits are found or the table is exhausted.
      const total = await table.countRows();
      for (let fetch = Math.max(limit * 4, 100); ; fetch *= 4) {
        const hits = await this.nearest(table, query, Math.min(fetch, total), kindWhere);
        const kept = hits.filter((hit) => ids.has(hit.id));
        if (kept.length >= limit || hits.length < Math.min(fetch, total) || fetch >= total) return kept.slice(0, limit);
      }
    });
  }

  private async nearest(table: lancedb.Table, query: Float32Array, limit: number, where: string | null): Promise<VectorHit[]> {
    if (limit < 1) return [];
    let q = table.vectorSearch(query).column('vector').distanceType('cosine').limit(limit).select(['id', 'kind', '_distance']);
    if (this.hasAnn) q = q.nprobes(probesFor(this.trainedRows)).refineFactor(this.refineFactor);
    if (where) q = q.where(where);
    const result = await q.toArrow();
    const ids = result.getChild('id')?.toArray() as string[] | undefined;
    const kinds = result.getChild('kind')?.toArray() as string[] | undefined;
    const distances = result.getChild('_distance')?.toArray() as Float32Array | undefined;
    const hits: VectorHit[] = [];
    for (let i = 0; i < result.numRows; i++) {
      const kind = kinds?.[i];
      const distance = distances?.[i];
      if (ids?.[i] === undefined || !isKind(kind) || distance === undefined || !Number.isFinite(distance)) continue;
      hits.push({ id: ids[i]!, kind, distance: Math.max(0, distance) });
    }
    return hits;
  }

  // ----- lifecycle -----

  /** Finishes the queued writes, then closes the table and the connection. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return this.chain;
    this.closed = true;
    await this.chain;
    await this.readsDone();
    this.table.close();
    this.db.close();
  }
}
