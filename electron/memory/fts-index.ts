/**
 * Bulk indexing of the full-text tables. Insert triggers only queue the new rows (fts_queue);
 * `flushFullText` indexes everything queued with one INSERT … SELECT per table, which FTS5 buffers
 * and writes once. The memory flushes at the end of every write and before every search, so a
 * queued row is never missed. CJK text also gets its bigrams indexed (cjkGrams), computed by a SQL
 * function that every connection registers (registerTextFunctions).
 */
import type { Database } from 'better-sqlite3';

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]/u;
const HAN = /\p{Script=Han}/u;

/**
 * The index terms of CJK runs in `text`: every overlapping pair of characters, and each kanji
 * alone (父, 母 are words). Terms are space-separated for the unicode61 tokenizer. "" without CJK.
 */
export function cjkGrams(text: string): string {
  const grams: string[] = [];
  let run: string[] = [];
  const flush = () => {
    for (let i = 0; i < run.length; i++) {
      if (HAN.test(run[i]!)) grams.push(run[i]!);
      if (i + 1 < run.length) grams.push(run[i]! + run[i + 1]!);
    }
    run = [];
  };
  for (const char of text.normalize('NFKC')) {
    if (CJK_CHAR.test(char)) run.push(char);
    else flush();
  }
  flush();
  return grams.join(' ');
}

export function registerTextFunctions(db: Database): void {
  db.function('tempora_cjk_grams', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? cjkGrams(text) : ''));
}

/** Indexes every queued row. Cheap when nothing is queued. */
export function flushFullText(db: Database): void {
  const queued = db.prepare("SELECT 1 FROM fts_queue LIMIT 1").get();
  if (!queued) return;
  db.transaction(() => {
    db.exec(`
      INSERT INTO facts_fts (rowid, fact, predicate)
        SELECT f.rowid, f.fact, f.predicate FROM fts_queue q JOIN facts f ON f.rowid = q.row WHERE q.kind = 'fact';
      INSERT INTO facts_cjk (rowid, grams)
        SELECT f.rowid, tempora_cjk_grams(f.fact) FROM fts_queue q JOIN facts f ON f.rowid = q.row WHERE q.kind = 'fact' AND tempora_cjk_grams(f.fact) <> '';
      INSERT INTO episodes_fts (rowid, content)
        SELECT e.rowid, e.content FROM fts_queue q JOIN episodes e ON e.rowid = q.row WHERE q.kind = 'episode';
      INSERT INTO episodes_cjk (rowid, grams)
        SELECT e.rowid, tempora_cjk_grams(e.content) FROM fts_queue q JOIN episodes e ON e.rowid = q.row WHERE q.kind = 'episode' AND tempora_cjk_grams(e.content) <> '';
      DELETE FROM fts_queue;
    `);
  })();
}
