/** Times as people read them (shared/time-format.ts): zone, locale and precision; never the machine's zone. */
import { describe, expect, it } from 'vitest';
import { formatAt, formatInstantWithZone, formatInterval, formatSaid } from '../../shared/time-format';

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

describe('a month or year said keeps its calendar in every zone', () => {
  const losAngeles = { timeZone: 'America/Los_Angeles', locale: 'en-US' };
  const auckland = { timeZone: 'Pacific/Auckland', locale: 'en-GB' };
  const honolulu = { timeZone: 'Pacific/Honolulu', locale: 'en-US' };

  it('"in 2025", "in March" said in Tokyo read the same in Los Angeles', () => {
    // Stored as the start of the period in Tokyo: 2024-12-31T15:00Z is still 2024 in Los Angeles.
    expect(formatSaid('2024-12-31T15:00:00.000Z', 'year', losAngeles)).toBe('2025');
    expect(formatSaid('2026-02-28T15:00:00.000Z', 'month', losAngeles)).toBe('March 2026');
    expect(formatInterval({ valid_at: '2024-12-31T15:00:00.000Z', valid_at_precision: 'year', invalid_at: null, invalid_at_precision: null }, losAngeles, '2026-12-01T00:00:00Z')).toBe('since 2025');
    expect(formatInterval({ valid_at: '2025-12-31T15:00:00.000Z', valid_at_precision: 'month', invalid_at: '2026-02-28T15:00:00.000Z', invalid_at_precision: 'month' }, losAngeles, '2026-12-01T00:00:00Z')).toBe('January – March 2026');
  });

  it('said in Los Angeles, Auckland or Honolulu, read in Tokyo', () => {
    expect(formatSaid('2026-03-01T08:00:00.000Z', 'month', tokyo)).toBe('March 2026');
    expect(formatSaid('2025-01-01T08:00:00.000Z', 'year', japanese)).toBe('2025年');
    // Auckland in summer is 13 hours ahead: 2026 began there on 31 Dec 11:00 UTC; Honolulu is 10 behind.
    expect(formatSaid('2025-12-31T11:00:00.000Z', 'year', tokyo)).toBe('2026');
    expect(formatSaid('2026-06-01T10:00:00.000Z', 'month', tokyo)).toBe('June 2026');
    expect(formatSaid('2026-06-01T10:00:00.000Z', 'month', { timeZone: '+05:30', locale: 'en-GB' })).toBe('June 2026');
  });

  it('one said in the zone it is read in reads as it always did, at both ends of the world', () => {
    expect(formatSaid('2026-06-01T10:00:00.000Z', 'month', honolulu)).toBe('June 2026');
    expect(formatSaid('2025-12-31T11:00:00.000Z', 'year', auckland)).toBe('2026');
    expect(formatSaid('2026-02-28T15:00:00.000Z', 'month', tokyo)).toBe('March 2026');
  });

  it('a day or an instant reads in the zone: a fact with no start of its own is its message’s time at day precision', () => {
    // Said at 15:00 in New York (20:00 UTC), with no start: 6 Dec there, 7 Dec in Tokyo.
    expect(formatSaid('2026-12-06T20:00:00.000Z', 'day', newYork)).toBe('Dec 6, 2026');
    expect(formatSaid('2026-12-06T20:00:00.000Z', 'day', tokyo)).toMatch(/^7 Dec 2026$/);
    expect(formatSaid('2026-09-14T15:00:00.000Z', 'instant', losAngeles)).toBe('Sep 14, 2026, 08:00');
    expect(formatSaid('2026-09-15T07:00:00.000Z', 'instant', losAngeles)).toBe('Sep 15, 2026');
    // A moment read at a month (formatAt: the month it falls in there) is not a month said.
    expect(formatAt('2026-02-28T15:00:00.000Z', 'month', losAngeles)).toBe('February 2026');
    const endOfYear = { valid_at: '2026-09-01T01:00:00.000Z', valid_at_precision: 'instant', invalid_at: '2026-12-31T14:59:00.000Z', invalid_at_precision: 'instant' } as const;
    expect(formatInterval(endOfYear, tokyo, '2026-10-01T00:00:00Z')).toMatch(/^since 1 Sept? 2026, 10:00, until 31 Dec 2026$/);
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
