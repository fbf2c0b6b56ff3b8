import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { forEachRow, packRows } from '../../electron/memory/transfer/bulk-load-protocol';

describe('rows packed for the bulk-load worker', () => {
  it('unpack to exactly the rows packed: nulls, empty strings, surrogate pairs, any count', () => {
    const value = fc.option(fc.string({ unit: 'grapheme', maxLength: 12 }), { nil: null });
    fc.assert(
      fc.property(fc.array(fc.tuple(value, value, value), { maxLength: 40 }), (rows) => {
        const packed = packRows(rows, [(r) => r[0], (r) => r[1], (r) => r[2]]);
        const back: (string | null)[][] = [];
        forEachRow(packed, (values) => back.push([...values]));
        expect(back).toEqual(rows);
      }),
    );
    const packed = packRows([{ a: '𠮷野家', b: null }, { a: '', b: 'x' }], [(r) => r.a, (r) => r.b]);
    expect(Array.from(packed.lengths)).toEqual([4, -1, 0, 1]);
  });
});
