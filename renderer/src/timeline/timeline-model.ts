/**
 * Facts → timeline rows: one row per subject + predicate; in a row each fact is a bar over its
 * valid time, packed into lanes so that overlapping facts (many-valued predicates) do not cover
 * each other. Rows have variable heights (by their lanes); the chart virtualises over them.
 */
import type { FactRecord } from '../../../shared/memory-schema';

export const LANE_HEIGHT = 30;
export const ROW_PADDING = 10;

export interface TimelineBar {
  fact: FactRecord;
  start: number;
  /** null: still true (the bar reaches now). */
  end: number | null;
  lane: number;
}

export interface TimelineRow {
  key: string;
  subject: string;
  predicate: string;
  bars: TimelineBar[];
  lanes: number;
  height: number;
}

export interface TimelineLayout {
  rows: TimelineRow[];
  /** Each fact's row and bar, for links between facts. */
  byId: Map<string, { row: TimelineRow; bar: TimelineBar }>;
  min: number;
  max: number;
}

export function buildLayout(facts: readonly FactRecord[], filter: string, now: number): TimelineLayout {
  const needle = filter.trim().toLowerCase();
  const groups = new Map<string, FactRecord[]>();
  for (const fact of facts) {
    if (needle && !`${fact.subject} ${fact.predicate} ${fact.object}`.toLowerCase().includes(needle)) continue;
    const key = `${fact.subject_id}\u0000${fact.predicate}`;
    const group = groups.get(key);
    if (group) group.push(fact);
    else groups.set(key, [fact]);
  }
  const rows: TimelineRow[] = [];
  const byId = new Map<string, { row: TimelineRow; bar: TimelineBar }>();
  let min = Infinity;
  let max = -Infinity;
  for (const [key, group] of groups) {
    const first = group[0]!;
    const row: TimelineRow = { key, subject: first.subject, predicate: first.predicate, bars: [], lanes: 0, height: 0 };
    const laneEnds: number[] = [];
    const sorted = [...group].sort((a, b) => (a.valid_at < b.valid_at ? -1 : a.valid_at > b.valid_at ? 1 : 0));
    for (const fact of sorted) {
      const start = Date.parse(fact.valid_at);
      const end = fact.invalid_at === null ? null : Date.parse(fact.invalid_at);
      let lane = laneEnds.findIndex((laneEnd) => laneEnd <= start);
      if (lane < 0) lane = laneEnds.push(0) - 1;
      laneEnds[lane] = end ?? Infinity;
      const bar = { fact, start, end, lane };
      row.bars.push(bar);
      byId.set(fact.id, { row, bar });
      min = Math.min(min, start);
      max = Math.max(max, end ?? now);
    }
    row.lanes = laneEnds.length;
    row.height = row.lanes * LANE_HEIGHT + ROW_PADDING;
    rows.push(row);
  }
  rows.sort((a, b) => a.subject.localeCompare(b.subject) || a.predicate.localeCompare(b.predicate));
  if (!Number.isFinite(min)) {
    min = now - 30 * 86_400_000;
    max = now;
  }
  return { rows, byId, min, max: Math.max(max, now) };
}

export function trueAt(bar: TimelineBar, ms: number): boolean {
  return bar.start <= ms && (bar.end === null || ms < bar.end);
}
