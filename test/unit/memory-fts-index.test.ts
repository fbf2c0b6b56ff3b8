import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { cjkGrams, flushFullText, indexAllFullText, registerTextFunctions } from '../../electron/memory/text-search/fts-index';
import { registerNaturalOrder } from '../../electron/memory/store/natural-order';

const T = '2026-01-01T00:00:00.000Z';
const TEXTS = ['近藤さんはラーメンが好きです。', 'Peter lives in Austin.', '経理を担当しています。', 'Ann likes tea.'];

/** A migrated store whose grams function counts its calls. */
function store() {
  const db = new Database(':memory:');
  registerTextFunctions(db);
  registerNaturalOrder(db); // as every connection does (open-database.ts): the timeline's triggers call it
  migrate(db);
  const calls = { n: 0 };
  db.function('tempora_cjk_grams', { deterministic: true }, (text: unknown) => {
    calls.n++;
    return typeof text === 'string' ? cjkGrams(text) : '';
  });
  db.exec(`INSERT INTO entities (id, name, normalized_name, type, created_at) VALUES ('ent_a', 'A', 'a', 'person', '${T}')`);
  const fact = db.prepare(`INSERT INTO facts (id, lineage_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, end_kind, reference_time, created_at, origin)
    VALUES (?, ?, 'ent_a', 'says', 'x', ?, 'many', '${T}', 'open', '${T}', '${T}', 'observed')`);
  const episode = db.prepare(`INSERT INTO episodes (id, conversation_id, role, content, reference_time, created_at) VALUES (?, NULL, 'user', ?, '${T}', '${T}')`);
  const write = () => TEXTS.forEach((text, i) => {
    fact.run(`fct_${i}`, `fct_${i}`, text);
    episode.run(`epi_${i}`, text);
  });
  const matches = (table: string, query: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${table} MATCH ?`).get(query) as { n: number }).n;
  const rows = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}_docsize`).get() as { n: number }).n;
  return { db, calls, write, matches, rows };
}

describe('full-text indexing', () => {
  it('indexes a bulk load computing each row’s CJK grams once, and only rows with CJK text in the *_cjk tables', () => {
    const s = store();
    s.db.exec('DROP TRIGGER facts_fts_insert; DROP TRIGGER episodes_fts_insert');
    s.write();
    indexAllFullText(s.db);
    expect(s.calls.n).toBe(2 * TEXTS.length); // a flattened subquery called it again for every row it kept
    expect([s.rows('facts_cjk'), s.rows('episodes_cjk'), s.rows('facts_fts'), s.rows('episodes_fts')]).toEqual([2, 2, 4, 4]);
    expect([s.matches('facts_cjk', '"担当"'), s.matches('episodes_cjk', '"好き"'), s.matches('facts_fts', '"Austin"'), s.matches('episodes_fts', '"ラーメン"')]).toEqual([1, 1, 1, 1]);
  });

  it('indexes queued rows the same way when a write is flushed', () => {
    const s = store();
    s.write();
    expect(s.rows('facts_cjk')).toBe(0);
    flushFullText(s.db);
    expect(s.calls.n).toBe(2 * TEXTS.length);
    expect([s.matches('facts_cjk', '"担当"'), s.matches('episodes_fts', '"Peter"')]).toEqual([1, 1]);
    expect(s.db.prepare('SELECT COUNT(*) AS n FROM fts_queue').get()).toEqual({ n: 0 });
  });
});

describe('migration 0007 (ascii tokenizer for the CJK indexes)', () => {
  it('rebuilds the CJK indexes of a stored memory with the same rows findable, leaving queued rows to the next flush', () => {
    const db = new Database(':memory:');
    registerTextFunctions(db);
    migrate(db, migrations.slice(0, 6));
    db.exec(`INSERT INTO entities (id, name, normalized_name, type, created_at) VALUES ('ent_a', 'A', 'a', 'person', '${T}')`);
    const fact = db.prepare(`INSERT INTO facts (id, lineage_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, end_kind, reference_time, created_at, origin)
      VALUES (?, ?, 'ent_a', 'says', 'x', ?, 'many', '${T}', 'open', '${T}', '${T}', 'observed')`);
    TEXTS.forEach((text, i) => fact.run(`fct_${i}`, `fct_${i}`, text));
    flushFullText(db);
    fact.run('fct_queued', 'fct_queued', 'ジョン・スミスさんは東京に住んでいます。'); // queued, not indexed yet
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count("SELECT COUNT(*) AS n FROM facts_cjk WHERE facts_cjk MATCH '\"担当\"'")).toBe(1);

    expect(migrate(db)).toEqual({ from: 6, to: migrations.length });
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'facts_cjk'").pluck().get()).toContain("tokenize='ascii'");
    expect(count('SELECT COUNT(*) AS n FROM facts_cjk_docsize')).toBe(2); // the queued row waits for the flush
    flushFullText(db);
    expect(count('SELECT COUNT(*) AS n FROM facts_cjk_docsize')).toBe(3);
    for (const [query, n] of [['"担当"', 1], ['"好き"', 1], ['"東京"', 1], ['"ン・" "・ス"', 1], ['"さん"', 2]] as const) {
      expect(count(`SELECT COUNT(*) AS n FROM facts_cjk WHERE facts_cjk MATCH '${query}'`), query).toBe(n);
    }
    db.exec("INSERT INTO facts_cjk (facts_cjk) VALUES ('integrity-check')");
    // forgetting a fact still removes its terms (contentless_delete)
    db.prepare("DELETE FROM facts WHERE id = 'fct_2'").run();
    expect(count("SELECT COUNT(*) AS n FROM facts_cjk WHERE facts_cjk MATCH '\"担当\"'")).toBe(0);
  });
});
