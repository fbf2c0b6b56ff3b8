/**
 * The timeline's window read from the rows kept by triggers (store/timeline-rows.ts), for the way the
 * app asks at scale: rows grouped by subject with groups collapsed by default (more rows than
 * `collapseAbove`), of the facts held now, known at a time (timeline-known-at.ts), or held now and
 * kept by a row filter that keeps whole rows (timeline-kept-filter.ts). Then every subject is one header row, and the subjects
 * the user opened add their rows after it — so where a row offset falls is arithmetic over the
 * opened subjects (their place in the order and their row counts), and a page is the subjects from
 * there, by index, plus the rows of opened ones. The answer is the same as timeline-window.ts's one
 * pass over every held fact (a property test compares the two), the density included
 * (timeline-density.ts: from the starts and ends kept by the hour, exact).
 *
 * Cost: the opened subjects' places (a count over the subjects' index each), the page of subjects by
 * index (in natural order: sort_key, store/natural-order.ts), each row's facts in the range by index,
 * each header's marks from its subject's index (timeline-marks.ts: grows with the facts of the
 * subjects on the page, not the memory), and the density from one row per hour with a start or an
 * end — none of it grows with the number of facts. Anything else goes to the one pass (returns null).
 */
import { ownGroupOpen } from './timeline-own-group';
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { keptRowsFiltered } from './timeline-kept-filter';
import { keptRowsNow, type KeptRow, type KeptRows, type KeptSubject } from './timeline-kept-rows';
import { keptRowsKnownAt } from './timeline-known-at';
import { groupMarks } from './timeline-marks';
import { likePattern } from './timeline-source';
import { windowFacts } from './timeline-row-facts';
import type { TimelineRowSummary, TimelineWindow, TimelineWindowQuery } from './timeline-window-shape';
import type { IsoTime } from '../../../shared/time';

/** The window from the kept rows, or null when the query is not one they answer (`knownAtRows`: how the rows at a known-at are read). */
export function keptTimelineWindow(db: Database, asked: TimelineWindowQuery, knownAtRows: (db: Database, knownAt: IsoTime) => KeptRows | null = keptRowsKnownAt): TimelineWindow | null {
  const q = ownGroupOpen(db, asked);
  const text = q.filter?.trim();
  if (q.groups === undefined || (text && q.knownAt !== undefined)) return null;
  const kept = text ? keptRowsFiltered(db, text, likePattern(text)) : q.knownAt === undefined ? keptRowsNow(db) : knownAtRows(db, q.knownAt);
  if (kept === null) return null;
  const totals = kept.totals();
  const collapseAbove = Math.max(0, Math.trunc(q.groups.collapseAbove ?? Number.MAX_SAFE_INTEGER));
  if (totals.slots <= collapseAbove) return null;
  const limit = Math.max(0, Math.trunc(q.rowLimit ?? 100));
  const offset = Math.max(0, Math.trunc(q.rowOffset ?? 0));

  // The opened subjects, in the timeline's order, each with its place among the subjects.
  const opened = [...new Set(q.groups.expanded ?? [])]
    .map((id) => kept.subject(id))
    .filter((s): s is KeptSubject => s !== undefined)
    .map((s) => ({ subject: s, place: kept.placeOf(s) }))
    .sort((a, b) => a.place - b.place);
  const openedIds = new Set(opened.map((o) => o.subject.subject_id));
  const totalRows = totals.subjects + opened.reduce((sum, o) => sum + o.subject.slots, 0);

  const bounds = kept.bounds();
  const base = {
    totalRows,
    totalSlots: totals.slots,
    collapsedByDefault: true,
    first: bounds.first,
    last: bounds.last,
    density: bounds.first !== null && bounds.last !== null ? kept.density(bounds.first, bounds.last) : null,
  };
  if (offset >= totalRows || limit === 0) return { ...base, rows: [] };

  // Where the offset falls: a subject's place, and how many of its items (header, rows) to skip.
  let place = -1;
  let skip = 0;
  let extra = 0;
  for (const o of opened) {
    const header = o.place + extra;
    if (header > offset) break;
    if (offset <= header + o.subject.slots) {
      place = o.place;
      skip = offset - header;
      break;
    }
    extra += o.subject.slots;
  }
  if (place < 0) place = offset - extra;

  const subjects = kept.page(place, limit);
  const rows: TimelineRowSummary[] = [];
  for (const subject of subjects) {
    if (rows.length >= limit) break;
    if (skip === 0) rows.push(summary(db, kept, q, subject, null, !openedIds.has(subject.subject_id)));
    if (openedIds.has(subject.subject_id)) {
      const from = Math.max(0, skip - 1);
      for (const slot of kept.slotsOf(subject, limit - rows.length, from)) rows.push(summary(db, kept, q, slot, slot.predicate, false));
    }
    skip = 0;
  }
  const facts = windowFacts(
    db,
    kept.held,
    kept.filter ?? '',
    kept.joins ?? '',
    { ...kept.params, from: q.from, to: q.to },
    rows.filter((r) => r.group === undefined),
  );
  for (const row of rows) if (row.group === undefined) row.facts = facts.get(`${row.subject_id}\u0000${row.predicate}`) ?? [];
  const marks = groupMarks(db, kept.held, kept.filter ?? '', kept.joins ?? '', kept.params, q, rows.filter((r) => r.group !== undefined));
  for (const row of rows) {
    const found = marks.get(row.subject_id);
    if (found && row.group !== undefined) row.marks = found;
  }
  return { ...base, rows };
}

