/**
 * Bulk indexing of the full-text tables. Insert triggers only queue the new rows (fts_queue);
 * `flushFullText` indexes everything queued with one INSERT … SELECT per table, which FTS5 buffers
 * and writes once. The memory flushes at the end of every write and before every search, so a
 * queued row is never missed. CJK text also gets its bigrams indexed (cjkGrams), computed by a SQL
 * function that every connection registers (registerTextFunctions, with the database: the triggers
 * and migrations call it).
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { mergeSettingsSql } from './fts-merge';

export { cjkGrams, registerTextFunctions } from '../store/database/text-functions';

/** The full-text tables of facts and episodes (entities_fts is written directly by the entity store). */
export const FULL_TEXT_TABLES = ['facts_fts', 'facts_cjk', 'episodes_fts', 'episodes_cjk'] as const;

/**
 * FTS5 writes a segment each time its buffer fills (1 MiB by default) and keeps merging them; with a
 * buffer as large as a whole memory's terms ('bulk', 64 MiB) it writes each index once, a
 * third faster to build. A bulk load sets it, indexes, and sets 'default' again. The merge
 * settings go with it (fts-merge.ts): FTS5's own while loading, none during row-by-row writes after.
 */
export function setFullTextBuffer(db: Database, size: 'bulk' | 'default'): void {
  const bytes = size === 'bulk' ? 64 * 1024 * 1024 : 1024 * 1024;
  for (const table of FULL_TEXT_TABLES) {
    db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ${bytes}); ${mergeSettingsSql(table, size === 'bulk' ? 'bulk' : 'row-by-row')}`);
  }
}

/**
 * Indexes every queued row. Cheap when nothing is queued. IMMEDIATE outside a write: the write lock
 * is waited for at BEGIN, not refused when a read inside the transaction finds another process
 * wrote meanwhile ("database is locked" at once, busy_timeout not consulted).
 */
export function flushFullText(db: Database): void {
  // Asked on every write and every search: prepared once per database, not per call.
  const queued = cachedStatement(db, 'SELECT 1 FROM fts_queue LIMIT 1').get();
  if (!queued) return;
  db.transaction(() => {
    db.exec(factRowsSql("SELECT f.rowid, f.fact, f.predicate FROM fts_queue q JOIN facts f ON f.rowid = q.row WHERE q.kind = 'fact'"));
    db.exec(episodeRowsSql("SELECT e.rowid, e.content FROM fts_queue q JOIN episodes e ON e.rowid = q.row WHERE q.kind = 'episode'"));
    db.exec('DELETE FROM fts_queue');
  }).immediate();
}

/**
 * Indexes every fact and episode at once: for a bulk load into a store whose full-text tables are
 * empty (an import into an empty store, with the queue triggers dropped meanwhile).
 */
export function indexAllFullText(db: Database): void {
  indexAllFacts(db);
  indexAllEpisodes(db);
}

/** The facts' part of indexAllFullText (a bulk-load worker indexes them before the episodes arrive). */
export function indexAllFacts(db: Database): void {
  indexAbove(db, 'facts', ['facts_fts', 'facts_cjk'], (range) => factRowsSql(`SELECT rowid, fact, predicate FROM facts WHERE ${range}`));
}

export function indexAllEpisodes(db: Database): void {
  indexAbove(db, 'episodes', ['episodes_fts', 'episodes_cjk'], (range) => episodeRowsSql(`SELECT rowid, content FROM episodes WHERE ${range}`));
}

/**
 * Indexes every row of `table`, leaving each index as one segment above level 0. Row-by-row writes
 * add their small segments at level 0, and FTS5's crisis merge of a level rewrites every segment on
 * it: an imported index left there would be rewritten whole inside some later one-message write,
 * the 64th after the import with no idle merge between (fts-merge.ts). So the rows go in two
 * halves, flushed apart, and FTS5's `optimize`
 * merges the two into one segment on a new level above them — the rewrite happens here, in the
 * import, instead. (Optimize leaves a single segment where it is, hence the two halves.)
 */
function indexAbove(db: Database, table: string, indexes: readonly string[], rowsSql: (range: string) => string): void {
  const rows = db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  if (rows === 0) return;
  const middle = db.prepare(`SELECT rowid FROM ${table} ORDER BY rowid LIMIT 1 OFFSET ?`).pluck().get(Math.floor(rows / 2)) as number;
  db.exec(rowsSql(`rowid < ${middle}`));
  for (const index of indexes) db.exec(`INSERT INTO ${index} (${index}) VALUES ('flush')`);
  db.exec(rowsSql(`rowid >= ${middle}`));
  for (const index of indexes) db.exec(`INSERT INTO ${index} (${index}) VALUES ('optimize')`);
}

/*
 * The INSERTs that index the facts (rowid, fact, predicate) and episodes (rowid, content) that a
 * SELECT returns. `LIMIT -1` keeps SQLite from flattening the grams subquery into the outer one,
 * which would call tempora_cjk_grams twice for every row with CJK text (for the WHERE, for the value).
 */
function factRowsSql(facts: string): string {
  return `
    INSERT INTO facts_fts (rowid, fact, predicate) ${facts};
    INSERT INTO facts_cjk (rowid, grams)
      SELECT rowid, grams FROM (SELECT rowid, tempora_cjk_grams(fact) AS grams FROM (${facts}) LIMIT -1) WHERE grams <> '';
  `;
}

function episodeRowsSql(episodes: string): string {
  return `
    INSERT INTO episodes_fts (rowid, content) ${episodes};
    INSERT INTO episodes_cjk (rowid, grams)
      SELECT rowid, grams FROM (SELECT rowid, tempora_cjk_grams(content) AS grams FROM (${episodes}) LIMIT -1) WHERE grams <> '';
  `;
}
