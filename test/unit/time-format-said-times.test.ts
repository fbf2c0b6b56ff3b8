/**
 * Three ways the interval formatter (shared/time-format.ts) could say a time wrong, pinned at their
 * boundaries: two times of one day say the date once; an end said at a day, month or year reads as
 * the period said, as the edit and close forms read a typed end; a day reads in the zone (a time on
 * the hour must not read as another zone's midnight), a month or year said elsewhere as said.
 */
import { describe, expect, it } from 'vitest';
import { readTimeInput } from '../../electron/assistant/time-input';
import { resolveTimeExpression } from '../../electron/memory/index';
import type { Precision } from '../../shared/memory-schema';
import { formatEnding, formatInterval, formatSaid, type Interval } from '../../shared/time-format';

const gb = (timeZone: string) => ({ timeZone, locale: 'en-GB' });
const us = (timeZone: string) => ({ timeZone, locale: 'en-US' });
const ja = (timeZone: string) => ({ timeZone, locale: 'ja-JP' });
const interval = (valid_at: string, valid_at_precision: Precision, invalid_at: string, invalid_at_precision: Precision): Interval => ({ valid_at, valid_at_precision, invalid_at, invalid_at_precision });
const ms = (iso: string, delta: number) => new Date(Date.parse(iso) + delta).toISOString();

describe('two times of one day: the date once', () => {
  // 1 Sep 2026, 10:00–14:00 in Tokyo.
  const meeting = interval('2026-09-01T01:00:00.000Z', 'instant', '2026-09-01T05:00:00.000Z', 'instant');
  const after = '2026-12-02T03:00:00.000Z';
  const during = '2026-09-01T03:00:00.000Z';
  const before = '2026-08-01T00:00:00.000Z';

  it('over: "1 Sep 2026, 10:00–14:00", in each locale\'s words', () => {
    expect(formatInterval(meeting, gb('Asia/Tokyo'), after)).toMatch(/^1 Sept? 2026, 10:00–14:00$/);
    expect(formatInterval(meeting, us('Asia/Tokyo'), after)).toBe('Sep 1, 2026, 10:00–14:00');
    expect(formatInterval(meeting, ja('Asia/Tokyo'), after)).toBe('2026年9月1日 10:00〜14:00');
  });

  it('begun: "since 1 Sep 2026, 10:00, until 14:00"; to come: "from 1 Sep 2026, 10:00 until 14:00"', () => {
    expect(formatInterval(meeting, gb('Asia/Tokyo'), during)).toMatch(/^since 1 Sept? 2026, 10:00, until 14:00$/);
    expect(formatInterval(meeting, ja('Asia/Tokyo'), during)).toBe('2026年9月1日 10:00から14:00まで');
    expect(formatInterval(meeting, gb('Asia/Tokyo'), before)).toMatch(/^from 1 Sept? 2026, 10:00 until 14:00$/);
    expect(formatInterval(meeting, ja('Asia/Tokyo'), before)).toBe('2026年9月1日 10:00から14:00まで');
    // At the end itself it is over; a millisecond before it, still "until".
    expect(formatInterval(meeting, us('Asia/Tokyo'), meeting.invalid_at!)).toBe('Sep 1, 2026, 10:00–14:00');
    expect(formatInterval(meeting, us('Asia/Tokyo'), ms(meeting.invalid_at!, -1))).toBe('since Sep 1, 2026, 10:00, until 14:00');
  });

  it('the same day is judged in the reader\'s zone: two days in New York keep both dates', () => {
    expect(formatInterval(meeting, us('America/New_York'), after)).toBe('Aug 31, 2026, 21:00 – Sep 1, 2026, 01:00');
    // 09:00–16:00 in New York is 22:00 on 1 Sep to 05:00 on 2 Sep in Tokyo.
    const newYork = interval('2026-09-01T13:00:00.000Z', 'instant', '2026-09-01T20:00:00.000Z', 'instant');
    expect(formatInterval(newYork, us('America/New_York'), after)).toBe('Sep 1, 2026, 09:00–16:00');
    expect(formatInterval(newYork, gb('Asia/Tokyo'), after)).toMatch(/^1 Sept? 2026, 22:00 – 2 Sept? 2026, 05:00$/);
  });

  it('at the day\'s edge: to its last millisecond the clock; its end (the next midnight) the next day', () => {
    const to = (invalid_at: string) => formatInterval({ ...meeting, invalid_at }, gb('Asia/Tokyo'), after);
    const nextMidnight = '2026-09-01T15:00:00.000Z';
    expect(to(ms(nextMidnight, -1))).toMatch(/^1 Sept? 2026, 10:00–23:59$/);
    expect(to(ms(nextMidnight, -60_000))).toMatch(/^1 Sept? 2026, 10:00–23:59$/);
    expect(to(nextMidnight)).toMatch(/^1 Sept? 2026, 10:00 – 2 Sept? 2026$/);
    expect(to(ms(nextMidnight, 1))).toMatch(/^1 Sept? 2026, 10:00 – 2 Sept? 2026, 00:00$/);
  });

  it('two ends that read as one day say it once, over or still to come', () => {
    // The chat model reads days: 10:00–14:00 is 1 Sep.
    expect(formatInterval(meeting, { ...gb('Asia/Tokyo'), instantsAsDays: true }, after)).toMatch(/^1 Sept? 2026$/);
    expect(formatInterval(meeting, { ...ja('Asia/Tokyo'), instantsAsDays: true }, after)).toBe('2026年9月1日');
    // A day said and an end in its last minute.
    expect(formatInterval(interval('2026-08-31T15:00:00.000Z', 'day', '2026-09-01T14:59:00.000Z', 'instant'), gb('Asia/Tokyo'), after)).toMatch(/^1 Sept? 2026$/);
    // Still to come, the day once too (not "from 1 Sep until 1 Sep 2026").
    expect(formatInterval(meeting, { ...gb('Asia/Tokyo'), instantsAsDays: true }, before)).toMatch(/^1 Sept? 2026$/);
    expect(formatInterval(meeting, { ...ja('Asia/Tokyo'), instantsAsDays: true }, during)).toBe('2026年9月1日');
  });
});

