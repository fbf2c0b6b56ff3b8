import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { isIsoUtc, isoFromDate, isoFromMs, nowIso, toIsoUtc, type IsoTime } from '../../shared/time';

describe('time', () => {
  it('canonicalises ISO input to UTC with milliseconds, reading a missing zone as UTC', () => {
    expect(toIsoUtc('2026-09-01T10:00:00+09:00')).toBe('2026-09-01T01:00:00.000Z');
    expect(toIsoUtc('2026-09-01')).toBe('2026-09-01T00:00:00.000Z');
    expect(toIsoUtc('2026-09-01T10:00')).toBe('2026-09-01T10:00:00.000Z');
    expect(() => toIsoUtc('2026-02-30')).toThrow('2026-02-30 is not a date: February 2026 has 28 days');
    expect(() => toIsoUtc('2026-13-01T10:00')).toThrow('2026-13-01T10:00 is not a date: there is no month 13');
    expect(() => toIsoUtc('2026-09-01T10:00:00+25:00')).toThrow('2026-09-01T10:00:00+25:00 is not a time: there is no UTC offset +25:00');
    expect(() => toIsoUtc('yesterday')).toThrow(/not an ISO-8601/);
    // years below 100 are years, not 1900 + year
    expect(toIsoUtc('0050-03-01')).toBe('0050-03-01T00:00:00.000Z');
    expect(toIsoUtc('0004-02-29T12:00:00Z')).toBe('0004-02-29T12:00:00.000Z');
    expect(() => toIsoUtc('0003-02-29')).toThrow('0003-02-29 is not a date: February 0003 has 28 days');
  });

  it('writes Dates and epoch milliseconds canonically, refusing instants it could not store', () => {
    expect(isoFromDate(new Date(Date.UTC(2026, 8, 1, 1)))).toBe('2026-09-01T01:00:00.000Z');
    expect(isoFromMs(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(isIsoUtc(nowIso())).toBe(true);
    expect(() => isoFromMs(Date.parse('9999-12-31T23:59:59.999Z') + 1)).toThrow('out of range: +010000-01-01T00:00:00.000Z is outside 0000-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z UTC');
    expect(() => isoFromDate(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('accepts only canonical UTC instants that exist', () => {
    expect(isIsoUtc('2026-09-01T01:00:00.000Z')).toBe(true);
    expect(isIsoUtc('2024-02-29T00:00:00.000Z')).toBe(true);
    expect(isIsoUtc('2026-02-29T00:00:00.000Z')).toBe(false);
    expect(isIsoUtc('2026-02-30T01:00:00.000Z')).toBe(false);
    expect(isIsoUtc('2026-04-31T01:00:00.000Z')).toBe(false);
    expect(isIsoUtc('2026-09-01T24:00:00.000Z')).toBe(false);
    expect(isIsoUtc('2026-09-01T01:00:00Z')).toBe(false);
    expect(isIsoUtc('2026-09-01')).toBe(false);
    expect(isIsoUtc('0000-01-01T00:00:00.000Z')).toBe(true);
    expect(isIsoUtc('2026-09-01T01:00:00.000z')).toBe(false);
    expect(isIsoUtc('2026-09-01T01:00:0a.000Z')).toBe(false);
    expect(isIsoUtc('2026-09-01 01:00:00.000Z')).toBe(false);
  });

  it('agrees with Date on every canonical-looking string, real or not', () => {
    const reference = (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(s) && !Number.isNaN(Date.parse(s)) && new Date(s).toISOString() === s;
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const candidate = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), two(14), two(32), two(25), two(61), two(61), fc.integer({ min: 0, max: 999 }))
      .map(([y, mo, d, h, mi, s, ms]) => `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}.${String(ms).padStart(3, '0')}Z`);
    fc.assert(fc.property(candidate, (s) => isIsoUtc(s) === reference(s)), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ maxLength: 30 }), (s) => isIsoUtc(s) === reference(s)));
  });

  it('treats intervals as half-open, as the store answers them', () => {
    // A is true over [09-01, 09-15), B from 09-15 on: the store is the one place the rule lives.
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z', 1000) });
    try {
      m.facts.observe([
        { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T00:00:00Z', cardinality: 'one' },
        { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', reference_time: '2026-09-15T00:00:00Z', cardinality: 'one' },
      ]);
      const objectsAsOf = (t: IsoTime) => m.facts.list({ asOf: t }).map((f) => f.object);
      expect(objectsAsOf('2026-09-01T00:00:00.000Z')).toEqual(['A']);
      expect(objectsAsOf('2026-08-31T23:59:59.999Z')).toEqual([]);
      // [09-01, 09-15) and [09-15, …) share no instant; [09-14, …) would.
      expect(objectsAsOf('2026-09-15T00:00:00.000Z')).toEqual(['B']);
      expect(objectsAsOf('2026-09-14T23:59:59.999Z')).toEqual(['A']);
    } finally {
      m.close();
    }
  });
});
