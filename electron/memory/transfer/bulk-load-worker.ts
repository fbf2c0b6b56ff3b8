/**
 * The worker thread of a large bulk load (bulk-load-helper.ts), on the machine's other core:
 *
 * 1. while the main thread writes entities, facts and claims, builds the episodes and fact_episodes
 *    tables and the full-text indexes of facts and episodes in a scratch database, with the memory's
 *    own CREATE statements and the same indexing SQL (fts-index.ts); the main thread then copies
 *    the finished tables in. The rows come in batches as the main thread reads them from the
 *    document, so the episodes are written here while the main thread writes facts. For a first
 *    sync it builds only the full text, of the rows the main thread has written, while that thread
 *    builds the other indexes and the counts;
 * 2. once the import has committed, checkpoints the memory's WAL (SQLite's "checkpoint in a separate
 *    thread"), so the import returns without copying its pages into the database file first. Started
 *    with `checkpoint` instead of `start`, it does only this (background-checkpoint.ts).
 *
 * Progress goes through a shared Int32Array (the main thread waits synchronously, inside its
 * transaction); every failure ends in FAILED with the message posted, never in silence.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { BUILDING, BUILT, FAILED, READY, SCRATCH_MMAP_BYTES, STATE, TAKEN, forEachRow, type BulkLoadMessage, type BulkLoadSchema, type BulkLoadStart, type PackedRows } from './bulk-load-protocol';
import { sqliteBinding } from '../store/database/sqlite-binding';
import { indexAllEpisodes, indexAllFacts, registerTextFunctions, setFullTextBuffer } from '../text-search/fts-index';

function openDatabase(path: string, nativeBinding: string | undefined): Database.Database {
  const binding = sqliteBinding(nativeBinding);
  return new Database(path, binding ? { nativeBinding: binding } : {});
}

/**
 * The scratch database, built in one transaction over the batches of rows as they come (episodes,
 * then facts with their links), then indexed once the last has come. Full text only, it holds just
 * what the full-text indexes read (content='episodes', content='facts'), at the main thread's rowids.
 */
class Scratch {
  readonly db: Database.Database;
  private readonly insertEpisode: Database.Statement;
  private readonly insertFact: Database.Statement;
  /** Null when full text only (no fact_episodes here). */
  private readonly insertLink: Database.Statement | null;
  private episodes = 0;
  private facts = 0;

  constructor(
    start: BulkLoadStart,
    private readonly schema: BulkLoadSchema,
  ) {
    const db = (this.db = openDatabase(start.scratchPath, start.nativeBinding));
    try {
      // Scratch: it is thrown away after the main thread has copied the tables.
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.pragma('foreign_keys = OFF');
      db.pragma(`mmap_size = ${SCRATCH_MMAP_BYTES}`);
      registerTextFunctions(db);
      // What the full-text index of facts reads (content='facts'): the main thread writes the facts.
      db.exec('CREATE TABLE facts (fact TEXT, predicate TEXT)');
      // Full text only, the same for episodes: the main thread writes them too.
      if (schema.fullTextOnly) db.exec('CREATE TABLE episodes (content TEXT)');
      for (const sql of schema.tables) db.exec(sql);
      db.exec('BEGIN');
      this.insertEpisode = schema.fullTextOnly
        ? db.prepare('INSERT INTO episodes (rowid, content) VALUES (?, ?)')
        : db.prepare('INSERT INTO episodes (rowid, id, conversation_id, role, content, reference_time, created_at, utc_offset, time_zone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      this.insertFact = db.prepare('INSERT INTO facts (rowid, fact, predicate) VALUES (?, ?, ?)');
      this.insertLink = schema.fullTextOnly ? null : db.prepare('INSERT OR IGNORE INTO fact_episodes (fact_id, episode_id) VALUES (?, ?)');
    } catch (error) {
      db.close();
      throw error;
    }
  }

  addEpisodes(rows: PackedRows): void {
    forEachRow(rows, (v) => this.insertEpisode.run(++this.episodes, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]));
  }

  addFacts(facts: PackedRows, links: PackedRows): void {
    forEachRow(facts, (v) => this.insertFact.run(++this.facts, v[0], v[1]));
    forEachRow(links, (v) => this.insertLink!.run(v[0], v[1]));
  }

