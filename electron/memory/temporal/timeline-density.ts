/**
 * Where the timeline's facts begin and end — its density, with one meaning whatever answers it.
 * The chart's Fit skips long empty spans by it, and its overview strip draws it.
 *
 * The meaning: each held (and filtered) fact counts once for its start (valid_at) and once for its
 * end (invalid_at, when it has one), in the bucket that holds that instant. The buckets are
 * half-open spans [edge, edge + width) of one width, chosen from the span asked ([first, last]: the
 * earliest start and latest start or end): the smallest width of WIDTHS that covers the span in at
 * most DENSITY_BUCKETS buckets. Edges are whole multiples of the width since 1970-01-01T00:00Z
 * (UTC), so an instant exactly on an edge counts in the bucket that begins there, and the same
 * instant falls in the same bucket whoever counts it. `from` is the first bucket's edge and `to`
 * the last one's end (from + buckets × width), so `counts.length` spans of (to − from) / length.
 *
 * Who counts: with facts held now and no filter, and a width of an hour or more (a memory whose
 * facts span 60 hours or more), the starts and ends kept by the hour (timeline_hours, migration
 * 0019: store/timeline-rows.ts) summed per bucket — exact, since every such width is whole hours
 * and every edge an hour's; its cost is the hours that hold a start or an end, not the facts.
 * Otherwise one pass over the held (filtered) facts' covering index. Both give the same counts
 * (memory-timeline-density.test.ts pins the edges).
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { isoFromMs, type IsoTime } from '../../../shared/time';

/** At most this many buckets. */
export const DENSITY_BUCKETS = 120;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The bucket widths, smallest first: every one from an hour up is whole hours. */
export const WIDTHS = [
  ...[1, 2, 5, 10, 15, 30].map((m) => m * MINUTE),
  ...[1, 2, 3, 6, 12].map((h) => h * HOUR),
  ...[1, 2, 7, 14, 28, 56, 112, 224, 448, 896, 1792, 3584, 7168, 14336, 28672, 57344, 114688, 229376].map((d) => d * DAY),
];
/** An ISO time as whole milliseconds since 1970 in SQL (exact: julianday is rounded to the millisecond). */
const msOf = (t: string) => `CAST(round((julianday(${t}) - 2440587.5) * 86400000.0) AS INTEGER)`;

export interface TimelineDensity {
  from: IsoTime;
  to: IsoTime;
  /** Starts and ends in each of counts.length equal spans of [from, to). */
  counts: number[];
}

export interface DensityGrid {
  /** The first bucket's edge (ms since 1970). */
  from: number;
  width: number;
  buckets: number;
}

/** The buckets for a span of [first, last]: the smallest width that covers it in at most DENSITY_BUCKETS, edges on multiples of it. */
export function densityGrid(first: string, last: string): DensityGrid {
  const a = Date.parse(first);
  const z = Math.max(a, Date.parse(last));
  for (const width of WIDTHS) {
    const from = Math.floor(a / width) * width;
    const buckets = Math.floor((z - from) / width) + 1;
    if (buckets <= DENSITY_BUCKETS) return { from, width, buckets };
  }
  const width = WIDTHS[WIDTHS.length - 1]!;
  return { from: Math.floor(a / width) * width, width, buckets: Math.floor((z - Math.floor(a / width) * width) / width) + 1 };
}

function densityOf(grid: DensityGrid, found: readonly { b: number; n: number }[]): TimelineDensity {
  const counts = new Array<number>(grid.buckets).fill(0);
  for (const { b, n } of found) if (b >= 0 && b < grid.buckets) counts[b] = (counts[b] ?? 0) + n;
  return { from: isoFromMs(grid.from), to: isoFromMs(grid.from + grid.buckets * grid.width), counts };
}

/**
 * By one pass over the held (filtered) facts; `held`, `filter` and `joins` are the window query's
 * own clauses and `from` its facts' source (timeline-window.ts).
 */
export function timelineDensity(db: Database, held: string, filter: string, joins: string, params: Record<string, string | number>, first: string, last: string, from = 'facts f'): TimelineDensity {
  const grid = densityGrid(first, last);
  const bound: Record<string, string | number> = { g0: grid.from, width: grid.width };
  for (const name of ['knownAt', 'filter', 'filterSubjects', 'filterPredicates']) if (params[name] !== undefined) bound[name] = params[name]!;
  const found = cachedStatement(
    db,
    `SELECT (${msOf('t')} - CAST(@g0 AS INTEGER)) / CAST(@width AS INTEGER) AS b, count(*) AS n FROM (
       SELECT f.valid_at AS t FROM ${from}${joins} WHERE ${held}${filter}
       UNION ALL
       SELECT f.invalid_at FROM ${from}${joins} WHERE ${held}${filter} AND f.invalid_at IS NOT NULL
     ) GROUP BY b`,
  ).all(bound) as { b: number; n: number }[];
  return densityOf(grid, found);
}

/** The held facts' density (held now, no filter): from the starts and ends kept by the hour once a bucket is whole hours. */
export function keptDensity(db: Database, first: string, last: string): TimelineDensity {
  const grid = densityGrid(first, last);
  if (grid.width < HOUR) return timelineDensity(db, 'f.expired_at IS NULL', '', '', {}, first, last);
  // An hour before the first edge (none held now; a known-at grid: timeline-known-at.ts) counts nowhere.
  const hour = msOf("hour || ':00:00Z'");
  const found = cachedStatement(
    db,
    `SELECT CASE WHEN ${hour} < CAST(@g0 AS INTEGER) THEN -1 ELSE (${hour} - CAST(@g0 AS INTEGER)) / CAST(@width AS INTEGER) END AS b, sum(n) AS n FROM timeline_hours GROUP BY b`,
  ).all({
    g0: grid.from,
    width: grid.width,
  }) as { b: number; n: number }[];
  return densityOf(grid, found);
}
