/**
 * The timeline's window: the rows on screen (one per subject + predicate: the user's own first, then
 * by subject name, then predicate; rowOffset / rowLimit) × a valid-time range [from, to). With
 * `groups`, each subject's rows come under a group header row, and a collapsed group is its header
 * only: the offsets count the rows that are shown, so paging stays exact whatever is collapsed.
 * Groups are collapsed when there are more than `collapseAbove` rows in all, except the subjects
 * named in `expanded` or `collapsed` (the user's choices). Each row comes with a summary of
 * all its facts — how many, the first start and the last end, how many ended (changes), how many lie
 * before and after the range — and the facts that overlap the range, whole. What is held: the
 * versions held now (closed facts too, replaced versions not), or those held at `knownAt`.
 * `filter` keeps the facts whose subject, predicate or object contains it (any case for ASCII).
 *
 * Cost: the row list is one pass over the held facts' covering index (facts_live_by_slot_time: no
 * table rows are read; the groups are summed from it), then the rows' facts in the range by index,
 * per row, and the density (timeline-density.ts) one more pass. About 15–20 ms at 10,000 facts.
 */
import type { Database } from 'better-sqlite3';
import type { FactRecord } from '../../../shared/memory-schema';
import { cachedStatement } from '../store/database/statement-cache';
import { FACT_RECORD_SELECT, toFactRecord } from '../store/fact-rows';
import { timelineDensity, type TimelineDensity } from './timeline-density';

export interface TimelineWindowQuery {
  from: string;
  to: string;
  knownAt?: string;
  filter?: string;
  rowOffset?: number;
  rowLimit?: number;
  /** Rows grouped by subject under header rows (absent: the rows alone). */
  groups?: { collapseAbove?: number; expanded?: readonly string[]; collapsed?: readonly string[] };
}

/** A header row: the subject's group, summarised over all its rows. */
export interface TimelineGroupInfo {
  /** Rows (subject + predicate) in the group. */
  rows: number;
  collapsed: boolean;
}

export interface TimelineRowSummary {
  subject_id: string;
  subject: string;
  predicate: string;
  /** Facts of the row, at every valid time. */
  count: number;
  /** The earliest start and the latest start or end of the row's facts. */
  first: string;
  last: string;
  /** Some fact of the row is still true. */
  open: boolean;
  /** Facts of the row that ended: each one a change. */
  changes: number;
  /** Facts that ended before the range / begin after it (not in `facts`). */
  before: number;
  after: number;
  /** The row's facts overlapping [from, to), by valid time (none for a group header). */
  facts: FactRecord[];
  /** Set on a group header row (its predicate is ''). */
  group?: TimelineGroupInfo;
}

export interface TimelineWindow {
  /** Rows shown in all (with the filter; group headers counted, collapsed groups' rows not), of which `rows` are those from rowOffset. */
  totalRows: number;
  /** Subject + predicate rows in all (with the filter), shown or not. */
  totalSlots: number;
  /** With groups: whether groups not toggled are collapsed. */
  collapsedByDefault: boolean;
  rows: TimelineRowSummary[];
  /** The earliest start and the latest start or end over every row (null: no facts). */
  first: string | null;
  last: string | null;
  /** Where the facts begin and end over [first, last] (timeline-density.ts; null: no facts). */
  density: TimelineDensity | null;
}

