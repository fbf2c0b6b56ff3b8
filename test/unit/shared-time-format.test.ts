/** Times as people read them (shared/time-format.ts): zone, locale and precision; never the machine's zone. */
import { describe, expect, it } from 'vitest';
import { formatAt, formatInstantWithZone, formatInterval } from '../../shared/time-format';

const tokyo = { timeZone: 'Asia/Tokyo', locale: 'en-GB' };
const newYork = { timeZone: 'America/New_York', locale: 'en-US' };
const japanese = { timeZone: 'Asia/Tokyo', locale: 'ja-JP' };

describe('formatAt', () => {
  it('shows each precision', () => {
    expect(formatAt('2026-08-31T15:00:00.000Z', 'day', tokyo)).toMatch(/^1 Sept? 2026$/);
    expect(formatAt('2026-02-28T15:00:00.000Z', 'month', tokyo)).toBe('March 2026');
    expect(formatAt('2025-12-31T15:00:00.000Z', 'year', tokyo)).toBe('2026');
    expect(formatAt('2026-09-01T01:00:00.000Z', 'instant', tokyo)).toMatch(/^1 Sept? 2026, 10:00$/);
  });

  it('is in the zone given, across DST, not the machine\'s', () => {
    expect(formatAt('2026-03-08T06:59:00.000Z', 'instant', newYork)).toBe('Mar 8, 2026, 01:59');
    expect(formatAt('2026-03-08T07:00:00.000Z', 'instant', newYork)).toBe('Mar 8, 2026, 03:00');
    expect(formatAt('2026-09-01T01:00:00.000Z', 'instant', { timeZone: '+05:30', locale: 'en-GB' })).toMatch(/, 06:30$/);
  });

  it('names the zone where a reader could not tell', () => {
    expect(formatInstantWithZone('2026-09-01T01:00:00.000Z', tokyo)).toMatch(/10:00 GMT\+9$/);
    expect(formatInstantWithZone('2026-09-01T01:00:00.000Z', { timeZone: '-03:00', locale: 'en-GB' })).toMatch(/22:00 UTC-03:00$/);
  });

  it('leaves a string that is not a time as it is', () => {
    expect(formatAt('soon', 'day', tokyo)).toBe('soon');
  });
});

describe('formatInterval', () => {
  const now = '2026-12-02T03:00:00.000Z';
  const interval = (valid_at: string, valid_at_precision: 'day' | 'month' | 'instant', invalid_at: string | null = null, invalid_at_precision: 'day' | 'month' | 'instant' | null = null) => ({ valid_at, valid_at_precision, invalid_at, invalid_at_precision });

  it('"since March 2026" for an open fact, with the precision it was said in', () => {
    expect(formatInterval(interval('2026-02-28T15:00:00.000Z', 'month'), tokyo, now)).toBe('since March 2026');
    expect(formatInterval(interval('2026-02-28T15:00:00.000Z', 'month'), japanese, now)).toBe('2026年3月から');
  });

  it('"1 Sep – 15 Sep 2026": the year once when both ends share it', () => {
    expect(formatInterval(interval('2026-08-31T15:00:00.000Z', 'day', '2026-09-14T15:00:00.000Z', 'day'), tokyo, now)).toMatch(/^1 Sept? – 15 Sept? 2026$/);
    expect(formatInterval(interval('2025-12-19T15:00:00.000Z', 'day', '2026-01-14T15:00:00.000Z', 'day'), tokyo, now)).toBe('20 Dec 2025 – 15 Jan 2026');
    expect(formatInterval(interval('2025-11-30T15:00:00.000Z', 'month', '2026-01-14T15:00:00.000Z', 'day'), tokyo, now)).toBe('December 2025 – 15 Jan 2026');
    expect(formatInterval(interval('2026-08-31T15:00:00.000Z', 'day', '2026-09-14T15:00:00.000Z', 'day'), japanese, now)).toBe('2026年9月1日〜9月15日');
  });

  it('an end said without a precision is an instant', () => {
    expect(formatInterval({ valid_at: '2026-09-01T00:00:00.000Z', valid_at_precision: 'day', invalid_at: '2026-09-15T06:00:00.000Z', invalid_at_precision: null }, { timeZone: 'UTC', locale: 'en-GB' }, now)).toMatch(/– 15 Sept? 2026, 06:00$/);
  });
});
