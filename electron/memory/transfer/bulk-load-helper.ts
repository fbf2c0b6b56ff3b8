/**
 * The second thread of a large bulk load (an import of a whole memory into an empty store). On a
 * machine with two cores, a worker (bulk-load-worker.ts) builds the episodes and fact_episodes tables
 * and the full-text indexes in a scratch database while the main thread writes entities, facts and
 * claims, fed in batches as the import reads the document (never the whole of it: bulk-load-protocol.ts); inside the same transaction the main thread then copies the worker's tables in. After the
 * commit the worker checkpoints the WAL, so the import returns without first copying its pages into
 * the file.
 * How the worker's tables are copied in: bulk-load-scratch.ts. Whenever anything is off — no
 * worker file, the worker failed or is late, the rows did not take rowids 1..n, a copy failed —
 * adopt() returns false and the caller does it all in this thread.
 *
 * Full text only (a first sync's load, memory/sync/sync-first.ts): the main thread writes every row
 * itself, then sends the worker each stored episode's and fact's text with its rowid
 * (sendStoredRows) and builds the other indexes and the counts while the worker builds the full
 * text; adopt() copies only the full-text tables, and only if the stored rows are still those sent.
 */
import type { Database } from 'better-sqlite3';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { EpisodeRecord, FactRecord } from '../../../shared/memory-schema';
import { BATCH_ROWS, BATCHES_IN_FLIGHT, BUILT, FULL_TEXT_BATCHES_IN_FLIGHT, FAILED, SHARED_SLOTS, STARTING, STATE, TAKEN, packRows, type BulkLoadMessage, type BulkLoadReport, type BulkLoadSchema, type BulkLoadStart } from './bulk-load-protocol';
import { FULL_TEXT_TABLES } from '../text-search/fts-index';
import { attachScratch, copyFullTextTables, copyWorkerTables, detachScratch, removeScratch, SCRATCH_SCHEMA, storedSql, WORKER_TABLES } from './bulk-load-scratch';
import { bulkScratchPath } from '../store/database/open-database';
import { startWorkerThread } from '../store/worker-thread';

/** Below this many facts + episodes, starting a worker costs more than it saves. */
export const BULK_HELPER_MIN_ROWS = 20_000;
/**
 * A worker still not running when the rows are written (seconds after its start) gets this much
 * longer, then is taken as unable to start. A worker whose module cannot load says so at once
 * through the shared state (store/worker-thread.ts's boot sets FAILED: its error event cannot arrive while this
 * thread waits), so this only bounds a thread that is slow to come up.
 */
const START_TIMEOUT_MS = 1_000;
/** The longest wait for a started build (seconds at 100k facts on a slow machine). */
const BUILD_TIMEOUT_MS = 600_000;

/** An episode as the worker writes it. */
export type BulkLoadEpisode = Pick<EpisodeRecord, 'id' | 'conversation_id' | 'role' | 'content' | 'reference_time' | 'created_at' | 'utc_offset' | 'time_zone'>;
/** A fact as the worker indexes and links it (its predicate already canonical). */
export type BulkLoadFact = Pick<FactRecord, 'id' | 'fact' | 'predicate' | 'episode_ids'>;

/** Full text only: the tables whose stored rows the worker indexes, what it reads of each, and how a row packs. */
type StoredTable = 'episodes' | 'facts';
const STORED_TABLES: readonly StoredTable[] = ['episodes', 'facts'];
const STORED_ROWS: Record<StoredTable, string> = {
  episodes: 'SELECT rowid, content FROM main.episodes ORDER BY rowid',
  facts: 'SELECT rowid, fact, predicate FROM main.facts ORDER BY rowid',
};
type StoredRow = (string | number | null)[];
/** Characters of text in one batch of stored rows, at most (about): see sendStoredRows. */
const STORED_BATCH_CHARS = 1 << 20;
const text = (value: string | number | null | undefined): string | null => (value === null || value === undefined ? null : String(value));
const STORED_COLUMNS: Record<StoredTable, ((row: StoredRow) => string | null)[]> = {
  episodes: [(r) => text(r[0]), (r) => text(r[1])],
  facts: [(r) => text(r[0]), (r) => text(r[1]), (r) => text(r[2])],
};