/** A row's (predicate) or a group header's (null) summary; before / after counted by index unless the bounds decide them. */
function summary(db: Database, kept: KeptRows, q: TimelineWindowQuery, row: KeptRow | KeptSubject, predicate: string | null, collapsed: boolean): TimelineRowSummary {
  const changes = row.n - row.open_n;
  // Every fact starts at or after `first` and ends (or starts) at or before `last`.
  let before = q.from < row.first ? 0 : q.from >= row.last ? changes : -1;
  let after = q.to > row.last ? 0 : q.to <= row.first ? row.n : -1;
  if (before < 0 || after < 0) {
    const counted = (
      predicate === null
        ? cachedStatement(
            db,
            `SELECT count(CASE WHEN invalid_at <= @from THEN 1 END) AS before, count(CASE WHEN valid_at >= @to THEN 1 END) AS after
             FROM facts f${kept.joins ?? ''} WHERE f.subject_id = @subject AND ${kept.held}${kept.filter ?? ''}`,
          ).get({ ...kept.params, from: q.from, to: q.to, subject: row.subject_id })
        : cachedStatement(
            db,
            `SELECT (SELECT count(*) FROM facts f${kept.joins ?? ''} WHERE f.subject_id = @subject AND f.predicate = @predicate AND ${kept.held}${kept.filter ?? ''} AND f.valid_at <= @from AND f.invalid_at <= @from) AS before,
               (SELECT count(*) FROM facts f${kept.joins ?? ''} WHERE f.subject_id = @subject AND f.predicate = @predicate AND ${kept.held}${kept.filter ?? ''} AND f.valid_at >= @to) AS after`,
          ).get({ ...kept.params, from: q.from, to: q.to, subject: row.subject_id, predicate })
    ) as { before: number; after: number };
    if (before < 0) before = counted.before;
    if (after < 0) after = counted.after;
  }
  const subject = row as KeptSubject;
  return {
    subject_id: row.subject_id,
    subject: row.name,
    predicate: predicate ?? '',
    count: row.n,
    first: row.first,
    last: row.last,
    open: row.open_n > 0,
    changes,
    before,
    after,
    facts: [],
    ...(predicate === null ? { group: { rows: subject.slots, collapsed } } : {}),
  };
}
