/**
 * "What changed": the held facts' changes in valid time (when they changed in the world), newest
 * first, and the history of one slot. Two kinds of moment make the feed:
 * - a start: every held fact begins at its valid_at. When it closed a value of its slot (a
 *   `successor` end whose invalidated_by is a version of its chain) it is "before → after"
 *   (replaced); otherwise a new value (added);
 * - a stated end: a held fact whose end was said or judged (not closed by a successor) ended; its
 *   message is the one that said the end (none for the user's own close: an edit says no message).
 * Pages are read by a keyset cursor — (time, kind, rowid), newest first — over indexes of the held
 * facts (facts_live_by_valid_at, and from migration 0023 the live facts by subject and time and the
 * stated ends): each page reads at most a page of rows from each, whatever the memory's size.
 */
import type { Database } from 'better-sqlite3';
import type { ChangeFeedResponse, SlotHistoryResponse, ValueChange } from '../../../shared/change-feed-contract';
import { MemoryInputError } from '../memory-errors';
import { cachedStatement } from '../store/database/statement-cache';
import { FACT_RECORD_SELECT, toFactRecord } from '../store/fact-rows';
import { isIsoUtc, type IsoTime } from '../../../shared/time';

export const DEFAULT_CHANGE_PAGE = 50;

/** Where a page starts: after the moment (at, rank, row) in newest-first order. rank 1: a start, 0: an end. */
interface Cursor {
  at: IsoTime;
  rank: 0 | 1;
  row: number;
}

const encodeCursor = (c: Cursor) => `${c.rank}.${c.row}.${c.at}`;

function decodeCursor(text: string | undefined): Cursor | null {
  if (text === undefined) return null;
  // The time is bound as a parameter, never written into the SQL; it is a time this memory wrote
  // (canonical), else the cursor is not one it gave.
  const m = /^([01])\.(\d{1,15})\.(.{24})$/.exec(text);
  const at = m?.[3];
  if (!m || at === undefined || !isIsoUtc(at)) throw new MemoryInputError('cursor: not a cursor this memory gave; start again from the first page', 'cursor');
  return { rank: Number(m[1]) as 0 | 1, row: Number(m[2]), at };
}

/**
 * The moments after the cursor, for one of the two streams: b < k: at ≤ t; b > k: at < t; b = k:
 * (at, rowid) < (t, r) — in order (at DESC, rank DESC, rowid DESC), the cursor's own moment excluded.
 */
function after(rank: 0 | 1, column: string, cursor: Cursor | null): string[] {
  // The first page: a range that is always true, so the stream reads its index as a range from the
  // newest end (the plan says SEARCH), stopping at the page's size.
  if (!cursor) return [`${column} > ''`];
  if (rank < cursor.rank) return [`${column} <= @at`];
  if (rank > cursor.rank) return [`${column} < @at`];
  return [`(${column}, f.rowid) < (@at, @row)`];
}

/** A statement's named parameters: only those its SQL names (the cursor's when it has one). */
function params(n: number, cursor: Cursor | null, filters: Record<string, string>): Record<string, string | number> {
  return { n, ...filters, ...(cursor ? { at: cursor.at, row: cursor.row } : {}) };
}

export interface ChangeFeedQuery {
  /** Only the facts about this entity (as subject). */
  subjectId?: string;
  limit?: number;
  cursor?: string;
}

interface ChangeRow {
  rank: 0 | 1;
  at: IsoTime;
  row: number;
  fact_id: string;
  subject_id: string;
  subject: string;
  predicate: string;
  cardinality: ValueChange['cardinality'];
  value: string;
  precision: ValueChange['precision'] | null;
  before_id: string | null;
  before_value: string | null;
  episode_id: string | null;
  conversation_id: string | null;
}

