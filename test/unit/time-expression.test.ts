import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isIsoUtc } from '../../shared/time';
import { resolveTimeExpression, zoneOfIsoTime } from '../../electron/memory/index';
import { resolveTimeExpression as baseline } from '../fixtures/relative-dates-baseline';
import { TIME_CASES, type TimeCase } from '../fixtures/time-expressions';

const label = (c: TimeCase) => `${JSON.stringify(c.expression)} at ${c.reference.instant} in ${c.reference.zone}`;

describe('resolveTimeExpression', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('has a table of at least 150 expressions, English and Japanese', () => {
    expect(TIME_CASES.length).toBeGreaterThanOrEqual(150);
    expect(TIME_CASES.some((c) => /[ぁ-んァ-ン一-龯]/u.test(c.expression))).toBe(true);
    expect(TIME_CASES.some((c) => /^[a-z]/i.test(c.expression))).toBe(true);
  });

  it.each(TIME_CASES.map((c) => [label(c), c] as const))('%s', (_, c) => {
    const got = resolveTimeExpression(c.expression, c.reference, { ahead: c.ahead });
    expect(got, c.note).toEqual(c.at === null ? null : { at: c.at, precision: c.precision });
  });

  it('gives the same answers whatever the machine’s zone is', () => {
    vi.stubEnv('TZ', 'America/Los_Angeles');
    for (const c of TIME_CASES.slice(0, 40)) expect(resolveTimeExpression(c.expression, c.reference)?.at ?? null, label(c)).toBe(c.at);
  });

  it('never throws on any text, and answers only canonical UTC instants', () => {
    const words = fc.constantFrom('last', 'next', 'this', 'ago', 'in', 'since', 'until', '3', '10000', '0', '2月', '30日', '先週', 'の', '年', '月曜', 'march', 'spring', 'at', '3pm', '15時', '2026-09-01', 'T', '前', '後');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(words, { maxLength: 5 }).map((w) => w.join(' '))), fc.constantFrom('UTC', 'Asia/Tokyo', 'America/New_York', '+05:45'), (text, zone) => {
        const got = resolveTimeExpression(text, { instant: '2026-09-01T00:00:00Z', zone });
        return got === null || (isIsoUtc(got.at) && ['instant', 'day', 'month', 'year'].includes(got.precision));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the names of Object.prototype as words, not as table keys', () => {
    // fast-check found "__proto__" once: the word tables looked it up on a plain object.
    const reference = { instant: '2026-09-01T00:00:00.000Z', zone: 'UTC' };
    for (const word of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__ ago', 'since constructor', '__proto__年']) {
      expect(resolveTimeExpression(word, reference)).toBeNull();
    }
  });

  it('reads the zone of a reference time from its offset', () => {
    expect(zoneOfIsoTime('2026-09-01T08:00:00+09:00')).toBe('+09:00');
    expect(zoneOfIsoTime('2026-09-01T08:00:00-0500')).toBe('-05:00');
    expect(zoneOfIsoTime('2026-09-01T08:00:00Z')).toBe('UTC');
    expect(zoneOfIsoTime('2026-09-01T08:00:00')).toBe('UTC');
    expect(zoneOfIsoTime('2026-09-01')).toBe('UTC');
  });

  it('refuses a reference it cannot read', () => {
    expect(() => resolveTimeExpression('today', { instant: '2026-09-01T00:00:00Z', zone: 'Mars/Olympus' })).toThrow(/unknown time zone/);
    expect(() => resolveTimeExpression('today', { instant: 'soon', zone: 'UTC' })).toThrow(/bad reference time/);
  });

  it('scores better on the table than the resolver it replaced (which works in UTC)', () => {
    const scored = TIME_CASES.map((c) => {
      const fresh = resolveTimeExpression(c.expression, c.reference, { ahead: c.ahead });
      let old: string | null;
      try {
        old = baseline(c.expression, c.reference.instant);
      } catch {
        old = null;
      }
      return { fresh: (fresh?.at ?? null) === c.at && (fresh === null || fresh.precision === c.precision), freshAt: (fresh?.at ?? null) === c.at, old: old === c.at };
    });
    const count = (key: 'fresh' | 'freshAt' | 'old') => scored.filter((s) => s[key]).length;
    console.info(`time expressions: new resolver ${count('fresh')}/${TIME_CASES.length} (at and precision; ${count('freshAt')} on at alone), relative-dates.ts ${count('old')}/${TIME_CASES.length} (at only)`);
    expect(count('fresh')).toBe(TIME_CASES.length);
    expect(count('old')).toBeLessThan(count('fresh'));
  });
});
