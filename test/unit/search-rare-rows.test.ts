/**
 * Which terms the full-text search ranks to find candidates (text-search/full-text-search.ts
 * rareRows): those in at most 0.5% of the rows, never fewer than the floor, and never more than
 * 1,000 rows however large the memory — ranking an OR of rare terms costs every row they hold.
 */
import { describe, expect, it } from 'vitest';
import { rareRows } from '../../electron/memory/text-search/full-text-search';

describe('a rare term', () => {
  it('is one in 0.5% of the rows, at least the floor', () => {
    expect(rareRows(10_000, 500)).toBe(500);
    expect(rareRows(10_000, 200)).toBe(200);
    expect(rareRows(100_000, 200)).toBe(500);
    expect(rareRows(100_000, 500)).toBe(500);
    expect(rareRows(150_000, 200)).toBe(750);
  });

  it('holds 1,000 rows at most, from 200k rows on', () => {
    expect(rareRows(199_999, 200)).toBeCloseTo(999.995, 6);
    expect(rareRows(200_000, 200)).toBe(1_000);
    expect(rareRows(200_001, 200)).toBe(1_000);
    expect(rareRows(1_000_000, 200)).toBe(1_000);
    expect(rareRows(1_000_000, 500)).toBe(1_000);
  });

  it('keeps a floor above the cap whole', () => {
    expect(rareRows(1_000_000, 2_000)).toBe(2_000);
  });
});