/** One page of changes, newest first, and the cursor of the next page (null: this was the last). */
export function changeFeed(db: Database, query: ChangeFeedQuery): ChangeFeedResponse {
  const cursor = decodeCursor(query.cursor);
  const limit = Math.trunc(query.limit ?? DEFAULT_CHANGE_PAGE);
  const subject = query.subjectId !== undefined ? ['f.subject_id = @subject'] : [];
  const starts = ['f.expired_at IS NULL', ...subject, ...after(1, 'f.valid_at', cursor)];
  const ends = ['f.expired_at IS NULL', 'f.invalid_at IS NOT NULL', "f.end_kind <> 'successor'", ...subject, ...after(0, 'f.invalid_at', cursor)];
  // Each stream walks its index newest first and stops at the page's size; the page merges them.
  const sql = `WITH page AS (
      SELECT * FROM (SELECT 1 AS rank, f.valid_at AS at, f.rowid AS row FROM facts f WHERE ${starts.join(' AND ')} ORDER BY f.valid_at DESC, f.rowid DESC LIMIT @n)
      UNION ALL
      SELECT * FROM (SELECT 0 AS rank, f.invalid_at AS at, f.rowid AS row FROM facts f WHERE ${ends.join(' AND ')} ORDER BY f.invalid_at DESC, f.rowid DESC LIMIT @n)
      ORDER BY at DESC, rank DESC, row DESC LIMIT @n
    ), told AS (
      SELECT page.*, f.id AS fact_id, f.subject_id, s.name AS subject, f.predicate, f.cardinality,
        COALESCE(o.name, f.object_literal) AS value,
        CASE page.rank WHEN 1 THEN f.valid_at_precision ELSE f.invalid_at_precision END AS precision,
        CASE page.rank WHEN 1 THEN (
          SELECT p.rowid FROM facts c JOIN facts p ON p.invalidated_by = c.id
          WHERE c.lineage_id = f.lineage_id AND p.invalidated_by IS NOT NULL AND p.expired_at IS NULL AND p.end_kind = 'successor'
          ORDER BY p.invalid_at DESC LIMIT 1) END AS before_row,
        CASE page.rank
          WHEN 1 THEN COALESCE(
            (SELECT json_extract(c.episode_ids, '$[0]') FROM claims c WHERE c.fact_id = f.id ORDER BY c.valid_at, c.reference_time LIMIT 1),
            (SELECT fe.episode_id FROM fact_episodes fe WHERE fe.fact_id = f.id LIMIT 1))
          ELSE (SELECT json_extract(c.episode_ids, '$[0]') FROM claims c WHERE c.fact_id = f.id AND c.end_at = f.invalid_at AND c.origin <> 'user_edit' ORDER BY c.reference_time DESC LIMIT 1)
        END AS said_in
      FROM page JOIN facts f ON f.rowid = page.row JOIN entities s ON s.id = f.subject_id LEFT JOIN entities o ON o.id = f.object_id
    )
    SELECT told.rank, told.at, told.row, told.fact_id, told.subject_id, told.subject, told.predicate, told.cardinality, told.value, told.precision,
      p.id AS before_id, COALESCE(po.name, p.object_literal) AS before_value, e.id AS episode_id, e.conversation_id
    FROM told LEFT JOIN facts p ON p.rowid = told.before_row LEFT JOIN entities po ON po.id = p.object_id
      LEFT JOIN episodes e ON e.id = told.said_in
    ORDER BY told.at DESC, told.rank DESC, told.row DESC`;
  const rows = cachedStatement(db, sql).all(params(limit + 1, cursor, query.subjectId === undefined ? {} : { subject: query.subjectId })) as ChangeRow[];
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { changes: page.map(toChange), next: rows.length > limit && last ? encodeCursor(last) : null };
}

function toChange(r: ChangeRow): ValueChange {
  const kind = r.rank === 0 ? 'ended' : r.before_id !== null ? 'replaced' : 'added';
  return {
    kind,
    at: r.at,
    precision: r.precision ?? 'instant',
    subjectId: r.subject_id,
    subject: r.subject,
    predicate: r.predicate,
    cardinality: r.cardinality,
    before: kind === 'ended' ? r.value : r.before_value,
    after: kind === 'ended' ? null : r.value,
    factId: r.fact_id,
    beforeFactId: kind === 'replaced' ? r.before_id : null,
    episodeId: r.episode_id,
    conversationId: r.conversation_id,
  };
}

/** One page of the held facts of a fact's slot (subject + predicate), newest valid time first, and their total. */
export function slotHistory(db: Database, factId: string, query: { limit?: number; cursor?: string }): SlotHistoryResponse {
  const slot = cachedStatement(db, 'SELECT f.subject_id, s.name AS subject, f.predicate FROM facts f JOIN entities s ON s.id = f.subject_id WHERE f.id = ?').get(factId) as
    | { subject_id: string; subject: string; predicate: string }
    | undefined;
  if (!slot) throw new MemoryInputError(`no fact with id ${factId}`, 'factId', 'not_found');
  const cursor = decodeCursor(query.cursor);
  const limit = Math.trunc(query.limit ?? DEFAULT_CHANGE_PAGE);
  const where = ['f.subject_id = @subject', 'f.predicate = @predicate', 'f.expired_at IS NULL', ...after(1, 'f.valid_at', cursor && { ...cursor, rank: 1 })];
  const order = 'f.valid_at DESC, f.rowid DESC';
  // The slot's index by name: without statistics the planner would take the subject's (every predicate).
  const sql = `SELECT ${FACT_RECORD_SELECT}, f.rowid AS row FROM (SELECT f.rowid AS r FROM facts f INDEXED BY facts_live_by_slot_time WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT @n) page
    JOIN facts f ON f.rowid = page.r JOIN entities s ON s.id = f.subject_id LEFT JOIN entities o ON o.id = f.object_id
    ORDER BY ${order}`;
  const rows = cachedStatement(db, sql).all(params(limit + 1, cursor, { subject: slot.subject_id, predicate: slot.predicate })) as (Parameters<typeof toFactRecord>[0] & { row: number })[];
  // The slot's count is kept by triggers (store/timeline-rows.ts): no count over the slot's facts.
  const total = (cachedStatement(db, 'SELECT n FROM timeline_slots WHERE subject_id = ? AND predicate = ?').pluck().get(slot.subject_id, slot.predicate) as number | undefined) ?? 0;
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    subject: slot.subject,
    predicate: slot.predicate,
    total,
    facts: page.map(({ row: _row, ...raw }) => toFactRecord(raw)),
    next: rows.length > limit && last ? encodeCursor({ rank: 1, row: last.row, at: last.valid_at }) : null,
  };
}
