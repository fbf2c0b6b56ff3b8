/**
 * Where a group's facts begin, end and change, for its summary bar (and the user's, for Fit): the
 * starts and ends of the subject's held (and filtered) facts in the part of the window's range the
 * group spans ([max(from, first), min(to, last)]), counted in MARK_BUCKETS equal spans — the same
 * meaning as the timeline's density (timeline-density.ts), per group. At most MARK_BUCKETS numbers a
 * group, none when no start or end falls in the range.
 *
 * Cost: per group, its facts' starts and ends in the range, read from the covering index by subject
 * (facts_live_by_slot_time; not a range by valid_at over an index that is not covering: a fitted
 * view's range holds all of them). A group of more than PROBE_ABOVE held facts (the user's, in a
 * large memory) is not counted but probed: per span, whether a fact starts in it (1) and whether one
 * ends there other than by its successor's start (1 more) — two index seeks a span, each reading one
 * row at most (facts_live_by_subject_valid_at, facts_live_stated_ends_by_subject), whatever the
 * group's size.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import type { TimelineDensity } from './timeline-density';
import type { IsoTime } from '../../../shared/time';

export const MARK_BUCKETS = 64;
/** Groups of more held facts than this are probed, not counted. */
export const PROBE_ABOVE = 2_000;
const DAY_MS = 86_400_000;
const UNIX_EPOCH_JULIAN_DAY = 2440587.5;
const LIVE = 'f.expired_at IS NULL';

/** `held`, `filter` and `joins` are the window query's own clauses (timeline-window.ts); `groups` the header rows. */
export function groupMarks(
  db: Database,
  held: string,
  filter: string,
  joins: string,
  params: Record<string, string | number>,
  range: { from: IsoTime; to: IsoTime },
  groups: readonly { subject_id: string; first: IsoTime; last: IsoTime; n?: number; count?: number }[],
  probeAbove = PROBE_ABOVE,
): Map<string, TimelineDensity> {
  const out = new Map<string, TimelineDensity>();
  const statement = cachedStatement(
    db,
    `SELECT max(0, min(@buckets - 1, CAST((julianday(t) - @j0) * @buckets / @jspan AS INTEGER))) AS b, count(*) AS n FROM (
       SELECT f.valid_at AS t FROM facts f${joins} WHERE f.subject_id = @subject AND ${held}${filter} AND +f.valid_at >= @lo AND +f.valid_at <= @hi
       UNION ALL
       SELECT f.invalid_at FROM facts f${joins} WHERE f.subject_id = @subject AND ${held}${filter} AND f.invalid_at >= @lo AND f.invalid_at <= @hi
     ) GROUP BY b`,
  );
  const bound: Record<string, string | number> = { buckets: MARK_BUCKETS };
  if (params.knownAt !== undefined) bound.knownAt = params.knownAt;
  if (params.filter !== undefined) bound.filter = params.filter;
  for (const group of groups) {
    const lo = group.first > range.from ? group.first : range.from;
    const hi = group.last < range.to ? group.last : range.to;
    if (lo > hi) continue;
    const from = Date.parse(lo);
    const span = Math.max(1, Date.parse(hi) - from);
    const size = group.n ?? group.count ?? 0;
    if (held === LIVE && !filter && size > probeAbove) {
      const probed = probe(db, group.subject_id, from, span, hi);
      if (probed) out.set(group.subject_id, { from: lo, to: hi, counts: probed });
      continue;
    }
    const found = statement.all({ ...bound, subject: group.subject_id, lo, hi, j0: from / DAY_MS + UNIX_EPOCH_JULIAN_DAY, jspan: span / DAY_MS }) as { b: number; n: number }[];
    if (found.length === 0) continue;
    const counts = new Array<number>(MARK_BUCKETS).fill(0);
    for (const { b, n } of found) counts[b] = (counts[b] ?? 0) + n;
    out.set(group.subject_id, { from: lo, to: hi, counts });
  }
  return out;
}

/** Per span of [from, from + span]: 1 if a held fact starts in it, 1 more if one ends there (not by a successor). Null: none. */
function probe(db: Database, subject: string, from: number, span: number, hi: string): number[] | null {
  const seek = cachedStatement(
    db,
    `SELECT EXISTS (SELECT 1 FROM facts f WHERE f.subject_id = @subject AND f.expired_at IS NULL AND f.valid_at >= @a AND f.valid_at < @b)
       + EXISTS (SELECT 1 FROM facts f WHERE f.subject_id = @subject AND f.expired_at IS NULL AND f.invalid_at IS NOT NULL AND f.end_kind <> 'successor'
           AND f.invalid_at >= @a AND f.invalid_at < @b) AS n`,
  );
  const edge = (i: number) => (i === MARK_BUCKETS ? `${hi}\u0001` : new Date(from + Math.ceil((i * span) / MARK_BUCKETS)).toISOString());
  const counts = Array.from({ length: MARK_BUCKETS }, (_, i) => (seek.get({ subject, a: edge(i), b: edge(i + 1) }) as { n: number }).n);
  return counts.some((n) => n > 0) ? counts : null;
}