describe('an end said at a day, month or year is the period said, as the forms read it', () => {
  const tokyo = gb('Asia/Tokyo');
  const said = (text: string, zone = 'Asia/Tokyo', now = '2026-12-02T03:00:00.000Z') => resolveTimeExpression(text, { instant: now, zone })!;
  const typed = (text: string, now = '2026-12-02T03:00:00.000Z') => readTimeInput(text, 'invalid_at', now, 'Asia/Tokyo');

  it('"from February to November" is stored at the starts of February and November and reads so', () => {
    const from = said('February 2026');
    const to = said('November 2026');
    expect(to).toEqual({ at: '2026-10-31T15:00:00.000Z', precision: 'month' });
    expect(said('2026年11月まで')).toEqual(to);
    expect(typed('2026-11')).toEqual(to);
    expect(typed('November 2026')).toEqual(to);
    const fact = interval(from.at, from.precision, to.at, to.precision);
    expect(formatInterval(fact, tokyo, '2026-12-02T03:00:00.000Z')).toBe('February – November 2026');
    expect(formatInterval(fact, ja('Asia/Tokyo'), '2026-12-02T03:00:00.000Z')).toBe('2026年2月〜11月');
    expect(formatInterval(fact, tokyo, '2026-06-01T00:00:00.000Z')).toBe('since February 2026, until November 2026');
    expect(formatInterval(fact, ja('Asia/Tokyo'), '2026-06-01T00:00:00.000Z')).toBe('2026年2月から11月まで');
    expect(formatEnding(fact, tokyo, '2026-06-01T00:00:00.000Z')).toBe('until November 2026');
    expect(formatEnding(fact, ja('Asia/Tokyo'), '2026-06-01T00:00:00.000Z')).toBe('2026年11月まで');
    // And in the edit form's field (formatSaid) as on the screens, so what was typed reads back.
    expect(formatSaid(to.at, to.precision, tokyo)).toBe('November 2026');
    expect(formatSaid(to.at, to.precision, tokyo, true)).toBe('November 2026');
  });

  it('a month end at the start of December reads December (the month said: "until December", "since December" after it); a millisecond earlier, November', () => {
    const december = '2026-11-30T15:00:00.000Z';
    const end = (at: string) => formatSaid(at, 'month', tokyo, true);
    expect(end(december)).toBe('December 2026');
    expect(end(ms(december, -1))).toBe('November 2026');
    expect(end(ms(december, 1))).toBe('December 2026');
    expect(formatInterval(interval(said('February 2026').at, 'month', december, 'month'), tokyo, '2027-01-01T00:00:00.000Z')).toBe('February – December 2026');
    // Read in Los Angeles: the month said in Tokyo; the instants off it, the month they fall in there (still November).
    expect(formatSaid(december, 'month', us('America/Los_Angeles'), true)).toBe('December 2026');
    expect(formatSaid(ms(december, -1), 'month', us('America/Los_Angeles'), true)).toBe('November 2026');
    expect(formatSaid(ms(december, 1), 'month', us('America/Los_Angeles'), true)).toBe('November 2026');
  });

  it('a year end likewise', () => {
    const y2027 = '2026-12-31T15:00:00.000Z';
    expect(said('2027')).toEqual({ at: y2027, precision: 'year' });
    expect(formatSaid(y2027, 'year', tokyo, true)).toBe('2027');
    expect(formatSaid(ms(y2027, -1), 'year', tokyo, true)).toBe('2026');
    expect(formatSaid(ms(y2027, 1), 'year', tokyo, true)).toBe('2027');
    expect(formatInterval(interval(said('2025').at, 'year', y2027, 'year'), tokyo, '2027-06-01T00:00:00.000Z')).toBe('2025 – 2027');
  });

  it('a day end at the midnight that starts 2 Sep reads 2 Sep, as a typed "2026-09-02" is stored; a millisecond earlier, 1 Sep', () => {
    const second = '2026-09-01T15:00:00.000Z';
    expect(typed('2026-09-02', '2026-08-01T00:00:00.000Z')).toEqual({ at: second, precision: 'day' });
    expect(said('9月2日まで', 'Asia/Tokyo', '2026-09-10T00:00:00.000Z')).toEqual({ at: second, precision: 'day' });
    expect(formatEnding({ invalid_at: second, invalid_at_precision: 'day' }, tokyo, '2026-12-02T03:00:00.000Z')).toMatch(/^ended 2 Sept? 2026$/);
    expect(formatEnding({ invalid_at: second, invalid_at_precision: 'day' }, tokyo, '2026-08-01T00:00:00.000Z')).toMatch(/^until 2 Sept? 2026$/);
    expect(formatSaid(ms(second, -1), 'day', tokyo, true)).toMatch(/^1 Sept? 2026$/);
    expect(formatSaid(ms(second, 1), 'day', tokyo, true)).toMatch(/^2 Sept? 2026$/);
    expect(formatInterval(interval('2026-08-31T15:00:00.000Z', 'day', second, 'day'), tokyo, '2026-12-02T03:00:00.000Z')).toMatch(/^1 Sept? – 2 Sept? 2026$/);
  });
});

