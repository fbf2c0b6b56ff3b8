/**
 * Which rows of the timeline are in view (renderer/src/timeline/row-offsets.ts): rows not fetched
 * are placeholders of one height, fetched rows have their own; positions agree with a plain running
 * sum over every row, at the edges of rows and past the ends.
 */
import { describe, expect, it } from 'vitest';
import { rowOffsets, rowsInView } from '../../renderer/src/timeline/row-offsets';

const P = 40;

/** A list of `count` rows, those in `fetched` with their heights. */
function rowsOf(count: number, fetched: Record<number, number>): ({ height: number } | undefined)[] {
  const rows = new Array<{ height: number } | undefined>(count);
  for (const [index, height] of Object.entries(fetched)) rows[Number(index)] = { height };
  return rows;
}

/** The same positions by a running sum over every row. */
function plainStarts(rows: ({ height: number } | undefined)[]): number[] {
  const starts: number[] = [];
  let y = 0;
  for (let i = 0; i < rows.length; i++) {
    starts.push(y);
    y += rows[i]?.height ?? P;
  }
  starts.push(y);
  return starts;
}

describe('the rows in view', () => {
  const rows = rowsOf(1_000, { 0: 30, 1: 90, 2: 40, 500: 200, 501: 10, 999: 55 });
  const offsets = rowOffsets(rows, P);
  const plain = plainStarts(rows);

  it('places every row where a running sum over all rows does', () => {
    for (let i = 0; i < rows.length; i++) {
      expect(offsets.startOf(i)).toBe(plain[i]);
      expect(offsets.sizeOf(i)).toBe(plain[i + 1]! - plain[i]!);
    }
    expect(offsets.totalSize).toBe(plain[rows.length]);
    expect(offsets.count).toBe(1_000);
  });

  it('finds the row at a height: its first pixel is its own, the pixel before is the row above', () => {
    for (const i of [0, 1, 2, 3, 250, 500, 501, 502, 999]) {
      expect(offsets.indexAt(plain[i]!)).toBe(i);
      if (i > 0) expect(offsets.indexAt(plain[i]! - 1)).toBe(i - 1);
    }
    expect(offsets.indexAt(-100)).toBe(0);
    expect(offsets.indexAt(offsets.totalSize + 1_000)).toBe(999);
  });

  it('gives the rows from the top of the view to its bottom, with the overscan on each side', () => {
    const top = plain[500]! + 5;
    const items = rowsInView(offsets, top, 300, 2);
    // From 5 px into 500 (200 px), 501 (10 px), 502–504 (40 px each; the last pixel in 504): two more each side.
    expect(items.map((r) => r.index)).toEqual([498, 499, 500, 501, 502, 503, 504, 505, 506]);
    expect(items.map((r) => r.start)).toEqual(items.map((r) => plain[r.index]));
    expect(rowsInView(offsets, 0, 100, 0).map((r) => r.index)).toEqual([0, 1]);
    expect(rowsInView(offsets, offsets.totalSize - 10, 500, 3).map((r) => r.index)).toEqual([996, 997, 998, 999]);
  });

  it('has none for an empty list, and placeholders only when nothing is fetched', () => {
    expect(rowsInView(rowOffsets([], P), 0, 500, 5)).toEqual([]);
    const none = rowOffsets(new Array(100_000), P);
    expect(none.totalSize).toBe(4_000_000);
    expect(none.indexAt(1_234_567)).toBe(30_864);
  });
});
