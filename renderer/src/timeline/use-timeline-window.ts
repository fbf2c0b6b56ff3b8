/**
 * The timeline's data, asked for by window (the engine's timelineWindow): the rows in view, in
 * blocks of ROW_BLOCK, × a valid-time range around the visible one (a power-of-two span, so small
 * pans and zooms reuse what was fetched). Rows not fetched yet are placeholders of one lane; rows
 * fetched stay, in view or not (layoutOf); the chart knows the total and virtualises over it. Fitted (no zoom yet), the range is everything.
 * Rows come grouped by subject (the user's first) under header rows; in a memory of more than
 * COLLAPSE_ABOVE rows the groups start collapsed, and the offsets count only the rows shown.
 */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import type { TemporaApi, TimelineWindowResponse } from '../../../shared/api-contract';
import { memoryKeys } from '../app/query-keys';
import { buildGroupRow, buildRow, type RowSummary, type TimelineBar, type TimelineLayout, type TimelineRow } from './timeline-model';
import type { Domain } from './timeline-scale';

export const ROW_BLOCK = 100;
/** Groups start collapsed when the memory has more rows than this. */
export const COLLAPSE_ABOVE = 30;
const HOUR = 3_600_000;
const ALL_TIME = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' };

/** The range fetched for a visible domain: three spans of a power-of-two hours, aligned (null: fitted, everything). */
export function fetchRange(domain: Domain | null): { from: string; to: string } {
  if (domain === null) return ALL_TIME;
  const chunk = 2 ** Math.ceil(Math.log2(Math.max(1, (domain.to - domain.from) / HOUR))) * HOUR;
  const from = Math.floor(domain.from / chunk) * chunk - chunk;
  const iso = (ms: number) => new Date(Math.min(Date.parse(ALL_TIME.to), Math.max(Date.parse(ALL_TIME.from), ms))).toISOString();
  return { from: iso(from), to: iso(from + 4 * chunk) };
}

/** The blocks of rows that cover the rows in view [first, last]. */
export function blocksFor(first: number, last: number): number[] {
  const out: number[] = [];
  for (let b = Math.floor(Math.max(0, first) / ROW_BLOCK); b <= Math.floor(Math.max(0, last) / ROW_BLOCK); b++) out.push(b);
  return out;
}

export interface TimelineData {
  layout: TimelineLayout;
  /** Every fact of the fetched rows (for the as-of panel). */
  facts: TimelineBar['fact'][];
  isPending: boolean;
  error: unknown;
}

interface Options {
  domain: Domain | null;
  knownAt: string | null;
  filter: string;
  rowsInView: [number, number];
  now: number;
  /** Groups the user opened (true) or collapsed (false), by subject id. */
  groupChoices: Readonly<Record<string, boolean>>;
  /** Keys of folded rows opened. */
  openRows: readonly string[];
}

export function useTimelineWindow(api: TemporaApi, options: Options): TimelineData {
  const range = fetchRange(options.domain);
  const filter = options.filter.trim();
  const blocks = blocksFor(...options.rowsInView);
  const choices = Object.entries(options.groupChoices).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const expanded = choices.filter(([, open]) => open).map(([id]) => id);
  const collapsed = choices.filter(([, open]) => !open).map(([id]) => id);
  const queries = blocks.map((block) => ({
    queryKey: memoryKeys.timeline({ ...range, knownAt: options.knownAt, filter, expanded, collapsed, block }),
    queryFn: () =>
      api.timelineWindow({
        ...range,
        knownAt: options.knownAt ?? undefined,
        filter: filter || undefined,
        rowOffset: block * ROW_BLOCK,
        rowLimit: ROW_BLOCK,
        groups: { collapseAbove: COLLAPSE_ABOVE, expanded, collapsed },
      }),
    // While another range of the same rows loads, the chart shows the previous one (never
    // another block's rows: those would take these rows' places).
    placeholderData: (previous: TimelineWindowResponse | undefined, query: { queryKey: readonly unknown[] } | undefined) =>
      (query?.queryKey[2] as { block?: number } | undefined)?.block === block ? previous : undefined,
  }));
  // Asked while the screen renders, not after it mounts: the memory answers while the first frame
  // is drawn (a block already asked for or answered is not asked again).
  const client = useQueryClient();
  for (const query of queries) if (client.getQueryState(query.queryKey) === undefined) void client.prefetchQuery(query);
  const results = useQueries({ queries });
  // While a block's new answer loads (another range, filter or groups), its last answer stands, so
  // the rows keep their places and a focused header its focus. Every block answered stays in the
  // layout, in view or not (layoutOf): a row's height, once known, never falls back to a placeholder's.
  const lastAnswers = useRef(new Map<number, TimelineWindowResponse>());
  const answers = results.map((r, i) => {
    if (r.data) lastAnswers.current.set(blocks[i]!, r.data);
    return r.data ?? lastAnswers.current.get(blocks[i]!);
  });
  // Loading only while a block has nothing to show yet (not while its last answer stands in).
  const pending = results.some((r, i) => answers[i] === undefined && !r.error);
  const error = results.find((r) => r.error)?.error ?? null;
  // A new layout only when the blocks or their answers change (answers keep their identity).
  const stamp = `${blocks.join()}|${results.map((r) => `${r.dataUpdatedAt}${r.isPlaceholderData ? 'p' : ''}`).join()}|${range.from}|${filter}|${options.knownAt}|${expanded.join()}/${collapsed.join()}|${options.openRows.join()}`;
  // Until a block answers, the last answer's totals stand: rows in view must not vanish (and the
  // view jump to the top) while the rows scrolled to load.
  const lastTotals = useRef<Totals>({ totalRows: 0, totalSlots: 0, collapsedByDefault: false, first: null, last: null, density: null });
  const layout = useMemo(() => {
    const made = layoutOf(blocks, answers, lastAnswers.current, options.now, lastTotals.current, options.openRows);
    lastTotals.current = made.totals;
    return made;
  }, [stamp, options.now]);
  return { layout: layout.layout, facts: layout.facts, isPending: pending, error };
}

