import { describe, expect, it } from 'vitest';
import { resolveSlot, type Claim } from '../../electron/memory/temporal/temporal-rules';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const day = (d: string): IsoTime => toIsoUtc(`2026-${d}T00:00:00.000Z`);

function claim(objectKey: string, validAt: string, extra: Partial<Claim<string>> = {}): Claim<string> {
  return { objectKey, validAt: day(validAt), referenceTime: extra.referenceTime ?? day(validAt), end: null, text: `${objectKey}@${validAt}`, payload: objectKey, ...extra };
}

const intervals = (claims: Claim<string>[]) =>
  resolveSlot(claims).map((s) => [s.objectKey, s.validAt.slice(5, 10), s.end ? s.end.at.slice(5, 10) : null]);

describe('temporal rules (pure slot resolution)', () => {
  it('closes the earlier fact at the later one\'s valid_at (the seed example)', () => {
    expect(intervals([claim('A', '09-01'), claim('B', '09-15')])).toEqual([
      ['A', '09-01', '09-15'],
      ['B', '09-15', null],
    ]);
  });

  it('decides direction by dates, not arrival: a late older fact comes out already closed', () => {
    expect(intervals([claim('B', '09-15'), claim('A', '09-01')])).toEqual([
      ['A', '09-01', '09-15'],
      ['B', '09-15', null],
    ]);
  });

  it('breaks equal valid_at by the later episode (reference_time) winning', () => {
    const early = claim('A', '09-01', { referenceTime: day('09-01') });
    const late = claim('B', '09-01', { referenceTime: day('09-02') });
    const spans = resolveSlot([late, early]);
    expect(spans.map((s) => s.objectKey)).toEqual(['A', 'B']);
    expect(spans[0]!.end).toEqual({ at: day('09-01'), kind: 'successor', by: 1 });
    expect(spans[1]!.end).toBeNull();
  });

  it('merges duplicates into one span that keeps every claim', () => {
    const spans = resolveSlot([claim('A', '09-05'), claim('A', '09-01'), claim('A', '09-03')]);
    expect(spans).toHaveLength(1);
    expect(spans[0]!.validAt).toBe(day('09-01'));
    expect(spans[0]!.claims.map((c) => c.text)).toEqual(['A@09-01', 'A@09-03', 'A@09-05']);
  });

  it('keeps A → B → A as three spans', () => {
    expect(intervals([claim('A', '09-01'), claim('B', '09-15'), claim('A', '10-01')])).toEqual([
      ['A', '09-01', '09-15'],
      ['B', '09-15', '10-01'],
      ['A', '10-01', null],
    ]);
  });

  it('honours a stated end and leaves a gap after it', () => {
    const ended = claim('A', '09-01', { end: { at: day('09-10'), kind: 'explicit', by: null } });
    expect(intervals([ended, claim('A', '09-20')])).toEqual([
      ['A', '09-01', '09-10'],
      ['A', '09-20', null],
    ]);
  });

  it('lets a stated end inside an open span close it', () => {
    const ended = claim('A', '09-05', { end: { at: day('09-10'), kind: 'explicit', by: null } });
    expect(intervals([claim('A', '09-01'), ended])).toEqual([['A', '09-01', '09-10']]);
  });

  it('closes a span with a stated end earlier when a successor starts inside it', () => {
    const ended = claim('A', '09-01', { end: { at: day('09-30'), kind: 'explicit', by: null } });
    expect(intervals([ended, claim('B', '09-15')])).toEqual([
      ['A', '09-01', '09-15'],
      ['B', '09-15', null],
    ]);
  });

  it('does not close a span that ended before the next one starts', () => {
    const ended = claim('A', '09-01', { end: { at: day('09-05'), kind: 'explicit', by: null } });
    const spans = resolveSlot([ended, claim('B', '09-15')]);
    expect(spans[0]!.end).toEqual({ at: day('09-05'), kind: 'explicit', by: null });
  });

  it('rejects a claim that ends before it starts', () => {
    expect(() => resolveSlot([claim('A', '09-10', { end: { at: day('09-01'), kind: 'explicit', by: null } })])).toThrow(/before it starts/);
  });

  it('gives the same spans for every permutation of the same claims', () => {
    const claims = [claim('A', '09-01'), claim('B', '09-15'), claim('A', '09-20'), claim('C', '09-15', { referenceTime: day('09-16') }), claim('B', '09-03')];
    const expected = intervals(claims);
    const permute = (xs: Claim<string>[]): Claim<string>[][] =>
      xs.length <= 1 ? [xs] : xs.flatMap((x, i) => permute([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
    for (const order of permute(claims)) expect(intervals(order)).toEqual(expected);
  });
});
