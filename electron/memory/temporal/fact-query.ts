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

export interface FactQuery {
  asOf?: string;
  knownAt?: string;
  /** Entity id of the subject. */
  subjectId?: string;
  predicate?: string;
  /** Entity id appearing as subject or object. */
  entityId?: string;
  /** Only facts whose ids are in this list. */
  ids?: string[];
  history?: boolean;
  limit?: number;
  offset?: number;
}

export interface SqlFilter {
  where: string[];
  params: Record<string, string | number>;
}

/** The WHERE terms (over alias `f`) for a query's time axes and filters. */
export function factFilter(query: FactQuery, now: string): SqlFilter {
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
  return { where, params };
}

export function queryFacts(db: Database, query: FactQuery, now: string): FactRecord[] {
  if (query.ids !== undefined && query.ids.length === 0) return [];
  const { where, params } = factFilter(query, now);
  const limit = query.limit ?? -1;
  const offset = query.offset ?? 0;
  const sql = `SELECT ${FACT_RECORD_SELECT} FROM ${FACT_RECORD_FROM}
    ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY f.valid_at, f.created_at, f.id LIMIT ${Math.trunc(limit)} OFFSET ${Math.trunc(offset)}`;
  return cachedStatement(db, sql).all(params).map((raw) => toFactRecord(raw as Parameters<typeof toFactRecord>[0]));
}

/** Every version of the fact's chain, oldest first (follows `lineage`, so merges and edits are included). */
export function factHistory(db: Database, factId: string): FactRecord[] {
  const sql = `SELECT ${FACT_RECORD_SELECT} FROM ${FACT_RECORD_FROM}
    WHERE f.lineage_id = (SELECT lineage_id FROM facts WHERE id = ?)
    ORDER BY f.created_at, f.id`;
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
