/**
 * What the timeline asks for (renderer/src/timeline/use-timeline-window.ts): blocks of rows that
 * cover the rows in view, and a time range around the visible one that small pans and zooms reuse.
 */
import { describe, expect, it } from 'vitest';
import { blocksFor, fetchRange, ROW_BLOCK } from '../../renderer/src/timeline/use-timeline-window';

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