interface RowRaw {
  subject_id: string;
  subject: string;
  predicate: string | null;
  slots: number | null;
  collapsed: number | null;
  slots_total: number;
  collapsed_default: number;
  n: number;
  first: string;
  last: string;
  open: number;
  changes: number;
  before: number;
  after: number;
  total: number;
  all_first: string;
  all_last: string;
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function timelineWindow(db: Database, q: TimelineWindowQuery): TimelineWindow {
  const held = q.knownAt !== undefined ? 'f.created_at <= @knownAt AND (f.expired_at IS NULL OR f.expired_at > @knownAt)' : 'f.expired_at IS NULL';
  const filter = q.filter?.trim() ? ` AND (lower(fs.name) LIKE @filter ESCAPE '\\' OR lower(f.predicate) LIKE @filter ESCAPE '\\' OR lower(COALESCE(fo.name, f.object_literal)) LIKE @filter ESCAPE '\\')` : '';
  const joins = filter ? ' JOIN entities fs ON fs.id = f.subject_id LEFT JOIN entities fo ON fo.id = f.object_id' : '';
  const params: Record<string, string | number> = {
    from: q.from,
    to: q.to,
    limit: Math.max(0, Math.trunc(q.rowLimit ?? 100)),
    offset: Math.max(0, Math.trunc(q.rowOffset ?? 0)),
    grouped: q.groups ? 1 : 0,
    collapseAbove: Math.max(0, Math.trunc(q.groups?.collapseAbove ?? Number.MAX_SAFE_INTEGER)),
    expanded: JSON.stringify(q.groups?.expanded ?? []),
    collapsed: JSON.stringify(q.groups?.collapsed ?? []),
  };
  if (q.knownAt !== undefined) params.knownAt = q.knownAt;
  if (filter) params.filter = likePattern(q.filter!.trim());
  // slot: one pass over the index; grp: a header per subject (collapsed: the user's choice, else the
  // default); item: the headers (grouped) and the rows of groups not collapsed, in order.
  const rows = cachedStatement(
    db,
    `WITH slot AS (
       SELECT f.subject_id, f.predicate, count(*) AS n, min(f.valid_at) AS first,
         max(max(f.valid_at), COALESCE(max(f.invalid_at), '')) AS last, max(f.invalid_at IS NULL) AS open,
         count(f.invalid_at) AS changes, count(CASE WHEN f.invalid_at <= @from THEN 1 END) AS before,
         count(CASE WHEN f.valid_at >= @to THEN 1 END) AS after
       FROM facts f${joins} WHERE ${held}${filter} GROUP BY f.subject_id, f.predicate
     ),
     settings AS (SELECT count(*) AS slots_total, count(*) > @collapseAbove AS collapsed_default FROM slot),
     grp AS (
       SELECT r.subject_id, s.name AS subject, s.type = 'user' AS mine, count(*) AS slots, sum(r.n) AS n, min(r.first) AS first,
         max(r.last) AS last, max(r.open) AS open, sum(r.changes) AS changes, sum(r.before) AS before, sum(r.after) AS after,
         CASE WHEN r.subject_id IN (SELECT value FROM json_each(@expanded)) THEN 0 WHEN r.subject_id IN (SELECT value FROM json_each(@collapsed)) THEN 1
           ELSE (SELECT collapsed_default FROM settings) END AS collapsed
       FROM slot r JOIN entities s ON s.id = r.subject_id GROUP BY r.subject_id
     ),
     item AS (
       SELECT subject_id, subject, mine, NULL AS predicate, n, first, last, open, changes, before, after, slots, collapsed FROM grp WHERE @grouped
       UNION ALL
       SELECT r.subject_id, g.subject, g.mine, r.predicate, r.n, r.first, r.last, r.open, r.changes, r.before, r.after, NULL, NULL
       FROM slot r JOIN grp g ON g.subject_id = r.subject_id WHERE NOT (@grouped AND g.collapsed)
     )
     SELECT i.subject_id, i.subject, i.predicate, i.n, i.first, i.last, i.open, i.changes, i.before, i.after, i.slots, i.collapsed,
       st.slots_total, st.collapsed_default, count(*) OVER () AS total, min(i.first) OVER () AS all_first, max(i.last) OVER () AS all_last
     FROM item i, settings st
     ORDER BY i.mine DESC, i.subject COLLATE NOCASE, i.subject, i.subject_id, i.predicate IS NOT NULL, i.predicate LIMIT @limit OFFSET @offset`,
  ).all(params) as RowRaw[];
  if (rows.length === 0) {
    // Past the last row (or none): the totals still say what there is.
    const totals = params.offset === 0 ? undefined : timelineWindow(db, { ...q, rowOffset: 0, rowLimit: 1 });
    return {
      totalRows: totals?.totalRows ?? 0,
      totalSlots: totals?.totalSlots ?? 0,
      collapsedByDefault: totals?.collapsedByDefault ?? false,
      rows: [],
      first: totals?.first ?? null,
      last: totals?.last ?? null,
      density: totals?.density ?? null,
    };
  }
  const facts = windowFacts(db, held, filter, joins, params, rows.filter((r) => r.predicate !== null));
  return {
    totalRows: rows[0]!.total,
    totalSlots: rows[0]!.slots_total,
    collapsedByDefault: q.groups !== undefined && rows[0]!.collapsed_default === 1,
    first: rows[0]!.all_first,
    last: rows[0]!.all_last,
    density: timelineDensity(db, held, filter, joins, params, rows[0]!.all_first, rows[0]!.all_last),
    rows: rows.map((r) => ({
      subject_id: r.subject_id,
      subject: r.subject,
      predicate: r.predicate ?? '',
      count: r.n,
      first: r.first,
      last: r.last,
      open: r.open === 1,
      changes: r.changes,
      before: r.before,
      after: r.after,
      facts: r.predicate === null ? [] : (facts.get(`${r.subject_id}\u0000${r.predicate}`) ?? []),
      ...(r.predicate === null ? { group: { rows: r.slots ?? 0, collapsed: r.collapsed === 1 } } : {}),
    })),
  };
}

/** The facts of these rows that overlap [from, to), held and filtered as the rows were, by row. */
function windowFacts(db: Database, held: string, filter: string, joins: string, params: Record<string, string | number>, rows: RowRaw[]): Map<string, FactRecord[]> {
  if (rows.length === 0) return new Map();
  const slots = JSON.stringify(rows.map((r) => [r.subject_id, r.predicate]));
  const { limit: _limit, offset: _offset, grouped: _grouped, collapseAbove: _collapseAbove, expanded: _expanded, collapsed: _collapsed, ...bound } = params;
  const found = cachedStatement(
    db,
    `SELECT ${FACT_RECORD_SELECT} FROM (
       SELECT f.rowid AS r FROM json_each(@slots) j
       JOIN facts f ON f.subject_id = json_extract(j.value, '$[0]') AND f.predicate = json_extract(j.value, '$[1]')${joins}
       WHERE ${held}${filter} AND f.valid_at < @to AND (f.invalid_at IS NULL OR f.invalid_at > @from)
     ) w JOIN facts f ON f.rowid = w.r JOIN entities s ON s.id = f.subject_id LEFT JOIN entities o ON o.id = f.object_id
     ORDER BY f.valid_at, f.created_at, f.id`,
  ).all({ ...bound, slots }) as Parameters<typeof toFactRecord>[0][];
  const byRow = new Map<string, FactRecord[]>();
  for (const raw of found) {
    const fact = toFactRecord(raw);
    const key = `${fact.subject_id}\u0000${fact.predicate}`;
    const list = byRow.get(key);
    if (list) list.push(fact);
    else byRow.set(key, [fact]);
  }
  return byRow;
}
