/**
 * The timeline's window: the rows on screen (one per subject + predicate: the user's own first, then
 * by subject name in natural order — Person 2 before Person 10: store/natural-order.ts — then
 * predicate; rowOffset / rowLimit) × a valid-time range [from, to). With
 * `groups`, each subject's rows come under a group header row, and a collapsed group is its header
 * only: the offsets count the rows that are shown, so paging stays exact whatever is collapsed.
 * Groups are collapsed when there are more than `collapseAbove` rows in all, except the user's own
 * (open unless closed) and the subjects named in `expanded` or `collapsed` (the user's choices). Each row comes with a summary of
 * all its facts — how many, the first start and the last end, how many ended (changes), how many lie
 * before and after the range — and the facts that overlap the range, whole; a group's header, where
 * its facts begin and end in the range (timeline-marks.ts). What is held: the
 * versions held now (closed facts too, replaced versions not), or those held at `knownAt`.
 * `filter` keeps the facts whose subject, predicate or object contains it (any case for ASCII; a
 * predicate as named or in the words the screens say: "lives in" finds lives_in, timeline-source.ts).
 *
 * One query, one answer (issue 26), read from where it is cheapest; a property test compares each
 * way with the one pass, and another every answer with a brute-force reading of every version:
 *  - groups collapsed by default, no filter — the app's question at scale — from the rows kept by
 *    triggers (timeline-kept-window.ts: the rows on screen, whatever the memory's size), held now or
 *    known at K (timeline-known-at.ts: the kept rows with what was recorded or replaced since K
 *    undone; its cost is that change, not the memory; far back, from when each subject and row was
 *    held in system time: timeline-known-far.ts);
 *  - with a row filter, one pass over the facts it keeps, found by index (timeline-source.ts);
 *    known at K otherwise, one pass over the versions held at K, from covering indexes (the same);
 *  - otherwise one pass over the held facts' covering index (facts_live_by_slot_time: no table rows
 *    are read; the groups are summed from it). About 15–20 ms at 10,000 facts.
 * Then the rows' facts in the range by index, per row, the headers' marks (timeline-marks.ts), and
 * the density with its one meaning (timeline-density.ts: buckets of one width chosen from the span,
 * edges on its multiples; from the kept hours when it can). `{ kept: false }` asks for the pass
 * whatever the question.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { timelineDensity } from './timeline-density';
import { keptTimelineWindow } from './timeline-kept-window';
import { ownGroupOpen } from './timeline-own-group';
import { groupMarks } from './timeline-marks';
import { FILTER_CLAUSE, FILTER_JOINS, filteredSource, HELD_AT_SOURCE, likePattern } from './timeline-source';
import { windowFacts } from './timeline-row-facts';
import type { TimelineWindow, TimelineWindowQuery } from './timeline-window-shape';
import type { IsoTime } from '../../../shared/time';

export type { TimelineGroupInfo, TimelineRowSummary, TimelineWindow, TimelineWindowQuery } from './timeline-window-shape';

interface RowRaw {
  subject_id: string;
  subject: string;
  sort_key: string;
  predicate: string | null;
  slots: number | null;
  collapsed: number | null;
  slots_total: number;
  collapsed_default: number;
  n: number;
  first: IsoTime;
  last: IsoTime;
  open: number;
  changes: number;
  before: number;
  after: number;
  total: number;
  all_first: IsoTime;
  all_last: IsoTime;
}

export function timelineWindow(db: Database, q: TimelineWindowQuery, options: { kept?: boolean } = {}): TimelineWindow {
  // One read transaction: its statements see one snapshot, whatever another process writes between them.
  return db.transaction(() => {
    // At scale the app's question is answered from the rows kept by triggers (timeline-kept-window.ts).
    const kept = options.kept === false ? null : keptTimelineWindow(db, q);
    return kept ?? passOverFacts(db, q, options);
  })();
}

/** The window by one pass over the held facts (any question). */
function passOverFacts(db: Database, asked: TimelineWindowQuery, options: { kept?: boolean }): TimelineWindow {
  const q = ownGroupOpen(db, asked);
  const held = q.knownAt !== undefined ? 'f.created_at <= @knownAt AND (f.expired_at IS NULL OR f.expired_at > @knownAt)' : 'f.expired_at IS NULL';
  const filter = q.filter?.trim() ? FILTER_CLAUSE : '';
  const joins = filter ? FILTER_JOINS : '';
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
  // With a filter, the facts it keeps found by index (timeline-source.ts): exactly those, so the
  // filter is not checked again on them; null when it keeps most of the memory. Known at a time, the
  // versions held then from two covering index ranges.
  const source = filter ? filteredSource(db, q.filter!.trim(), params.filter as string, q.knownAt === undefined) : null;
  if (source) Object.assign(params, source.params);
  const facts = source?.from ?? (q.knownAt !== undefined && !filter ? HELD_AT_SOURCE : 'facts f');
  const check = source ? '' : filter;
  const checkJoins = source ? '' : joins;
  // slot: one pass over the index; grp: a header per subject (collapsed: the user's choice, else the
  // default); item: the headers (grouped) and the rows of groups not collapsed, in order.
  const rows = cachedStatement(
    db,
    `WITH slot AS (
       SELECT f.subject_id, f.predicate, count(*) AS n, min(f.valid_at) AS first,
         max(max(f.valid_at), COALESCE(max(f.invalid_at), '')) AS last, max(f.invalid_at IS NULL) AS open,
         count(f.invalid_at) AS changes, count(CASE WHEN f.invalid_at <= @from THEN 1 END) AS before,
         count(CASE WHEN f.valid_at >= @to THEN 1 END) AS after
       FROM ${facts}${checkJoins} WHERE ${held}${check} GROUP BY f.subject_id, f.predicate
     ),
     settings AS (SELECT count(*) AS slots_total, count(*) > @collapseAbove AS collapsed_default FROM slot),
     grp AS (
       SELECT r.subject_id, s.name AS subject, tempora_natural_key(s.name) AS sort_key, s.type = 'user' AS mine, count(*) AS slots, sum(r.n) AS n, min(r.first) AS first,
         max(r.last) AS last, max(r.open) AS open, sum(r.changes) AS changes, sum(r.before) AS before, sum(r.after) AS after,
         CASE WHEN r.subject_id IN (SELECT value FROM json_each(@expanded)) THEN 0 WHEN r.subject_id IN (SELECT value FROM json_each(@collapsed)) THEN 1
           ELSE (SELECT collapsed_default FROM settings) END AS collapsed
       FROM slot r JOIN entities s ON s.id = r.subject_id GROUP BY r.subject_id
     ),
     item AS (
       SELECT subject_id, subject, sort_key, mine, NULL AS predicate, n, first, last, open, changes, before, after, slots, collapsed FROM grp WHERE @grouped
       UNION ALL
       SELECT r.subject_id, g.subject, g.sort_key, g.mine, r.predicate, r.n, r.first, r.last, r.open, r.changes, r.before, r.after, NULL, NULL
       FROM slot r JOIN grp g ON g.subject_id = r.subject_id WHERE NOT (@grouped AND g.collapsed)
     )
     SELECT i.subject_id, i.subject, i.predicate, i.n, i.first, i.last, i.open, i.changes, i.before, i.after, i.slots, i.collapsed,
       st.slots_total, st.collapsed_default, count(*) OVER () AS total, min(i.first) OVER () AS all_first, max(i.last) OVER () AS all_last
     FROM item i, settings st
     ORDER BY i.mine DESC, i.sort_key, i.subject, i.subject_id, i.predicate IS NOT NULL, i.predicate LIMIT @limit OFFSET @offset`,
  ).all(params) as RowRaw[];
  if (rows.length === 0) {
    // Past the last row (or none): the totals still say what there is.
    const totals = params.offset === 0 ? undefined : timelineWindow(db, { ...q, rowOffset: 0, rowLimit: 1 }, options);
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
  const rowFacts = windowFacts(db, held, filter, joins, params, rows.filter((r) => r.predicate !== null));
  const marks = groupMarks(db, held, filter, joins, params, q, q.groups ? rows.filter((r) => r.predicate === null) : []);
  return {
    totalRows: rows[0]!.total,
    totalSlots: rows[0]!.slots_total,
    collapsedByDefault: q.groups !== undefined && rows[0]!.collapsed_default === 1,
    first: rows[0]!.all_first,
    last: rows[0]!.all_last,
    density: timelineDensity(db, held, check, checkJoins, params, rows[0]!.all_first, rows[0]!.all_last, facts),
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
      facts: r.predicate === null ? [] : (rowFacts.get(`${r.subject_id}\u0000${r.predicate}`) ?? []),
      ...(r.predicate === null ? { group: { rows: r.slots ?? 0, collapsed: r.collapsed === 1 } } : {}),
      ...(marks.has(r.subject_id) && r.predicate === null ? { marks: marks.get(r.subject_id)! } : {}),
    })),
  };
}
