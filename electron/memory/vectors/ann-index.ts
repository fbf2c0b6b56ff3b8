/**
 * The approximate-nearest-neighbour side of one vector table (vector-index.ts), and the compaction
 * that goes with it. Search is exact (brute force) while the table is small. From `annMinRows` rows
 * on, an IVF_RQ index (RaBitQ codes of 4 bits per dimension; trains in seconds at 100k × 384 on two
 * cores, where IVF_PQ and HNSW take minutes) is built on the write chain, with a bitmap index on
 * `kind` and a btree on `id`; queries rank by the codes' estimated distance alone (no re-ranking
 * by the exact vectors, unless `refineFactor` asks for it): chat and search use only the order, and
 * at 88,733 clustered rows every one of the exact ten nearest is among the 30 found, at half the
 * time of reading 90 vectors back to re-rank them (docs/benchmarks.md, "The vector search's order").
 * Brute force at 100k × 384 takes hundreds of ms on two cores; see test/bench/vector-search.ts.
 * Small writes are compacted (and newly written rows added to the indexes) once writes have been
 * quiet a while (vector-upkeep.ts, which then also removes old versions) — with an ANN index only
 * once 32 writes or 2,000 rows piled up; a long burst of writes is compacted every
 * `compactAfterWrites` writes meanwhile, so searches do not slow down, but old versions are
 * removed only when it is over.
 *
 * Every method but `tuning` runs inside the index's write chain.
 */
import type * as lancedb from '@lancedb/lancedb';
import type { LanceDb } from './vector-table';

export interface AnnIndexOptions {
  /** Rows from which an ANN index is built (default 5000; Infinity: always brute force). */
  annMinRows?: number;
  /**
   * With an ANN index, candidates re-ranked by exact distance = refineFactor × limit (default 0:
   * none, the codes' estimated distances order the results).
   */
  refineFactor?: number;
  /** Bits per dimension of the IVF_RQ codes, 1 … 8 (default 4: recall@30 ≈ 0.92, the ten nearest ≥ 0.995 among the thirty, without refine). */
  annBits?: number;
  /**
   * Versions younger than this (ms) survive a clean-up (default 60 s): another process may still
   * read one through a handle opened before (LanceDB handles do not follow other processes' writes).
   */
  keepVersionsMs?: number;
  /** Compact after this many small writes even while they keep coming (default 256). */
  compactAfterWrites?: number;
  /** Rows per IVF partition when the index is trained (default 4096). */
  rowsPerPartition?: number;
}

/** How a query goes through the ANN index. */
export interface AnnTuning {
  nprobes: number;
  refineFactor: number;
}

const DEFAULT_ANN_MIN_ROWS = 5_000;
const DEFAULT_REFINE_FACTOR = 0;
const DEFAULT_ANN_BITS = 4;
const DEFAULT_COMPACT_AFTER_WRITES = 256;
/**
 * With an ANN index, a quiet moment compacts only after this many writes (or OPTIMIZE_AFTER_ROWS
 * rows): each compaction adds an index part and every few parts retrain the index, which would
 * otherwise follow every pause in a chat. Without one, any write is compacted then.
 */
const QUIET_COMPACT_WRITES = 32;
const DEFAULT_KEEP_VERSIONS_MS = 60_000;
/** With an ANN index, rows written since the last optimize that trigger one (they are searched flat). */
const OPTIMIZE_AFTER_ROWS = 2_000;
/** Retrain the ANN index when the table has grown this much since it was trained … */
const RETRAIN_GROWTH = 4;
/** … or when compactions have added more incremental parts than this. */
const MAX_INDEX_PARTS = 6;
const ANN_INDEX = 'vector_idx';
const DEFAULT_ROWS_PER_PARTITION = 4096;

/**
 * IVF partitions for an index trained on `rows` rows: one per 4096 rows (25 at 100k). Fewer,
 * larger partitions than the usual √rows: scanning 4-bit codes is cheap, and on embeddings without
 * much cluster structure recall is roughly the share of partitions probed (√rows partitions with
 * 40 probes found a third of the true neighbours of evenly spread vectors at 100k).
 */
function partitionsFor(rows: number, rowsPerPartition = DEFAULT_ROWS_PER_PARTITION): number {
  return Math.max(1, Math.ceil(rows / rowsPerPartition));
}

/** Partitions probed per query: all of them up to 32, then a quarter (at least 32). */
function probesFor(trainedRows: number, rowsPerPartition: number): number {
  const partitions = partitionsFor(trainedRows, rowsPerPartition);
  return Math.min(partitions, Math.max(32, Math.ceil(partitions / 4)));
}

export class AnnIndex {
  private hasAnn = false;
  private trainedRows = 0;
  /** After a failed ANN build, the row count at which to try again. */
  private annRetryAt = 0;
  private writesSinceOptimize = 0;
  /**
   * Set when a compaction (or an index build, or a version left by an earlier session) may have left
   * files that only old versions use: the next quiet moment removes them.
   */
  cleanupDue = false;
  private rowsSinceOptimize = 0;
  private readonly annMinRows: number;
  private readonly refineFactor: number;
  private readonly annBits: number;
  private readonly compactAfterWrites: number;
  private readonly keepVersionsMs: number;
  private readonly rowsPerPartition: number;

