/**
 * Where the timeline's facts begin and end: the starts and ends of the held (and filtered) facts
 * counted in DENSITY_BUCKETS equal spans of [first, last]. The chart's Fit skips long empty spans
 * by it, and its overview strip draws it. One pass over the facts' covering index.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';

export const DENSITY_BUCKETS = 120;
const DAY_MS = 86_400_000;
const UNIX_EPOCH_JULIAN_DAY = 2440587.5;

export interface TimelineDensity {
  from: string;
  to: string;
  /** Starts and ends in each of DENSITY_BUCKETS equal spans of [from, to]. */
  counts: number[];
}

/** `held`, `filter` and `joins` are the window query's own clauses (timeline-window.ts). */
export function timelineDensity(db: Database, held: string, filter: string, joins: string, params: Record<string, string | number>, first: string, last: string): TimelineDensity {
  const from = Date.parse(first);
  const span = Math.max(1, Date.parse(last) - from);
  const bound: Record<string, string | number> = { j0: from / DAY_MS + UNIX_EPOCH_JULIAN_DAY, jspan: span / DAY_MS, buckets: DENSITY_BUCKETS };
  if (params.knownAt !== undefined) bound.knownAt = params.knownAt;
  if (params.filter !== undefined) bound.filter = params.filter;
  const found = cachedStatement(
    db,
    `SELECT max(0, min(@buckets - 1, CAST((julianday(t) - @j0) * @buckets / @jspan AS INTEGER))) AS b, count(*) AS n FROM (
       SELECT f.valid_at AS t FROM facts f${joins} WHERE ${held}${filter}
       UNION ALL
       SELECT f.invalid_at FROM facts f${joins} WHERE ${held}${filter} AND f.invalid_at IS NOT NULL
     ) GROUP BY b`,
  ).all(bound) as { b: number; n: number }[];
  const counts = new Array<number>(DENSITY_BUCKETS).fill(0);
  for (const { b, n } of found) counts[b] = (counts[b] ?? 0) + n;
  return { from: first, to: last, counts };
}
