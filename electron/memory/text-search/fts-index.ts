/**
 * Bulk indexing of the full-text tables. Insert triggers only queue the new rows (fts_queue);
 * `flushFullText` indexes everything queued with one INSERT … SELECT per table, which FTS5 buffers
 * and writes once. The memory flushes at the end of every write and before every search, so a
 * queued row is never missed. CJK text also gets its bigrams indexed (cjkGrams), computed by a SQL
 * function that every connection registers (registerTextFunctions).
 */
import type { Database } from 'better-sqlite3';
import { mergeSettingsSql } from './fts-merge';

/** CJK by code point (Hiragana, Katakana, CJK ideographs and extensions, Hangul, 々〆ー). */
function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0x3130 && code <= 0x318f) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x20000 && code <= 0x3134f) ||
    code === 0x3005 ||
    code === 0x3006
  );
}

function isHan(code: number): boolean {
  return (code >= 0x3400 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0x20000 && code <= 0x3134f);
}

const MAYBE_CJK = /[\u1100-\u11ff\u3000-\ud7af\uf900-\ufaff\ud840-\ud87f]/;

/**
 * The index terms of CJK runs in `text`: every overlapping pair of characters, and each kanji
 * alone (父, 母 are words). Terms are space-separated for the ascii tokenizer. "" without CJK.
 * Runs on every indexed row, so it works on code points rather than Unicode-property regexes.
 */
export function cjkGrams(text: string): string {
  if (!MAYBE_CJK.test(text)) return '';
  const grams: string[] = [];
  let previous = '';
  for (const char of text.normalize('NFKC')) {
    const code = char.codePointAt(0)!;
    if (!isCjk(code)) {
      previous = '';
      continue;
    }
    if (isHan(code)) grams.push(char);
    if (previous !== '') grams.push(previous + char);
    previous = char;
  }
  return grams.join(' ');
}

export function registerTextFunctions(db: Database): void {
  db.function('tempora_cjk_grams', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? cjkGrams(text) : ''));
}

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

/** Indexes every queued row. Cheap when nothing is queued. */
export function flushFullText(db: Database): void {
  const queued = db.prepare("SELECT 1 FROM fts_queue LIMIT 1").get();
  if (!queued) return;
  db.transaction(() => {
    db.exec(factRowsSql("SELECT f.rowid, f.fact, f.predicate FROM fts_queue q JOIN facts f ON f.rowid = q.row WHERE q.kind = 'fact'"));
    db.exec(episodeRowsSql("SELECT e.rowid, e.content FROM fts_queue q JOIN episodes e ON e.rowid = q.row WHERE q.kind = 'episode'"));
    db.exec('DELETE FROM fts_queue');
  })();
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
  db.exec(factRowsSql('SELECT rowid, fact, predicate FROM facts'));
}

export function indexAllEpisodes(db: Database): void {
  db.exec(episodeRowsSql('SELECT rowid, content FROM episodes'));
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
