/**
 * The worker thread of a large bulk load (bulk-load-helper.ts), on the machine's other core:
 *
 * 1. while the main thread writes entities, facts and claims, builds the episodes and fact_episodes
 *    tables and the full-text indexes of facts and episodes in a scratch database, with the memory's
 *    own CREATE statements and the same indexing SQL (fts-index.ts); the main thread then copies
 *    the finished tables in. The rows come in two messages, so the facts' full text is under way
 *    while the main thread still packs the episodes;
 * 2. once the import has committed, checkpoints the memory's WAL (SQLite's "checkpoint in a separate
 *    thread"), so the import returns without copying its pages into the database file first.
 *
 * Progress goes through a shared Int32Array (the main thread waits synchronously, inside its
 * transaction); every failure ends in FAILED with the message posted, never in silence.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { BUILDING, BUILT, FAILED, READY, SCRATCH_MMAP_BYTES, STATE, forEachRow, type BulkLoadEpisodes, type BulkLoadFacts, type BulkLoadMessage, type BulkLoadStart } from './bulk-load-protocol';
import { sqliteBinding } from '../store/database/sqlite-binding';
import { indexAllEpisodes, indexAllFacts, registerTextFunctions, setFullTextBuffer } from '../text-search/fts-index';

function openDatabase(path: string, nativeBinding: string | undefined): Database.Database {
  const binding = sqliteBinding(nativeBinding);
  return new Database(path, binding ? { nativeBinding: binding } : {});
}

/**
 * The scratch database, built in one transaction over the two parts of the rows: the facts' full
 * text from the first while the main thread packs the second, then episodes, links and their full text.
 */
interface Scratch {
  db: Database.Database;
  /** The secondary indexes of episodes and fact_episodes, built after their rows. */
  indexes: string[];
}

function buildFacts(start: BulkLoadStart, part: BulkLoadFacts): Scratch {
  const db = openDatabase(start.scratchPath, start.nativeBinding);
  try {
    // Scratch: it is thrown away after the main thread has copied the tables.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    db.pragma(`mmap_size = ${SCRATCH_MMAP_BYTES}`);
    registerTextFunctions(db);
    // What the full-text index of facts reads (content='facts'): the main thread writes the facts.
    db.exec('CREATE TABLE facts (fact TEXT, predicate TEXT)');
    for (const sql of part.schema.tables) db.exec(sql);
    db.exec('BEGIN');
    const fact = db.prepare('INSERT INTO facts (rowid, fact, predicate) VALUES (?, ?, ?)');
    let rowid = 0;
    forEachRow(part.facts, (v) => fact.run(++rowid, v[0], v[1]));
    setFullTextBuffer(db, 'bulk');
    indexAllFacts(db);
    return { db, indexes: part.schema.indexes };
  } catch (error) {
    db.close();
    throw error;
  }
}

function buildEpisodes({ db, indexes }: Scratch, part: BulkLoadEpisodes): void {
  const episode = db.prepare('INSERT INTO episodes (rowid, id, conversation_id, role, content, reference_time, created_at, utc_offset, time_zone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
  let rowid = 0;
  forEachRow(part.episodes, (v) => episode.run(++rowid, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]));
  const link = db.prepare('INSERT OR IGNORE INTO fact_episodes (fact_id, episode_id) VALUES (?, ?)');
  forEachRow(part.links, (v) => link.run(v[0], v[1]));
  for (const sql of indexes) db.exec(sql);
  indexAllEpisodes(db);
  setFullTextBuffer(db, 'default');
  db.exec('COMMIT');
}

function checkpoint(path: string, nativeBinding: string | undefined): void {
  const db = openDatabase(path, nativeBinding);
  try {
    db.pragma('busy_timeout = 5000');
    // PASSIVE: copies what it can without blocking the app's readers or writers.
    db.pragma('wal_checkpoint(PASSIVE)');
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
  port.on('message', (message: BulkLoadMessage) => {
    if ('load' in message) {
      set(BUILDING);
      try {
        scratch = buildFacts(start, message.load);
      } catch (error) {
        fail(error);
      }
      return;
    }
    if ('episodes' in message) {
      if (!scratch) return; // the first part failed: FAILED is set
      try {
        buildEpisodes(scratch, message.episodes);
        scratch.db.close();
        scratch = null;
        set(BUILT);
      } catch (error) {
        fail(error);
      }
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

const data = workerData as { start?: BulkLoadStart } | null;
if (parentPort && data?.start) run(data.start);