export class BulkLoadHelper {
  /** Settles when the worker has exited (after the checkpoint, or after a failure). */
  readonly exited: Promise<void>;
  /** Why the worker did not deliver, for diagnosis (the import never depends on it). */
  failure: string | null = null;
  /** The worker has the schema: it has a scratch database to close and remove. */
  private building = false;
  /** Every row was sent: what the copied tables must hold. */
  private rows: { facts: number; episodes: number } | null = null;
  /** A batch could not be sent or waited for: the rest are not sent, and adopt() says no. */
  private broken = false;
  private episodes: BulkLoadEpisode[] = [];
  private facts: BulkLoadFact[] = [];
  private episodeCount = 0;
  private factCount = 0;
  /** Full text only: the rowids sent of each table, how many and the last (what adopt() checks is still stored). */
  private stored: Record<StoredTable, { count: number; last: number }> | null = null;
  /** The batches sent: how many, the most rows in one, the most not yet written by the worker at once (for diagnosis and tests). */
  readonly sent = { batches: 0, largest: 0, mostInFlight: 0 };

  private constructor(
    private readonly db: Database,
    private readonly worker: Worker,
    private readonly state: Int32Array,
    private readonly scratchPath: string,
    /** The worker builds only the full text of rows the main thread wrote (sendStoredRows). */
    readonly fullTextOnly: boolean,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (report: BulkLoadReport) => (this.failure = report.error));
    worker.on('error', (error) => (this.failure = error.message));
  }

  /**
   * Starts the worker for a load into the empty store `db` (file `dbPath`) and attaches its scratch
   * database; the worker starts up while the document is checked. Call outside a transaction.
   * null: no worker (nothing started).
   */
  static spawn(db: Database, dbPath: string, nativeBinding?: string, options: { fullTextOnly?: boolean } = {}): BulkLoadHelper | null {
    if (db.inTransaction) return null;
    const scratchPath = bulkScratchPath(dbPath);
    removeScratch(scratchPath);
    const state = new SharedArrayBuffer(SHARED_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const start: BulkLoadStart = { scratchPath, ...(nativeBinding ? { nativeBinding } : {}), state };
    let worker: Worker | null;
    try {
      worker = startWorkerThread({ name: 'bulk-load-worker', sourceDir: dirname(fileURLToPath(import.meta.url)), data: { start }, failed: { state, index: STATE, value: FAILED } });
    } catch {
      return null;
    }
    if (!worker) return null;
    if (!attachScratch(db, scratchPath)) {
      void worker.terminate();
      return null;
    }
    return new BulkLoadHelper(db, worker, new Int32Array(state), scratchPath, options.fullTextOnly ?? false);
  }

  /** Sends the worker the schema it builds with; call before the rows. */
  begin(): void {
    const { db } = this;
    const schema: BulkLoadSchema = this.fullTextOnly
      ? { tables: FULL_TEXT_TABLES.map((name) => storedSql(db, name)), indexes: [], fullTextOnly: true }
      : {
          tables: [...WORKER_TABLES, ...FULL_TEXT_TABLES].map((name) => storedSql(db, name)),
          indexes: db
            .prepare<[], string>(`SELECT sql FROM main.sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${WORKER_TABLES.map((t) => `'${t}'`).join(', ')})`)
            .pluck()
            .all(),
        };
    this.post({ schema });
    this.building = true;
  }

  /** An episode for the worker's table (sent with the next batch). */
  episode(e: BulkLoadEpisode): void {
    this.episodes.push(e);
    this.episodeCount++;
    if (this.episodes.length >= BATCH_ROWS) this.sendEpisodes();
  }

  /** A fact for the full text and its links (in the order the main thread inserts the facts). */
  fact(f: BulkLoadFact): void {
    if (this.episodes.length) this.sendEpisodes();
    this.facts.push(f);
    this.factCount++;
    if (this.facts.length >= BATCH_ROWS) this.sendFacts();
  }

  /** Every row is sent: the worker indexes them; adopt() then waits for it. */
  end(): void {
    if (this.episodes.length) this.sendEpisodes();
    if (this.facts.length) this.sendFacts();
    this.post({ end: true });
    if (!this.broken) this.rows = { facts: this.factCount, episodes: this.episodeCount };
  }

  /**
   * Full text only, once every row is written: sends each stored episode's and fact's text with its
   * rowid, then the end; the worker indexes them while this thread goes on (adopt() copies them in).
   */
  sendStoredRows(): void {
    const stored = { episodes: { count: 0, last: 0 }, facts: { count: 0, last: 0 } };
    for (const table of STORED_TABLES) {
      let batch: StoredRow[] = [];
      let chars = 0;
      const send = () => {
        const packed = packRows(batch, STORED_COLUMNS[table]);
        this.sendBatch({ stored: table, rows: packed }, [packed.lengths.buffer as ArrayBuffer], batch.length);
        stored[table].count += batch.length;
        stored[table].last = Number(batch[batch.length - 1]![0]);
        batch = [];
        chars = 0;
      };
      // Row by row, a batch at a time: never a whole table's text in one array (a million messages at
      // 1M), nor much more than a mebibyte of it in one batch (a message may be a long document).
      for (const row of this.db.prepare<[], StoredRow>(STORED_ROWS[table]).raw().iterate()) {
        if (this.broken) break; // the worker failed: what is left would be packed for nothing
        batch.push(row);
        for (let c = 1; c < row.length; c++) chars += typeof row[c] === 'string' ? (row[c] as string).length : 0;
        if (batch.length >= BATCH_ROWS || chars >= STORED_BATCH_CHARS) send();
      }
      if (batch.length && !this.broken) send();
    }
    this.post({ end: true });
    if (!this.broken) this.stored = stored;
  }

  private sendEpisodes(): void {
    const episodes = packRows(this.episodes.splice(0), [(e) => e.id, (e) => e.conversation_id, (e) => e.role, (e) => e.content, (e) => e.reference_time, (e) => e.created_at, (e) => e.utc_offset, (e) => e.time_zone]);
    this.sendBatch({ episodes }, [episodes.lengths.buffer as ArrayBuffer], episodes.lengths.length / episodes.columns);
  }

  private sendFacts(): void {
    const batch = this.facts.splice(0);
    const facts = packRows(batch, [(f) => f.fact, (f) => f.predicate]);
    const links = packRows(linksOf(batch), [(l) => l[0], (l) => l[1]]);
    this.sendBatch({ facts, links }, [facts.lengths.buffer, links.lengths.buffer] as ArrayBuffer[], batch.length);
  }

  /** Sends a batch once the worker is at most BATCHES_IN_FLIGHT - 1 behind (it waits here, not in a queue that grows). */
  private sendBatch(message: BulkLoadMessage, transfer: ArrayBuffer[], rows: number): void {
    if (this.broken) return;
    if (!this.waitForRoom()) {
      this.broken = true;
      return;
    }
    this.post(message, transfer);
    this.sent.batches++;
    this.sent.largest = Math.max(this.sent.largest, rows);
    this.sent.mostInFlight = Math.max(this.sent.mostInFlight, this.sent.batches - Atomics.load(this.state, TAKEN));
  }

  private post(message: BulkLoadMessage, transfer: ArrayBuffer[] = []): void {
    if (this.broken) return;
    try {
      this.worker.postMessage(message, transfer);
    } catch (error) {
      this.broken = true;
      this.failure = `a batch could not be sent: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** False when the worker failed or stays too far behind (the caller then writes everything itself). */
  private waitForRoom(): boolean {
    const started = performance.now();
    for (;;) {
      const taken = Atomics.load(this.state, TAKEN);
      const state = Atomics.load(this.state, STATE);
      if (state === FAILED) return false;
      if (this.sent.batches - taken < (this.fullTextOnly ? FULL_TEXT_BATCHES_IN_FLIGHT : BATCHES_IN_FLIGHT)) return true;
      const waited = performance.now() - started;
      if (waited > (state === STARTING ? START_TIMEOUT_MS : BUILD_TIMEOUT_MS)) {
        this.failure = `the worker took no rows for ${Math.round(waited / 1000)} s`;
        return false;
      }
      try {
        Atomics.wait(this.state, TAKEN, taken, 100);
      } catch (error) {
        this.failure = `cannot wait for the worker here: ${error instanceof Error ? error.message : String(error)}`;
        return false;
      }
    }
  }

  /**
   * Inside the load's transaction, after the main thread's rows (entities, facts, claims) and the
   * secondary indexes: waits for the worker, then copies its episodes, fact_episodes and full-text
   * tables in. false: nothing was changed; the caller writes episodes and links and indexes itself.
   */
  adopt(): boolean {
    const rows = this.rows;
    const stored = this.stored;
    if ((this.fullTextOnly ? !stored : !rows) || !this.waitForBuild()) return false;
    const { db } = this;
    const last = (table: string) => (db.prepare(`SELECT max(rowid) AS n FROM main.${table}`).get() as { n: number | null }).n ?? 0;
    if (stored) {
      // Full text only: the rows indexed are the rows stored (none added, none deleted since). Between
      // sendStoredRows and here the load's finish writes neither table (it builds indexes, each
      // claim's messages and the counts), so their count and last rowid tell a change apart.
      // And the scratch database attached is the one this worker built, holding every row sent: a
      // failed load's worker still removing the shared scratch path may have left this thread and
      // this worker each a file of its own (then the attached one has no such table).
      const same = (schema: string, table: StoredTable) => {
        try {
          const { n, last } = db.prepare(`SELECT count(*) AS n, COALESCE(max(rowid), 0) AS last FROM ${schema}.${table}`).get() as { n: number; last: number };
          return n === stored[table].count && last === stored[table].last;
        } catch (error) {
          this.failure = `reading ${schema}.${table}: ${error instanceof Error ? error.message : String(error)}`;
          return false;
        }
      };
      if (!STORED_TABLES.every((table) => same('main', table) && same(SCRATCH_SCHEMA, table))) return false;
    } else if (last('facts') !== rows!.facts) return false;
    // FTS5's shadow tables are writable only outside SQLite's defensive mode.
    db.unsafeMode(true);
    try {
      db.transaction(() => {
        if (!stored) copyWorkerTables(db);
        if (!stored && last('episodes') !== rows!.episodes) throw new Error('the episodes did not arrive whole');
        copyFullTextTables(db);
      })();
      return true;
    } catch (error) {
      this.failure = `copying the worker's tables: ${error instanceof Error ? error.message : String(error)}`;
      return false;
    } finally {
      db.unsafeMode(false);
    }
  }

  /**
   * After the load: detaches and removes the scratch database; when it committed, the worker
   * checkpoints the memory's WAL (in the background) and exits, otherwise it just exits.
   */
  finish(committed: { dbPath: string } | null): void {
    let detachFailed: Error | null = null;
    try {
      detachScratch(this.db);
    } catch (error) {
      detachFailed = error instanceof Error ? error : new Error(String(error));
    }
    // Told to end whatever happened above: settled() waits for its exit.
    removeScratch(this.scratchPath);
    if (!this.building) void this.worker.terminate();
    else this.worker.postMessage(committed ? { checkpoint: committed.dbPath } : { close: true });
    if (detachFailed) throw detachFailed;
  }

  private waitForBuild(): boolean {
    const started = performance.now();
    for (;;) {
      const state = Atomics.load(this.state, STATE);
      if (state === BUILT) return true;
      if (state === FAILED) return false;
      const waited = performance.now() - started;
      if (waited > (state === STARTING ? START_TIMEOUT_MS : BUILD_TIMEOUT_MS)) {
        this.failure = `the worker did not finish within ${Math.round(waited / 1000)} s`;
        return false;
      }
      try {
        Atomics.wait(this.state, STATE, state, 100);
      } catch (error) {
        // A thread that may not block (a browser-like main thread): index in this thread instead.
        this.failure = `cannot wait for the worker here: ${error instanceof Error ? error.message : String(error)}`;
        return false;
      }
    }
  }
}

function linksOf(facts: readonly BulkLoadFact[]): [string, string][] {
  const links: [string, string][] = [];
  for (const f of facts) for (const episode of f.episode_ids) links.push([f.id, episode]);
  return links;
}