export type Totals = Omit<TimelineWindowResponse, 'rows'>;

const summaryOf = (r: TimelineWindowResponse['rows'][number]): RowSummary => ({
  count: r.count,
  changes: r.changes,
  first: Date.parse(r.first),
  last: Date.parse(r.last),
  open: r.open,
  ...(r.marks ? { marks: { from: Date.parse(r.marks.from), to: Date.parse(r.marks.to), counts: r.marks.counts } } : {}),
});

/** A block's rows as the chart draws them, built once per answer (and rows opened). */
const builtRows = new WeakMap<TimelineWindowResponse, { opened: string; rows: TimelineRow[] }>();

function rowsOf(answer: TimelineWindowResponse, openRows: readonly string[]): TimelineRow[] {
  const opened = openRows.join('\u0001');
  const built = builtRows.get(answer);
  if (built?.opened === opened) return built.rows;
  const open = new Set(openRows);
  const rows = answer.rows.map((summary): TimelineRow => {
    const key = `${summary.subject_id}\u0000${summary.predicate}`;
    return summary.group
      ? buildGroupRow(`group\u0000${summary.subject_id}`, summary.subject, { subjectId: summary.subject_id, ...summary.group }, summaryOf(summary))
      : { ...buildRow(key, summary.subject, summary.predicate, summary.facts, { open: open.has(key), summary: summaryOf(summary) }), inGroup: true };
  });
  builtRows.set(answer, { opened, rows });
  return rows;
}

/**
 * The rows of every block answered so far (`kept`), not only of the blocks in view: the chart's
 * rows in view follow the heights of the rows above them, so if a block's rows fell back to
 * placeholders (one lane) when it left the view, scrolling past a block boundary would move the
 * rows in view back into it, which would bring its heights back and move them out again — an
 * endless loop of renders (React error #185 after ~4,000 px at 100k). Kept, the heights above the
 * view only change when an answer arrives, so the rows in view settle. The facts and bars (the
 * as-of panel, popovers) are those of the blocks in view.
 */
export function layoutOf(
  blocks: number[],
  answers: (TimelineWindowResponse | undefined)[],
  kept: ReadonlyMap<number, TimelineWindowResponse>,
  now: number,
  before: Totals,
  openRows: readonly string[],
): { layout: TimelineLayout; facts: TimelineBar['fact'][]; totals: Totals } {
  const known: Totals = answers.find((a) => a !== undefined) ?? before;
  const total = known.totalRows;
  const rows: (TimelineRow | undefined)[] = new Array<TimelineRow | undefined>(total);
  for (const [block, answer] of kept) {
    rowsOf(answer, openRows).forEach((row, j) => {
      if (block * ROW_BLOCK + j < total) rows[block * ROW_BLOCK + j] = row;
    });
  }
  const byId: TimelineLayout['byId'] = new Map();
  const facts: TimelineBar['fact'][] = [];
  answers.forEach((answer, i) => {
    if (!answer) return;
    rowsOf(answer, openRows).forEach((row, j) => {
      if (blocks[i]! * ROW_BLOCK + j >= total) return;
      for (const bar of row.bars) byId.set(bar.fact.id, { row, bar });
      facts.push(...answer.rows[j]!.facts);
    });
  });
  // Rows not fetched stay holes (the chart draws a placeholder for those in view: pendingRow): building
  // one per row of a million-fact memory's 100,000 took longer than the rest of the screen.
  const min = known.first ? Date.parse(known.first) : now - 30 * 86_400_000;
  const max = Math.max(known.last ? Date.parse(known.last) : now, now);
  const density = known.density ? { from: Date.parse(known.density.from), to: Date.parse(known.density.to), counts: known.density.counts } : null;
  const totals: Totals = { totalRows: total, totalSlots: known.totalSlots, collapsedByDefault: known.collapsedByDefault, first: known.first, last: known.last, density: known.density };
  return { layout: { rows, byId, min, max, totalSlots: known.totalSlots, density }, facts, totals };
}
