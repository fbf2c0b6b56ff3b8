/**
 * Reading facts on the two time axes.
 * - valid time: `asOf` T keeps facts true at T (valid_at ≤ T < invalid_at);
 * - system time: `knownAt` T keeps versions the memory held at T (created_at ≤ T < expired_at).
 * Each axis defaults to now, so no options means the current facts; `history` lifts both defaults
 * (every version, closed or expired), while an explicit asOf/knownAt still applies.
 */
import type { Database } from 'better-sqlite3';
import type { FactRecord } from '../../../shared/memory-schema';
import { cachedStatement } from '../store/database/statement-cache';
import { FACT_RECORD_FROM, FACT_RECORD_SELECT, toFactRecord } from '../store/fact-rows';
import { ftsString } from '../store/normalize';
import type { IsoTime } from '../../../shared/time';

export interface FactQuery {
  asOf?: IsoTime;
  knownAt?: IsoTime;
  /** Entity id of the subject. */
  subjectId?: string;
  predicate?: string;
  /** Entity id appearing as subject or object. */
  entityId?: string;
  /** Only facts whose ids are in this list. */
  ids?: string[];
  /** Words the sentence or predicate must all contain (any script; through the full-text indexes). */
  text?: string;
  /** Valid time overlapping [from, to): valid_at < to and (open or invalid_at > from). */
  overlapping?: { from: IsoTime; to: IsoTime };
  history?: boolean;
  /** Newest valid time first (history lists show the latest versions on top). */
  newestFirst?: boolean;
  limit?: number;
  offset?: number;
}

export interface SqlFilter {
  where: string[];
  params: Record<string, string | number>;
}