  constructor(
    private readonly lance: LanceDb,
    options: AnnIndexOptions,
    /** Failures of maintenance after a write (the write itself succeeded). */
    private readonly report: (error: unknown) => void,
  ) {
    this.annMinRows = options.annMinRows ?? DEFAULT_ANN_MIN_ROWS;
    this.refineFactor = Math.max(0, Math.round(options.refineFactor ?? DEFAULT_REFINE_FACTOR));
    this.annBits = Math.min(8, Math.max(1, Math.round(options.annBits ?? DEFAULT_ANN_BITS)));
    this.compactAfterWrites = Math.max(1, options.compactAfterWrites ?? DEFAULT_COMPACT_AFTER_WRITES);
    this.keepVersionsMs = Math.max(0, options.keepVersionsMs ?? DEFAULT_KEEP_VERSIONS_MS);
    this.rowsPerPartition = Math.max(1, Math.round(options.rowsPerPartition ?? DEFAULT_ROWS_PER_PARTITION));
  }

  /** Whether searches currently go through the ANN index (false: exact brute force). */
  get built(): boolean {
    return this.hasAnn;
  }

  /** The probes and refine factor for a query now; null while search is brute force. */
  tuning(): AnnTuning | null {
    return this.hasAnn ? { nprobes: probesFor(this.trainedRows, this.rowsPerPartition), refineFactor: this.refineFactor } : null;
  }

  /** Reads what the opened table already has. */
  async load(table: lancedb.Table): Promise<void> {
    const ann = await this.annIndexInfo(table);
    this.hasAnn = ann !== undefined;
    this.trainedRows = ann?.numIndexedRows ?? 0;
  }

  /**
   * Compacts and indexes what is left before a clean-up (vector-upkeep.ts): LanceDB removes versions
   * only inside an optimize, which compacts first; done beforehand, that one has nothing left to do
   * and its cut-off follows every version but the current one.
   */
  async beforeCleanUp(table: lancedb.Table): Promise<void> {
    if (this.cleanupDue) await table.optimize();
  }

  /**
   * Removes every version but the current one and those younger than `keepVersionsMs`, with the
   * files only they use (after `beforeCleanUp`). The caller makes sure no read of this process is
   * running: one may still be reading an older version.
   */
  async cleanUp(table: lancedb.Table): Promise<void> {
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - this.keepVersionsMs) });
    this.cleanupDue = false;
    this.writesSinceOptimize = 0;
    this.rowsSinceOptimize = 0;
  }

  /** Whether a quiet moment (vector-upkeep.ts) should compact what was written since the last time. */
  quietCompactionDue(): boolean {
    if (!this.hasAnn) return this.writesSinceOptimize > 0;
    return this.writesSinceOptimize >= QUIET_COMPACT_WRITES || this.rowsSinceOptimize >= OPTIMIZE_AFTER_ROWS;
  }

  /** Counts one write (a merge of `rows` rows, or a delete) towards the next compaction. */
  wrote(rows = 0): void {
    this.writesSinceOptimize++;
    this.rowsSinceOptimize += rows;
  }

  /** The table was dropped and recreated empty. */
  reset(): void {
    this.hasAnn = false;
    this.trainedRows = 0;
    this.annRetryAt = 0;
    this.writesSinceOptimize = 0;
    this.rowsSinceOptimize = 0;
  }

  /**
   * After writes: compacts when enough small writes piled up, builds the ANN index when the table
   * is large enough, retrains it when the table has grown a lot or its incremental parts (one per
   * compaction) have piled up. After a write, failures are reported (the write itself succeeded);
   * an explicit `optimize()` (`rethrow`) rejects with them.
   *
   * Why retrain to compact: LanceDB does not merge fragments covered by different index parts, so
   * with an ANN index every compaction adds a delta part and small fragments stay apart; searches
   * slow down as they pile up. A retrain covers everything with one part, after which the
   * compaction merges all fragments (seconds at 100k vectors).
   */
  async maintain(table: lancedb.Table, force: boolean, rethrow = false): Promise<void> {
    try {
      let deltas = 0;
      if (this.writesSinceOptimize >= this.compactAfterWrites || (this.hasAnn && this.rowsSinceOptimize >= OPTIMIZE_AFTER_ROWS) || (force && this.writesSinceOptimize > 0)) {
        await this.compact(table);
        if (this.hasAnn) deltas = (await this.annIndexInfo(table))?.numSegments ?? 0;
      }
      const rows = await table.countRows();
      const dueAnn = !this.hasAnn || rows >= RETRAIN_GROWTH * Math.max(1, this.trainedRows) || deltas > MAX_INDEX_PARTS;
      if (dueAnn && rows >= Math.max(this.annMinRows, this.annRetryAt)) {
        try {
          await this.build(table, rows);
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

  /** Builds (or retrains) the ANN index over `rows` rows, adds the scalar indexes, and compacts. */
  async build(table: lancedb.Table, rows: number): Promise<void> {
    const { Index } = this.lance;
    await table.createIndex('vector', {
      config: Index.ivfRq({ distanceType: 'cosine', numBits: this.annBits, numPartitions: partitionsFor(rows, this.rowsPerPartition) }),
      replace: true,
    });
    const scalar = new Set((await table.listIndices()).map((i) => i.name));
    if (!scalar.has('kind_idx')) await table.createIndex('kind', { config: Index.bitmap() });
    if (!scalar.has('id_idx')) await table.createIndex('id', { config: Index.btree() });
    this.hasAnn = true;
    this.trainedRows = rows;
    this.annRetryAt = 0;
    await this.compact(table);
  }

  private async annIndexInfo(table: lancedb.Table): Promise<lancedb.IndexConfig | undefined> {
    return (await table.listIndices()).find((i) => i.name === ANN_INDEX);
  }

  /** Merges small fragments and adds new rows to the indexes; old versions stay (upkeep removes them). */
  private async compact(table: lancedb.Table): Promise<void> {
    await table.optimize();
    this.cleanupDue = true;
    this.writesSinceOptimize = 0;
    this.rowsSinceOptimize = 0;
  }
}
