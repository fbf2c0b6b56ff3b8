/**
 * Facts → timeline rows: one row per subject + predicate; in a row each fact is a bar over its
 * valid time, packed into lanes so that overlapping facts (many-valued predicates) do not cover
 * each other: facts of a slot whose intervals do not overlap share a lane. A row of more than
 * MAX_LANES lanes is folded to one summary bar until opened. Group header rows (one per subject)
 * stand before their rows. Rows have variable heights (by their lanes); the chart virtualises over them.
 */
import type { FactRecord } from '../../../shared/memory-schema';
import { sayPredicate } from '../../../shared/predicate-words';

export const LANE_HEIGHT = 30;
export const ROW_PADDING = 10;
/** A row with more lanes than this is folded to a summary bar until opened. */
export const MAX_LANES = 4;
export const GROUP_HEIGHT = 36;
export const USER_NAME = 'me';

export interface TimelineBar {
  fact: FactRecord;
  start: number;
  /** null: still true (the bar reaches now). */
  end: number | null;
  lane: number;
}

/** A row's (or a group's) summary over all its facts, as the server counted them. */
export interface RowSummary {
  count: number;
  changes: number;
  first: number;
  last: number;
  open: boolean;
  /** A collapsed group's starts and ends, counted in equal spans of [from, to] (the server's marks). */
  marks?: { from: number; to: number; counts: readonly number[] };
}

export interface TimelineRow {
  key: string;
  subject: string;
  predicate: string;
  bars: TimelineBar[];
  lanes: number;
  height: number;
  summary?: RowSummary;
  /** More than MAX_LANES lanes and not opened: drawn as one summary bar. */
  folded?: boolean;
  /** Under its subject's group header: the label names the predicate only. */
  inGroup?: boolean;
  /** A group header row (the subject's), with the group's rows and whether it is collapsed. */
  group?: { subjectId: string; rows: number; collapsed: boolean };
}

export interface TimelineLayout {
  /** Every row shown, by index; a row not fetched yet is a hole (pendingRow stands in for it). */
  rows: readonly (TimelineRow | undefined)[];
  /** Each fact's row and bar, for links between facts. */
  byId: Map<string, { row: TimelineRow; bar: TimelineBar }>;
  min: number;
  max: number;
  /** Subject + predicate rows in all (the shown rows may be fewer: collapsed groups). */
  totalSlots?: number;
  /** Where facts begin and end, for Fit and the overview (the server's density). */
  density?: { from: number; to: number; counts: number[] } | null;
}

/** Names in natural order (Person 2 before Person 10), one collator for every comparison: localeCompare with options builds one per call. */
const NATURAL = new Intl.Collator(undefined, { numeric: true });

export function buildLayout(facts: readonly FactRecord[], filter: string, now: number): TimelineLayout {
  const needle = filter.trim().toLowerCase();
  const groups = new Map<string, FactRecord[]>();
  for (const fact of facts) {
    // The predicate as stored or as the rows say it: "lives_in" and "lives in" alike.
    if (needle && ![fact.predicate, sayPredicate(fact.predicate)].some((predicate) => `${fact.subject} ${predicate} ${fact.object}`.toLowerCase().includes(needle))) continue;
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
    const row = buildRow(key, first.subject, first.predicate, group);
    for (const bar of row.bars) {
      byId.set(bar.fact.id, { row, bar });
      min = Math.min(min, bar.start);
      max = Math.max(max, bar.end ?? now);
    }
    rows.push(row);
  }
  // The user's own rows first (the user's entity is always named "me"), as on the chart.
  rows.sort((a, b) => Number(b.subject === USER_NAME) - Number(a.subject === USER_NAME) || NATURAL.compare(a.subject, b.subject) || a.predicate.localeCompare(b.predicate));
  if (!Number.isFinite(min)) {
    min = now - 30 * 86_400_000;
    max = now;
  }
  return { rows, byId, min, max: Math.max(max, now) };
}

/** One row: its facts as bars by valid time, packed into lanes (at least one, so an empty row has a height); folded when it has more than MAX_LANES, unless `open`. */
/** What the chart draws for row `index` while it is not fetched: an empty row of one lane. */
export function pendingRow(index: number): TimelineRow {
  return buildRow(`pending-${index}`, '', '', []);
}

export function buildRow(key: string, subject: string, predicate: string, facts: readonly FactRecord[], options: { open?: boolean; summary?: RowSummary } = {}): TimelineRow {
  const row: TimelineRow = { key, subject, predicate, bars: [], lanes: 0, height: 0 };
  const laneEnds: number[] = [];
  const sorted = [...facts].sort((a, b) => (a.valid_at < b.valid_at ? -1 : a.valid_at > b.valid_at ? 1 : 0));
  for (const fact of sorted) {
    const start = Date.parse(fact.valid_at);
    const end = fact.invalid_at === null ? null : Date.parse(fact.invalid_at);
    let lane = laneEnds.findIndex((laneEnd) => laneEnd <= start);
    if (lane < 0) lane = laneEnds.push(0) - 1;
    laneEnds[lane] = end ?? Infinity;
    row.bars.push({ fact, start, end, lane });
  }
  row.lanes = Math.max(1, laneEnds.length);
  if (options.summary) row.summary = options.summary;
  row.folded = row.lanes > MAX_LANES && !options.open;
  row.height = (row.folded ? 1 : row.lanes) * LANE_HEIGHT + ROW_PADDING;
  return row;
}

/** A group header row: the subject, its rows and their summary. */
export function buildGroupRow(key: string, subject: string, group: NonNullable<TimelineRow['group']>, summary: RowSummary): TimelineRow {
  return { key, subject, predicate: '', bars: [], lanes: 1, height: GROUP_HEIGHT, summary, group };
}

export function trueAt(bar: TimelineBar, ms: number): boolean {
  return bar.start <= ms && (bar.end === null || ms < bar.end);
}
