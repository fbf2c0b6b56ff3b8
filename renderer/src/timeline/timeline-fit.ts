/**
 * What Fit shows: the span where the facts begin and end, without a long empty stretch at either
 * side, and always the user's own story and now. From the server's density (starts and ends counted
 * in equal spans of [first, last]) and now: an empty stretch longer than GAP_SHARE of the span is cut
 * off, with what lies beyond it, when that side holds at most OUTLIER_SHARE of the starts and ends (a
 * few old facts before a long silence). The user's group ('me') is cut the same way by its own marks
 * (a birth place decades ago stays out), and what is left of it is always shown, as is now: the
 * user's facts years after the bulk of the memory are never cut off as outliers. Bars from the cut
 * part still reach into the view; the overview strip shows all.
 */
import { fit, type Domain } from './timeline-scale';

export const GAP_SHARE = 0.3;
export const OUTLIER_SHARE = 0.1;

export interface Density {
  from: number;
  to: number;
  counts: readonly number[];
}

interface Cluster {
  from: number;
  to: number;
  count: number;
}

/** The non-empty spans of the density, and now (a moment of its own, counted once; null: left out). */
function clustersOf(density: Density, now: number | null): Cluster[] {
  const width = (density.to - density.from) / Math.max(1, density.counts.length);
  const out: Cluster[] = [];
  density.counts.forEach((count, i) => {
    if (count > 0) out.push({ from: density.from + i * width, to: density.from + (i + 1) * width, count });
  });
  if (now !== null && (out.length === 0 || now > out[out.length - 1]!.to)) out.push({ from: now, to: now, count: 1 });
  return out;
}

/**
 * The span Fit shows ([from, to] before its margin): where the facts are, with `mine` (the user's
 * group: its marks, or its first and last) and now.
 */
export function fitSpan(density: Density | null | undefined, min: number, max: number, now: number, mine?: Density | { from: number; to: number } | null): { from: number; to: number } {
  const span = coreSpan(density, min, max, now);
  const own = mine ? ('counts' in mine ? coreSpan(mine, mine.from, mine.to, null) : mine) : null;
  if (!own) return { from: Math.min(span.from, now), to: Math.max(span.to, now) };
  return { from: Math.min(span.from, own.from, now), to: Math.max(span.to, own.to, now) };
}

/** Where the starts and ends are, long empty stretches with few beyond them cut off (now counted as one, unless null). */
function coreSpan(density: Density | null | undefined, min: number, max: number, now: number | null): { from: number; to: number } {
  if (!density || density.counts.every((c) => c === 0)) return { from: min, to: max };
  let clusters = clustersOf(density, now);
  for (let pass = 0; pass < 4 && clusters.length > 1; pass++) {
    const total = clusters.reduce((sum, c) => sum + c.count, 0);
    const span = clusters[clusters.length - 1]!.to - clusters[0]!.from;
    // The widest empty stretch between two clusters (before index i).
    let gapAt = -1;
    let gap = 0;
    for (let i = 1; i < clusters.length; i++) {
      const g = clusters[i]!.from - clusters[i - 1]!.to;
      if (g > gap) [gap, gapAt] = [g, i];
    }
    if (gapAt < 0 || gap <= GAP_SHARE * span) break;
    const before = clusters.slice(0, gapAt).reduce((sum, c) => sum + c.count, 0);
    if (before <= OUTLIER_SHARE * total) clusters = clusters.slice(gapAt);
    else if (total - before <= OUTLIER_SHARE * total) clusters = clusters.slice(0, gapAt);
    else break;
  }
  return { from: clusters[0]!.from, to: Math.max(clusters[clusters.length - 1]!.to, clusters[0]!.from) };
}

/** The domain Fit shows: fitSpan with its margin. */
export function fitDomain(density: Density | null | undefined, min: number, max: number, now: number, mine?: Density | { from: number; to: number } | null): Domain {
  const span = fitSpan(density, min, max, now, mine);
  return fit(span.from, span.to);
}

/** The whole range (the overview strip's): every fact, and now. */
export function wholeRange(min: number, max: number, now: number): Domain {
  return fit(Math.min(min, now), Math.max(max, now));
}