/** The WHERE terms (over alias `f`) for a query's time axes and filters. */
export function factFilter(query: FactQuery, now: IsoTime): SqlFilter {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  const asOf = query.asOf ?? (query.history ? undefined : now);
  if (asOf !== undefined) {
    where.push('f.valid_at <= @asOf AND (f.invalid_at IS NULL OR f.invalid_at > @asOf)');
    params.asOf = asOf;
  }
  if (query.knownAt !== undefined) {
    where.push('f.created_at <= @knownAt AND (f.expired_at IS NULL OR f.expired_at > @knownAt)');
    params.knownAt = query.knownAt;
  } else if (!query.history) {
    where.push('f.expired_at IS NULL');
  }
  if (query.subjectId !== undefined) {
    where.push('f.subject_id = @subjectId');
    params.subjectId = query.subjectId;
  }
  if (query.predicate !== undefined) {
    where.push('f.predicate = @predicate');
    params.predicate = query.predicate;
  }
  if (query.entityId !== undefined) {
    where.push('(f.subject_id = @entityId OR f.object_id = @entityId)');
    params.entityId = query.entityId;
  }
  if (query.ids !== undefined) {
    where.push(`f.id IN (SELECT value FROM json_each(@ids))`);
    params.ids = JSON.stringify(query.ids);
  }
  if (query.overlapping !== undefined) {
    where.push('f.valid_at < @overlapTo AND (f.invalid_at IS NULL OR f.invalid_at > @overlapFrom)');
    params.overlapFrom = query.overlapping.from;
    params.overlapTo = query.overlapping.to;
  }
  textWords(query.text).forEach((word, i) => {
    where.push(textTerm(word, `text${i}`));
    params[`text${i}`] = isIndexed(word) ? ftsString(word) : `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  });
  return { where, params };
}

/** The words of a text filter, folded as the indexes fold them (NFKC, lower case). */
export function textWords(text: string | undefined): string[] {
  return [...new Set((text ?? '').normalize('NFKC').toLowerCase().split(/\s+/).filter((w) => w !== ''))].slice(0, 8);
}

const ALL_CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}々〆ー]+$/u;
const HAN = /^\p{Script=Han}$/u;
/** A term of the CJK pair index: two CJK characters, or one kanji (see fts-index.ts cjkGrams). */
const isCjkGram = (word: string) => ALL_CJK.test(word) && ([...word].length === 2 || HAN.test(word));
const isIndexed = (word: string) => [...word].length >= 3 || isCjkGram(word);

/**
 * One word of a text filter: 3+ characters through the trigram index (a phrase of trigrams is a
 * substring match), 1–2 CJK characters through the CJK pair index (the pair, or the kanji alone,
 * is a term), anything shorter by LIKE over the rows the other terms left.
 */
function textTerm(word: string, param: string): string {
  if ([...word].length >= 3) return `f.rowid IN (SELECT rowid FROM facts_fts WHERE facts_fts MATCH @${param})`;
  if (isCjkGram(word)) return `f.rowid IN (SELECT rowid FROM facts_cjk WHERE facts_cjk MATCH @${param})`;
  return `(f.fact LIKE @${param} ESCAPE '\\' OR f.predicate LIKE @${param} ESCAPE '\\')`;
}

export function queryFacts(db: Database, query: FactQuery, now: IsoTime): FactRecord[] {
  if (query.ids !== undefined && query.ids.length === 0) return [];
  const { where, params } = factFilter(query, now);
  const limit = query.limit ?? -1;
  const offset = query.offset ?? 0;
  const order = query.newestFirst ? 'f.valid_at DESC, f.created_at DESC, f.id DESC' : 'f.valid_at, f.created_at, f.id';
  // Every version, no other filter: a range over valid_at (always true) walks facts_by_valid_at in
  // the page's order, so the page stops at its limit instead of sorting the whole table.
  const unfiltered = where.length === 0 || (query.asOf === undefined && query.history === true && Object.keys(params).every((p) => p === 'knownAt'));
  if (unfiltered) where.push("f.valid_at > ''");
  // The page's rowids first (the filters and the order over the facts alone), then its records.
  const sql = `SELECT ${FACT_RECORD_SELECT} FROM (SELECT f.rowid AS r FROM facts f
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY ${order} LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}) page
    JOIN facts f ON f.rowid = page.r JOIN entities s ON s.id = f.subject_id LEFT JOIN entities o ON o.id = f.object_id
    ORDER BY ${order}`;
  return cachedStatement(db, sql).all(params).map((raw) => toFactRecord(raw as Parameters<typeof toFactRecord>[0]));
}

/** How many facts a query matches, without its limit and offset. */
export function countFacts(db: Database, query: FactQuery, now: IsoTime, options: { kept?: boolean } = {}): number {
  if (query.ids !== undefined && query.ids.length === 0) return 0;
  if (options.kept !== false && isTrueAtOnly(query)) return countTrueAt(db, query.asOf ?? now);
  const { where, params } = factFilter(query, now);
  const sql = `SELECT count(*) FROM facts f ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
  return cachedStatement(db, sql).pluck().get(params) as number;
}

/** Held now and true at one time (now unless asOf), nothing else asked: the Facts list as it opens, the as-of panel. */
function isTrueAtOnly(q: FactQuery): boolean {
  return q.knownAt === undefined && !q.history && q.subjectId === undefined && q.predicate === undefined && q.entityId === undefined && q.ids === undefined && q.overlapping === undefined && textWords(q.text).length === 0;
}

/**
 * Held facts true at `at` without counting every fact that began before it (~0.1 µs each: 65 ms at
 * a million): those with no end (kept by triggers: store/timeline-rows.ts), less those of them that
 * start after `at`, plus those that began by `at` and end after it. The last two are ranges of
 * covering indexes (named: without statistics the planner would walk every start before `at`), so
 * the cost is the facts that start or end after `at` — few for the present, where the screens open.
 */
export const TRUE_AT_COUNT_SQL = `SELECT (SELECT open_n FROM timeline_totals WHERE id = 1)
  - (SELECT count(*) FROM facts INDEXED BY facts_by_valid_at WHERE valid_at > @at AND invalid_at IS NULL AND expired_at IS NULL)
  + (SELECT count(*) FROM facts INDEXED BY facts_live_by_invalid_at WHERE expired_at IS NULL AND invalid_at IS NOT NULL AND invalid_at > @at AND valid_at <= @at)`;

function countTrueAt(db: Database, at: IsoTime): number {
  return cachedStatement(db, TRUE_AT_COUNT_SQL).pluck().get({ at }) as number;
}

/**
 * Every version of the fact's chain, oldest first (follows `lineage`, so merges and edits are
 * included). Versions recorded in the same millisecond keep the order they were written in (rowid),
 * not their random ids'.
 */
export function factHistory(db: Database, factId: string): FactRecord[] {
  const sql = `SELECT ${FACT_RECORD_SELECT} FROM ${FACT_RECORD_FROM}
    WHERE f.lineage_id = (SELECT lineage_id FROM facts WHERE id = ?)
    ORDER BY f.created_at, f.rowid`;
  return db.prepare(sql).all(factId).map((raw) => toFactRecord(raw as Parameters<typeof toFactRecord>[0]));
}

/**
 * For each fact (by position in `ids`), the live facts that any version of its chain closed, latest
 * valid time first: what a current fact replaced ("B since 15 Sep" brings "A until 15 Sep").
 */
export function closedByChains(db: Database, ids: string[]): { hit: number; id: string }[] {
  return cachedStatement(
    db,
    `SELECT h.key AS hit, f.id AS id FROM json_each(@ids) h
     JOIN facts hf ON hf.id = h.value
     JOIN facts c ON c.lineage_id = hf.lineage_id
     JOIN facts f ON f.invalidated_by = c.id AND f.invalidated_by IS NOT NULL AND f.expired_at IS NULL
     ORDER BY h.key, f.valid_at DESC`,
  ).all({ ids: JSON.stringify(ids) }) as { hit: number; id: string }[];
}
