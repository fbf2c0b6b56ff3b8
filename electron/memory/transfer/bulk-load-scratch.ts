/**
 * The bulk-load worker's scratch database as the main thread sees it (bulk-load-helper.ts): attached
 * to the memory's connection for the load, its finished tables copied into the memory inside the
 * load's transaction, then detached and removed.
 *
 * Copying the full-text tables: each is dropped and re-created from its stored SQL (FTS5 forgets any
 * cached state), then its shadow tables (_data, _idx, _docsize, _config) are copied from the scratch
 * tables, which the same SQLite library built from the same CREATE statement and the same indexing
 * SQL.
 */
import type { Database } from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { SCRATCH_MMAP_BYTES } from './bulk-load-protocol';
import { FULL_TEXT_TABLES } from '../text-search/fts-index';

export const SCRATCH_SCHEMA = 'bulk_scratch';
const SHADOW_SUFFIXES = ['data', 'idx', 'content', 'docsize', 'config'];

/** The tables the worker fills in a whole-memory import; the main thread writes neither while it works. */
export const WORKER_TABLES = ['episodes', 'fact_episodes'];

/** Attaches the scratch database at `path` (outside a transaction); false if it cannot. */
export function attachScratch(db: Database, path: string): boolean {
  try {
    db.prepare(`ATTACH DATABASE ? AS ${SCRATCH_SCHEMA}`).run(path);
  } catch {
    return false;
  }
  db.pragma(`${SCRATCH_SCHEMA}.mmap_size = ${SCRATCH_MMAP_BYTES}`);
  return true;
}

export function detachScratch(db: Database): void {
  db.exec(`DETACH DATABASE ${SCRATCH_SCHEMA}`);
}

/**
 * Copies the worker's episodes and fact_episodes in. Same CREATE statements on both sides and empty
 * tables here: SQLite copies the rows and index entries in order instead of inserting them one by one.
 */
export function copyWorkerTables(db: Database): void {
  for (const table of WORKER_TABLES) db.exec(`INSERT INTO main.${table} SELECT * FROM ${SCRATCH_SCHEMA}.${table}`);
}

/** Replaces the memory's full-text tables by the worker's (inside a transaction, outside SQLite's defensive mode). */
export function copyFullTextTables(db: Database): void {
  for (const table of FULL_TEXT_TABLES) {
    const sql = storedSql(db, table);
    db.exec(`DROP TABLE main.${table}`);
    db.exec(sql);
    for (const suffix of SHADOW_SUFFIXES) {
      const shadow = `${table}_${suffix}`;
      if (!hasTable(db, 'main', shadow)) continue;
      if (!hasTable(db, SCRATCH_SCHEMA, shadow)) throw new Error(`the scratch database has no ${shadow}`);
      db.exec(`DELETE FROM main.${shadow}; INSERT INTO main.${shadow} SELECT * FROM ${SCRATCH_SCHEMA}.${shadow}`);
    }
  }
}

/** The memory's CREATE statement of table `name`. */
export function storedSql(db: Database, name: string): string {
  const row = db.prepare<[string], { sql: string }>("SELECT sql FROM main.sqlite_master WHERE name = ? AND type = 'table'").get(name);
  if (!row) throw new Error(`no table ${name} in the memory's schema`);
  return row.sql;
}

function hasTable(db: Database, schema: string, name: string): boolean {
  return db.prepare<[string], { n: number }>(`SELECT count(*) AS n FROM ${schema}.sqlite_master WHERE type = 'table' AND name = ?`).get(name)!.n > 0;
}

/** Best effort: the worker removes it too once told the load is over (it may still hold it open). */
export function removeScratch(path: string): void {
  for (const file of [path, `${path}-journal`]) {
    try {
      rmSync(file, { force: true });
    } catch {
      // still open in the worker (Windows): the worker removes it when it is done
    }
  }
}
