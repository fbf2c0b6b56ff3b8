/**
 * The worker thread of a large bulk load (bulk-load-helper.ts), on the machine's other core:
 *
 * 1. while the main thread writes entities, facts and claims, builds the episodes and fact_episodes
 *    tables and the full-text indexes of facts and episodes in a scratch database, with the memory's
 *    own CREATE statements and the same indexing SQL (fts-index.ts); the main thread then copies
 *    the finished tables in;
 * 2. once the import has committed, checkpoints the memory's WAL (SQLite's "checkpoint in a separate
 *    thread"), so the import returns without copying its pages into the database file first.
 *
 * Progress goes through a shared Int32Array (the main thread waits synchronously, inside its
 * transaction); every failure ends in FAILED with the message posted, never in silence.
 */
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { BUILDING, BUILT, FAILED, READY, STATE, forEachRow, type BulkLoadMessage, type BulkLoadRows, type BulkLoadStart } from './bulk-load-protocol';
import { indexAllFullText, registerTextFunctions, setFullTextBuffer } from './fts-index';

function openDatabase(path: string, nativeBinding: string | undefined): Database.Database {
  return new Database(path, nativeBinding ? { nativeBinding } : {});
}

function build(start: BulkLoadStart, rows: BulkLoadRows): void {
  const db = openDatabase(start.scratchPath, start.nativeBinding);
  try {
    // Scratch: it is thrown away after the main thread has copied the tables.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('foreign_keys = OFF');
    registerTextFunctions(db);
    // What the full-text index of facts reads (content='facts'): the main thread writes the facts.
    db.exec('CREATE TABLE facts (fact TEXT, predicate TEXT)');
    for (const sql of rows.schema.tables) db.exec(sql);
    db.transaction(() => {
      const fact = db.prepare('INSERT INTO facts (rowid, fact, predicate) VALUES (?, ?, ?)');
      let rowid = 0;
      forEachRow(rows.facts, (v) => fact.run(++rowid, v[0], v[1]));
      const episode = db.prepare('INSERT INTO episodes (rowid, id, conversation_id, role, content, reference_time, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
      rowid = 0;
      forEachRow(rows.episodes, (v) => episode.run(++rowid, v[0], v[1], v[2], v[3], v[4], v[5]));
      const link = db.prepare('INSERT OR IGNORE INTO fact_episodes (fact_id, episode_id) VALUES (?, ?)');
      forEachRow(rows.links, (v) => link.run(v[0], v[1]));
      for (const sql of rows.schema.indexes) db.exec(sql);
      setFullTextBuffer(db, 'bulk');
      indexAllFullText(db);
      setFullTextBuffer(db, 'default');
    })();
  } finally {
    db.close();
  }
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
  set(READY);
  port.on('message', (message: BulkLoadMessage) => {
    if ('load' in message) {
      set(BUILDING);
      try {
        build(start, message.load);
        set(BUILT);
      } catch (error) {
        report('build', error);
        set(FAILED);
      }
      return;
    }
    // The load is over and the main thread has detached the scratch database.
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