  /** Full text only: rows with the rowids they have in the main thread's table. */
  addStored(table: 'episodes' | 'facts', rows: PackedRows): void {
    const insert = table === 'episodes' ? this.insertEpisode : this.insertFact;
    forEachRow(rows, (v) => insert.run(Number(v[0]), ...v.slice(1)));
  }

  build(): void {
    const { db } = this;
    for (const sql of this.schema.indexes) db.exec(sql);
    setFullTextBuffer(db, 'bulk');
    indexAllFacts(db);
    indexAllEpisodes(db);
    setFullTextBuffer(db, 'default');
    db.exec('COMMIT');
  }
}

/** Checkpoint passes at most: the app keeps writing while they run (each copies only what is new). */
const MAX_CHECKPOINT_PASSES = 5;

function checkpoint(path: string, nativeBinding: string | undefined): void {
  const db = openDatabase(path, nativeBinding);
  try {
    db.pragma('busy_timeout = 5000');
    // PASSIVE: copies what it can without blocking the app's readers or writers. SQLite syncs the
    // database file only after a pass during which the WAL did not grow; the app's own writes after
    // the import (a few thousand frames at 1M) grow it during the first pass, and the app's next
    // checkpoint — inside its first commit past 1,000 WAL pages — then flushed the import's
    // gigabytes itself: 1.4 s in a one-message write at 1M (docs/benchmarks.md). So passes repeat
    // until one finds the WAL as the one before left it.
    let frames = -1;
    for (let pass = 0; pass < MAX_CHECKPOINT_PASSES; pass++) {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      if (!result || result.log === frames) break;
      frames = result.log;
    }
  } finally {
    db.close();
  }
}

function run(start: BulkLoadStart): void {
  const state = new Int32Array(start.state);
  const set = (value: number) => {
    Atomics.store(state, STATE, value);
    Atomics.notify(state, STATE);
  };
  const port = parentPort!;
  const report = (what: string, error: unknown) => port.postMessage({ error: `${what}: ${error instanceof Error ? error.message : String(error)}` });
  let scratch: Scratch | null = null;
  const fail = (error: unknown) => {
    scratch?.db.close();
    scratch = null;
    report('build', error);
    set(FAILED);
  };
  set(READY);
  const taken = () => {
    Atomics.add(state, TAKEN, 1);
    Atomics.notify(state, TAKEN);
  };
  let failed = false;
  port.on('message', (message: BulkLoadMessage) => {
    const rows = 'episodes' in message || 'facts' in message || 'stored' in message;
    if ('schema' in message || rows || 'end' in message) {
      // After a failure the rest of the rows are only counted (the main thread stops waiting on FAILED).
      if (!failed) {
        try {
          if ('schema' in message) {
            set(BUILDING);
            scratch = new Scratch(start, message.schema);
          } else if ('episodes' in message) scratch!.addEpisodes(message.episodes);
          else if ('facts' in message) scratch!.addFacts(message.facts, message.links);
          else if ('stored' in message) scratch!.addStored(message.stored, message.rows);
          else {
            scratch!.build();
            scratch!.db.close();
            scratch = null;
            set(BUILT);
          }
        } catch (error) {
          failed = true;
          fail(error);
        }
      }
      if (rows) taken();
      return;
    }
    // The load is over and the main thread has detached the scratch database.
    scratch?.db.close();
    for (const file of [start.scratchPath, `${start.scratchPath}-journal`]) rmSync(file, { force: true });
    if ('checkpoint' in message) {
      try {
        checkpoint(message.checkpoint, start.nativeBinding);
      } catch (error) {
        report('checkpoint', error);
      }
    }
    port.close();
  });
}

const data = workerData as { start?: BulkLoadStart; checkpoint?: { path: string; nativeBinding?: string } } | null;
if (parentPort && data?.start) run(data.start);
else if (parentPort && data?.checkpoint) {
  // A checkpoint alone (background-checkpoint.ts): after a first sync's one write.
  try {
    checkpoint(data.checkpoint.path, data.checkpoint.nativeBinding);
  } catch (error) {
    parentPort.postMessage({ error: `checkpoint: ${error instanceof Error ? error.message : String(error)}` });
  }
}
