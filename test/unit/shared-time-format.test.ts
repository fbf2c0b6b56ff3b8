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

describe('a start and an end that name one period say it once', () => {
  // Said in Tokyo: June starts 2026-05-31T15:00Z; "6月まで" said in June holds to its last instant.
  const june = '2026-05-31T15:00:00.000Z';
  const endOfJune = '2026-06-30T14:59:59.999Z';
  const [before, during, after] = ['2026-05-01T00:00:00.000Z', '2026-06-15T03:00:00.000Z', '2026-12-02T03:00:00.000Z'];
  type P = 'instant' | 'day' | 'month' | 'year';
  const fact = (valid_at: string, valid_at_precision: P, invalid_at: string | null, invalid_at_precision: P | null) => ({ valid_at, valid_at_precision, invalid_at, invalid_at_precision });
  const say = (f: ReturnType<typeof fact>, now: string, zone = 'Asia/Tokyo'): [string, string] =>
    [formatInterval(f, { timeZone: zone, locale: 'en-GB' }, now), formatInterval(f, { timeZone: zone, locale: 'ja-JP' }, now)];

  it('June, said at month precision at both ends, is "June 2026" before, during and after it', () => {
    for (const now of [before, during, after]) expect(say(fact(june, 'month', endOfJune, 'month'), now)).toEqual(['June 2026', '2026年6月']);
    // An end stored at the start of the month said ("until June" typed) names the same month.
    expect(say(fact(june, 'month', june, 'month'), after)).toEqual(['June 2026', '2026年6月']);
  });

  it('a day start on the 1st with a month end is the month; on the 2nd it is not', () => {
    for (const now of [before, during, after]) expect(say(fact(june, 'day', endOfJune, 'month'), now)).toEqual(['June 2026', '2026年6月']);
    const second = '2026-06-01T15:00:00.000Z';
    expect(say(fact(second, 'day', endOfJune, 'month'), during)).toEqual(['since 2 Jun 2026, until June 2026', '2026年6月2日から6月まで']);
    expect(say(fact(second, 'day', endOfJune, 'month'), after)).toEqual(['2 Jun – June 2026', '2026年6月2日〜6月']);
    expect(say(fact(second, 'day', endOfJune, 'month'), before)).toEqual(['from 2 Jun until June 2026', '2026年6月2日から6月まで']);
  });

  it('a month start with an end on its last day, or in its last minute, is the month', () => {
    expect(say(fact(june, 'month', '2026-06-29T15:00:00.000Z', 'day'), during)).toEqual(['June 2026', '2026年6月']);
    expect(say(fact(june, 'month', '2026-06-30T14:59:00.000Z', 'instant'), after)).toEqual(['June 2026', '2026年6月']);
    // A day earlier it is not; two days said are said as days.
    expect(say(fact(june, 'month', '2026-06-28T15:00:00.000Z', 'day'), during)).toEqual(['since June 2026, until 29 Jun 2026', '2026年6月から6月29日まで']);
    expect(say(fact(june, 'day', '2026-06-29T15:00:00.000Z', 'day'), after)).toEqual(['1 Jun – 30 Jun 2026', '2026年6月1日〜6月30日']);
  });

  it('a month start with an instant end keeps the clock', () => {
    const meeting = fact(june, 'month', '2026-06-15T01:00:00.000Z', 'instant');
    expect(say(meeting, '2026-06-10T00:00:00.000Z')).toEqual(['since June 2026, until 15 Jun 2026, 10:00', '2026年6月から2026年6月15日 10:00まで']);
    expect(say(meeting, after)).toEqual(['June – 15 Jun 2026, 10:00', '2026年6月〜2026年6月15日 10:00']);
  });

  it('one day said at both ends is that day, also still to come', () => {
    const first = '2026-08-31T15:00:00.000Z';
    for (const now of ['2026-08-01T00:00:00.000Z', '2026-09-01T03:00:00.000Z', after]) {
      const [en, ja] = say(fact(first, 'day', '2026-09-01T14:59:59.999Z', 'day'), now);
      expect([en.replace('Sept', 'Sep'), ja]).toEqual(['1 Sep 2026', '2026年9月1日']);
    }
  });

  it('a year, from a year, its January or its 1 January', () => {
    const year = '2025-12-31T15:00:00.000Z';
    const endOfYear = '2026-12-31T14:59:59.999Z';
    for (const precision of ['year', 'month', 'day'] as const) expect(say(fact(year, precision, endOfYear, 'year'), during)).toEqual(['2026', '2026年']);
    expect(say(fact('2026-01-31T15:00:00.000Z', 'month', endOfYear, 'year'), during)).toEqual(['since February 2026, until 2026', '2026年2月から2026年まで']);
  });

  it('is decided in the zone it is read in', () => {
    // 1 June and June said in Tokyo, read in UTC: the day is 31 May there, the month said is still June.
    expect(say(fact(june, 'day', endOfJune, 'month'), during, 'UTC')).toEqual(['since 31 May 2026, until June 2026', '2026年5月31日から6月まで']);
    expect(say(fact(june, 'month', endOfJune, 'month'), during, 'UTC')).toEqual(['June 2026', '2026年6月']);
    // June said in UTC, read in Tokyo: its last instant is 1 July 08:59 there.
    const utc = fact('2026-06-01T00:00:00.000Z', 'day', '2026-06-30T23:59:59.999Z', 'month');
    expect(say(utc, during, 'UTC')).toEqual(['June 2026', '2026年6月']);
    expect(say(utc, during)).toEqual(['since 1 Jun 2026, until July 2026', '2026年6月1日から7月まで']);
  });

  it('an open end is said as before', () => {
    expect(say(fact(june, 'month', null, null), during)).toEqual(['since June 2026', '2026年6月から']);
    expect(say(fact(june, 'day', null, null), before)).toEqual(['from 1 Jun 2026', '2026年6月1日から']);
  });
});
