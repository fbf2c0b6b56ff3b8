/**
 * What the timeline asks for (renderer/src/timeline/use-timeline-window.ts): blocks of rows that
 * cover the rows in view, and a time range around the visible one that small pans and zooms reuse;
 * the rows of blocks answered stay in the layout when they leave the view.
 */
import { describe, expect, it } from 'vitest';
import type { TimelineWindowResponse } from '../../shared/api-contract';
import { GROUP_HEIGHT, pendingRow, type TimelineRow } from '../../renderer/src/timeline/timeline-model';
import { blocksFor, fetchRange, layoutOf, ROW_BLOCK, type Totals } from '../../renderer/src/timeline/use-timeline-window';

const DAY = 86_400_000;
const t = (iso: string) => Date.parse(iso);

describe("the timeline's window", () => {
  it('asks for the blocks of rows in view', () => {
    expect(blocksFor(0, 20)).toEqual([0]);
    expect(blocksFor(ROW_BLOCK - 5, ROW_BLOCK + 5)).toEqual([0, 1]);
    expect(blocksFor(12 * ROW_BLOCK + 3, 12 * ROW_BLOCK + 40)).toEqual([12]);
  });

  it('covers the visible range, and reuses it for a small pan or zoom', () => {
    const domain = { from: t('2026-03-01T00:00:00Z'), to: t('2026-04-01T00:00:00Z') };
    const range = fetchRange(domain);
    expect(Date.parse(range.from)).toBeLessThanOrEqual(domain.from - 31 * DAY);
    expect(Date.parse(range.to)).toBeGreaterThanOrEqual(domain.to + 31 * DAY);
    expect(fetchRange({ from: domain.from + DAY, to: domain.to + DAY })).toEqual(range);
    expect(fetchRange({ from: domain.from + DAY, to: domain.to - DAY })).toEqual(range);
    expect(fetchRange({ from: domain.from - 400 * DAY, to: domain.to })).not.toEqual(range);
  });

  it('asks for all time while the chart is fitted', () => {
    expect(fetchRange(null)).toEqual({ from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' });
  });
});

/** A block of `count` collapsed group headers (rows of GROUP_HEIGHT) out of `total` rows. */
function groupBlock(block: number, total: number, count = ROW_BLOCK): TimelineWindowResponse {
  const rows = Array.from({ length: count }, (_, j): TimelineWindowResponse['rows'][number] => {
    const n = block * ROW_BLOCK + j;
    return { subject_id: `ent_${n}`, subject: `Person ${n}`, predicate: '', count: 2, first: '2025-01-01T00:00:00.000Z', last: '2026-01-01T00:00:00.000Z', open: true, changes: 1, before: 0, after: 0, facts: [], group: { rows: 2, collapsed: true } };
  });
  return { totalRows: total, totalSlots: 2 * total, collapsedByDefault: true, rows, first: '2025-01-01T00:00:00.000Z', last: '2026-01-01T00:00:00.000Z', density: null };
}

describe("the timeline's layout while scrolling", () => {
  const NO_TOTALS: Totals = { totalRows: 0, totalSlots: 0, collapsedByDefault: false, first: null, last: null, density: null };
  const now = Date.parse('2026-12-02T00:00:00Z');
  const heightAbove = (rows: readonly (TimelineRow | undefined)[], index: number) => rows.slice(0, index).reduce((sum, row) => sum + (row?.height ?? pendingRow(0).height), 0);

  it('keeps the rows of a block scrolled past, so the rows above the view keep their heights (React #185 at 100k)', () => {
    const total = 1_000;
    const b0 = groupBlock(0, total);
    const b1 = groupBlock(1, total);
    const kept = new Map([
      [0, b0],
      [1, b1],
    ]);
    // Both blocks in view, then only the second: row 150 stays where it was.
    const both = layoutOf([0, 1], [b0, b1], kept, now, NO_TOTALS, []).layout;
    const second = layoutOf([1], [b1], kept, now, NO_TOTALS, []).layout;
    expect(heightAbove(second.rows, 150)).toBe(heightAbove(both.rows, 150));
    expect(heightAbove(second.rows, 150)).toBe(150 * GROUP_HEIGHT);
    expect(second.rows[5]?.key).toBe('group\u0000ent_5');
    // A placeholder is taller than a group header: had block 0 fallen back to placeholders, row 150
    // would have moved down 400 px, back into block 0's reach, and the view would never settle.
    expect(pendingRow(0).height).not.toBe(GROUP_HEIGHT);
    // Rows never fetched stay holes; the facts are those of the blocks in view.
    expect(second.rows[500]).toBeUndefined();
    expect(second.rows.length).toBe(total);
  });

  it('builds a block’s rows once per answer, and drops kept rows past a smaller total', () => {
    const b0 = groupBlock(0, 150);
    const b1 = groupBlock(1, 150, 50);
    const kept = new Map([
      [0, b0],
      [1, b1],
    ]);
    const a = layoutOf([1], [b1], kept, now, NO_TOTALS, []).layout;
    const b = layoutOf([1], [b1], kept, now, NO_TOTALS, []).layout;
    expect(b.rows[3]).toBe(a.rows[3]);
    const filtered = groupBlock(0, 20, 20);
    const smaller = layoutOf([0], [filtered], new Map([...kept, [0, filtered]]), now, NO_TOTALS, []).layout;
    expect(smaller.rows.length).toBe(20);
  });
});
