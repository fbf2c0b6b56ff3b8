/**
 * The timeline's rows in view. The chart knows how many rows there are (a million-fact memory has
 * 100,000) but holds only the blocks fetched so far; every other row is a placeholder of one
 * height. So a row's top is its index × that height, plus what the fetched rows above it add —
 * found by binary search over the fetched rows, never by a pass over every row (a general
 * virtualiser measures all 100,000 on each new layout, the largest part of the screen's first frame).
 */
export interface RowInView {
  index: number;
  /** Top of the row, in px from the top of the list. */
  start: number;
  size: number;
}

export interface RowOffsets {
  count: number;
  totalSize: number;
  startOf(index: number): number;
  sizeOf(index: number): number;
  /** The row at `y` px from the top (the last row below the end; 0 above the start). */
  indexAt(y: number): number;
}

/** Row positions of `rows` (holes: rows not fetched, `placeholder` px high each). */
export function rowOffsets(rows: readonly ({ height: number } | undefined)[], placeholder: number): RowOffsets {
  const fetched: number[] = [];
  const heights: number[] = [];
  rows.forEach((row, index) => {
    if (row === undefined) return;
    fetched.push(index);
    heights.push(row.height);
  });
  // extra[k]: what the first k fetched rows add to the placeholders' heights.
  const extra = new Float64Array(fetched.length + 1);
  for (let k = 0; k < fetched.length; k++) extra[k + 1] = extra[k]! + heights[k]! - placeholder;
  /** How many fetched rows lie before `index`. */
  const fetchedBefore = (index: number) => {
    let lo = 0;
    let hi = fetched.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (fetched[mid]! < index) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const count = rows.length;
  const startOf = (index: number) => index * placeholder + extra[fetchedBefore(index)]!;
  const sizeOf = (index: number) => rows[index]?.height ?? placeholder;
  const indexAt = (y: number) => {
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (startOf(mid) <= y) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  };
  return { count, totalSize: count * placeholder + extra[fetched.length]!, startOf, sizeOf, indexAt };
}

/** The rows between `top` and `top + height` px, and `overscan` more on each side. */
export function rowsInView(offsets: RowOffsets, top: number, height: number, overscan: number): RowInView[] {
  if (offsets.count === 0) return [];
  const first = Math.max(0, offsets.indexAt(top) - overscan);
  const last = Math.min(offsets.count - 1, offsets.indexAt(top + Math.max(0, height - 1)) + overscan);
  const items: RowInView[] = [];
  for (let index = first; index <= last; index++) items.push({ index, start: offsets.startOf(index), size: offsets.sizeOf(index) });
  return items;
}
