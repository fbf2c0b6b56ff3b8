/**
 * Where a summary bar's facts begin, end and change: starts and ends counted in equal spans — the
 * server's marks for a collapsed group (temporal/timeline-marks.ts), or a folded row's own bars
 * counted here the same way over the part of the row on screen. Drawn as ticks inside the bar
 * (SummaryBar.tsx), taller where more begin or end.
 */
import type { TimelineBar } from './timeline-model';
import type { Domain } from './timeline-scale';

export const MARK_BUCKETS = 64;

export interface Marks {
  from: number;
  to: number;
  counts: readonly number[];
}

/** A folded row's starts and ends over the part of [first, last] in the domain (null: none there). */
export function marksOfBars(bars: readonly TimelineBar[], domain: Domain): Marks | null {
  let first = Infinity;
  let last = -Infinity;
  for (const bar of bars) {
    first = Math.min(first, bar.start);
    last = Math.max(last, bar.end ?? bar.start);
  }
  const from = Math.max(domain.from, first);
  const to = Math.min(domain.to, last);
  if (!(from <= to)) return null;
  const span = Math.max(1, to - from);
  const counts = new Array<number>(MARK_BUCKETS).fill(0);
  const count = (ms: number) => {
    if (ms >= from && ms <= to) counts[Math.max(0, Math.min(MARK_BUCKETS - 1, Math.floor(((ms - from) * MARK_BUCKETS) / span)))]! += 1;
  };
  for (const bar of bars) {
    count(bar.start);
    if (bar.end !== null) count(bar.end);
  }
  return counts.some((n) => n > 0) ? { from, to, counts } : null;
}

/** The ticks to draw: each non-empty span's middle and its share of the most in one span (0..1]. */
export function markTicks(marks: Marks): { at: number; from: number; to: number; n: number; weight: number }[] {
  const width = (marks.to - marks.from) / Math.max(1, marks.counts.length);
  const most = Math.max(1, ...marks.counts);
  const out: { at: number; from: number; to: number; n: number; weight: number }[] = [];
  marks.counts.forEach((n, i) => {
    if (n > 0) out.push({ at: marks.from + (i + 0.5) * width, from: marks.from + i * width, to: marks.from + (i + 1) * width, n, weight: Math.log1p(n) / Math.log1p(most) });
  });
  return out;
}
