/**
 * How the full-text indexes merge their segments. FTS5 writes one new segment (b-tree) per table
 * each time a write's buffered terms are flushed — for the memory, once per write that touched the
 * table — and by default merges them during the writes themselves: `automerge` (4 segments of a
 * level) does incremental work on every write, and a `crisismerge` (16 of a level) merges a whole
 * level at once. On a large memory the level holding the segment a bulk import built gets pulled
 * in, and a single-message write takes hundreds of times longer than usual (test/bench/fts-merges.ts
 * measures it; figures in docs/benchmarks.md).
 *
 * So the tables written row by row do not merge during writes (automerge 0); the memory merges them
 * while idle, in small bounded steps (fts-idle-merge.ts), with FTS5's own 'merge' command. The
 * settings live in each table's %_config, and are applied when a store is opened for writing.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';

/**
 * Every FTS5 table the memory writes row by row: FULL_TEXT_TABLES of fts-index.ts (facts and
 * episodes, trigram and CJK bigram; listed here too, as fts-index.ts imports this file) and entity
 * names. A test checks that this is every FTS5 table of a migrated store.
 */
export const MERGED_TABLES = ['facts_fts', 'facts_cjk', 'episodes_fts', 'episodes_cjk', 'entities_fts'] as const;
export type MergedTable = (typeof MERGED_TABLES)[number];

/** No merge work inside a write: idle time does it (fts-idle-merge.ts). */
export const ROW_BY_ROW_AUTOMERGE = 0;

/**
 * A level's segment count at which FTS5 merges that level inside the write that reached it, even
 * with automerge off. Idle merges keep levels far below it; it bounds a process that never idles
 * (a tight loop of writes, or `tempora` commands killed before close). Why 64 and not 2000:
 * - FTS5 refuses a write once an index holds 2000 segments over all its levels (SQLITE_FULL, "database
 *   or disk is full"), and clamps crisismerge to 1999 — so a cap that high bounds nothing in practice;
 *   at 64 a level holds at most 64 and ~4 levels cover a million writes: a few hundred at worst.
 * - Every segment is one more b-tree that each query term seeks: dozens of tiny ones are cheap
 *   beside the import's large one, thousands are not.
 * - A crisis merge of 64 segments of a few messages each takes milliseconds; it is slow only when the
 *   level also holds an import's large segment (the 64th write after an import with no idle time
 *   between), and that segment then moves up a level, out of the next 4,000 writes' way.
 */
export const ROW_BY_ROW_CRISISMERGE = 64;

/**
 * Leaf pages a merge step writes (FTS5 pages are ~4 KB); a write or a search arriving meanwhile waits
 * for at most one step. Half FTS5's automerge work unit (64) halves the longest wait for about the
 * same total merging (test/bench/fts-merges.ts; figures in docs/benchmarks.md).
 */
export const MERGE_STEP_PAGES = 32;

const SETTINGS = { automerge: ROW_BY_ROW_AUTOMERGE, crisismerge: ROW_BY_ROW_CRISISMERGE } as const;
/** FTS5's defaults: a bulk load (one large buffer, few flushes) merges as it goes, as it always did. */
const BULK_SETTINGS = { automerge: 4, crisismerge: 16 } as const;

/**
 * The statements that set `table`'s merge settings, for a bulk load ('bulk') or for row-by-row
 * writes; fts-index.ts setFullTextBuffer runs them with the buffer size, so a bulk load — whose
 * worker's %_config is copied over the memory's (transfer/bulk-load-helper.ts) — ends with the
 * row-by-row settings in place.
 */
export function mergeSettingsSql(table: string, mode: 'bulk' | 'row-by-row'): string {
  return Object.entries(mode === 'bulk' ? BULK_SETTINGS : SETTINGS)
    .map(([key, value]) => `INSERT INTO ${table} (${table}, rank) VALUES ('${key}', ${value});`)
    .join('\n');
}

/**
 * Puts the row-by-row merge settings in every table's %_config, writing only what differs (a store
 * opened again reads two rows per table and writes nothing). FTS5's special commands take literal
 * values, not bound parameters.
 */
export function applyMergeSettings(db: Database, tables: readonly string[] = MERGED_TABLES): void {
  const stale = tables.flatMap((table) => {
    const rows = db.prepare(`SELECT k, v FROM ${table}_config WHERE k IN ('automerge', 'crisismerge')`).all() as { k: string; v: unknown }[];
    return Object.entries(SETTINGS).every(([key, value]) => rows.some((r) => r.k === key && Number(r.v) === value)) ? [] : [table];
  });
  if (!stale.length) return;
  db.transaction(() => {
    for (const table of new Set(stale)) db.exec(mergeSettingsSql(table, 'row-by-row'));
  }).immediate();
}

/**
 * One bounded merge step on `table` (up to `pages` leaf pages written), in its own transaction. A
 * positive 'merge' merges only a level holding `usermerge` (4) segments or more, or one whose merge
 * is under way — the same levels automerge would — so repeated steps keep ~3 segments per level at
 * most. Per FTS5's documentation the step did nothing when total_changes() rose by fewer than 2:
 * false then, and stepping again is pointless until the table is next written.
 */
export function mergeStep(db: Database, table: MergedTable, pages: number = MERGE_STEP_PAGES): boolean {
  const total = cachedStatement(db, 'SELECT total_changes() AS n');
  const before = (total.get() as { n: number }).n;
  cachedStatement(db, `INSERT INTO ${table} (${table}, rank) VALUES ('merge', ${Math.trunc(pages)})`).run();
  return (total.get() as { n: number }).n - before >= 2;
}

/** How many segments `table`'s index holds now: each has at least one row in %_idx. */
export function segmentCount(db: Database, table: MergedTable): number {
  return (db.prepare(`SELECT count(DISTINCT segid) AS n FROM ${table}_idx`).get() as { n: number }).n;
}