describe('a day reads in the zone: facts do not keep the zone a day was said in', () => {
  it('a day said here reads as said; "9月1日から" said in Tokyo and opened in New York is the evening before there', () => {
    const start = resolveTimeExpression('9月1日から', { instant: '2026-09-01T08:00:00+09:00', zone: 'Asia/Tokyo' })!;
    const fact = { valid_at: start.at, valid_at_precision: start.precision, invalid_at: null, invalid_at_precision: null };
    expect(formatInterval(fact, ja('Asia/Tokyo'), '2026-10-01T00:00:00.000Z')).toBe('2026年9月1日から');
    // The known limit (shared/time-format.ts calendarReading): read where the reader is.
    expect(formatInterval(fact, us('America/New_York'), '2026-10-01T00:00:00.000Z')).toBe('since Aug 31, 2026');
  });

  it('a time on the hour at day precision (an observe line, an agent\'s reference_time) is its own day where it was said', () => {
    // 15:00 in New York is 20:00 UTC, a midnight at +04:00: still 6 Dec in New York, 7 Dec in Tokyo.
    expect(formatSaid('2026-12-06T20:00:00.000Z', 'day', us('America/New_York'))).toBe('Dec 6, 2026');
    expect(formatSaid('2026-12-06T20:00:00.000Z', 'day', us('Asia/Tokyo'))).toBe('Dec 7, 2026');
    // 10:00 in New York is 14:00 UTC, a midnight at +10:00: 1 Sep there.
    expect(formatSaid('2026-09-01T14:00:00.000Z', 'day', us('America/New_York'))).toBe('Sep 1, 2026');
    const observed = interval('2026-09-01T14:00:00.000Z', 'day', '2026-09-15T14:00:00.000Z', 'day');
    expect(formatInterval(observed, us('America/New_York'), '2026-12-02T03:00:00.000Z')).toBe('Sep 1 – Sep 15, 2026');
  });

  it('a month or year said counts only where it starts the period at a real offset', () => {
    // Said in Kiritimati (+14:00): November there began on 31 Oct at 10:00 UTC.
    expect(formatSaid('2026-10-31T10:00:00.000Z', 'month', us('Asia/Tokyo'))).toBe('November 2026');
    // "1900" said in Kolkata, whose clocks then kept +05:21:10.
    expect(formatSaid('1899-12-31T18:38:50.000Z', 'year', us('America/Los_Angeles'))).toBe('1900');
    // Off every offset's start of a month: the month it falls in where it is read.
    expect(formatSaid('2026-10-31T10:00:00.001Z', 'month', us('Asia/Tokyo'))).toBe('October 2026');
  });
});
