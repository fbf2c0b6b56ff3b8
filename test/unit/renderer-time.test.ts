/**
 * The renderer's time helpers: wall clocks in a zone and back (DST gaps and repeats), the values of
 * date / datetime-local fields, the text an edit field starts with, the timeline's days and ticks
 * in the user's zone. Every zone is passed explicitly, so the machine's own zone does not matter.
 */
import { describe, expect, it } from 'vitest';
import { formatInterval, formatMoment } from '../../renderer/src/common/format';
import { toDateInputValue } from '../../renderer/src/common/time-input';
import { displayZone, isStartOfDay, offsetMs, roundToDay, roundToHour, startOfDay, wallOf, wallToUtc } from '../../renderer/src/common/zoned-time';
import { snap, ticks } from '../../renderer/src/timeline/timeline-scale';

const H = 3_600_000;
const DAY = 24 * H;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('zone offsets and wall clocks', () => {
  it('gives the offset in force at an instant', () => {
    expect(offsetMs(at('2026-09-01T01:00:00Z'), 'Asia/Tokyo')).toBe(9 * H);
    expect(offsetMs(at('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(-4 * H);
    expect(offsetMs(at('2026-01-01T12:00:00Z'), 'America/New_York')).toBe(-5 * H);
    expect(offsetMs(at('2026-01-01T12:00:00Z'), 'Asia/Kolkata')).toBe(5.5 * H);
    expect(offsetMs(at('2026-01-01T12:00:00Z'), '+09:00')).toBe(9 * H);
    expect(offsetMs(at('2026-01-01T12:00:00Z'), '-03:30')).toBe(-3.5 * H);
    expect(offsetMs(at('2026-01-01T12:00:00Z'), 'UTC')).toBe(0);
  });

  it('reads the wall time of an instant, a Tokyo morning being the next day', () => {
    expect(wallOf(at('2026-08-31T23:30:00Z'), 'Asia/Tokyo')).toEqual({ year: 2026, month: 9, day: 1, hour: 8, minute: 30, second: 0 });
    expect(wallOf(at('2026-08-31T23:30:00Z'), '+09:00')).toEqual({ year: 2026, month: 9, day: 1, hour: 8, minute: 30, second: 0 });
    expect(wallOf(at('0050-06-01T00:00:00Z'), 'UTC')).toMatchObject({ year: 50, month: 6, day: 1 });
  });

  it('turns a wall time back into its instant', () => {
    expect(iso(wallToUtc({ year: 2026, month: 9, day: 1, hour: 10, minute: 0 }, 'Asia/Tokyo'))).toBe('2026-09-01T01:00:00.000Z');
    expect(iso(wallToUtc({ year: 2026, month: 9, day: 1, hour: 10, minute: 0 }, 'Europe/Berlin'))).toBe('2026-09-01T08:00:00.000Z');
    expect(iso(wallToUtc({ year: 2026, month: 1, day: 15, hour: 10, minute: 0 }, 'Europe/Berlin'))).toBe('2026-01-15T09:00:00.000Z');
    expect(iso(wallToUtc({ year: 2026, month: 9, day: 1, hour: 0, minute: 0 }, '-03:30'))).toBe('2026-09-01T03:30:00.000Z');
    expect(iso(wallToUtc({ year: 50, month: 6, day: 1, hour: 0, minute: 0 }, 'UTC'))).toBe('0050-06-01T00:00:00.000Z');
  });

  it('moves a time in a spring-forward gap forward, as the clock does', () => {
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT; 02:30 does not happen.
    expect(iso(wallToUtc({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(wallToUtc({ year: 2026, month: 3, day: 8, hour: 3, minute: 30 }, 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    expect(iso(wallToUtc({ year: 2026, month: 3, day: 8, hour: 1, minute: 30 }, 'America/New_York'))).toBe('2026-03-08T06:30:00.000Z');
    // Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST.
    expect(iso(wallToUtc({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe('2026-03-29T01:30:00.000Z');
  });

  it('takes the first of an hour that happens twice', () => {
    // New York, 1 November 2026: 01:30 happens at 05:30Z (EDT) and again at 06:30Z (EST).
    expect(iso(wallToUtc({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York'))).toBe('2026-11-01T05:30:00.000Z');
    expect(iso(wallToUtc({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('finds the start of a day, the nearest day and the nearest hour in the zone', () => {
    expect(iso(startOfDay(at('2026-09-01T01:00:00Z'), 'Asia/Tokyo'))).toBe('2026-08-31T15:00:00.000Z');
    expect(iso(startOfDay(at('2026-08-31T16:00:00Z'), 'Asia/Tokyo'))).toBe('2026-08-31T15:00:00.000Z');
    expect(iso(startOfDay(at('2026-03-08T12:00:00Z'), 'America/New_York'))).toBe('2026-03-08T05:00:00.000Z');
    expect(iso(roundToDay(at('2026-09-10T00:00:00Z'), 'Asia/Tokyo'))).toBe('2026-09-09T15:00:00.000Z');
    expect(iso(roundToDay(at('2026-09-10T04:00:00Z'), 'Asia/Tokyo'))).toBe('2026-09-10T15:00:00.000Z');
    // 10:10Z is 15:40 in Kolkata (+05:30): its nearest whole hour is 16:00 there.
    expect(iso(roundToHour(at('2026-01-01T10:10:00Z'), 'Asia/Kolkata'))).toBe('2026-01-01T10:30:00.000Z');
    expect(isStartOfDay(at('2026-08-31T15:00:00Z'), 'Asia/Tokyo')).toBe(true);
    expect(isStartOfDay(at('2026-09-01T00:00:00Z'), 'Asia/Tokyo')).toBe(false);
  });

  it('gives Intl a zone it can format in', () => {
    expect(displayZone('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(['+09:00', 'Etc/GMT-9']).toContain(displayZone('+09:00'));
    expect(['-05:00', 'Etc/GMT+5']).toContain(displayZone('-05:00'));
    expect(displayZone('Nowhere/Special')).toBe('UTC');
  });
});

describe('days in the user zone', () => {
  it('gives an instant\'s calendar day in the zone', () => {
    expect(toDateInputValue('2026-08-31T23:30:00Z', 'Asia/Tokyo')).toBe('2026-09-01');
    expect(toDateInputValue('2026-08-31T23:30:00Z', 'UTC')).toBe('2026-08-31');
    expect(toDateInputValue(at('2026-08-31T23:30:00Z'), 'America/New_York')).toBe('2026-08-31');
  });
});

describe('times shown and the timeline in the user zone', () => {
  const tokyo = { timeZone: 'Asia/Tokyo', locale: 'en-US' };

  it('shows a day-grid moment as a day at the zone’s midnight, else to the minute', () => {
    expect(formatMoment('2026-09-09T15:00:00.000Z', tokyo)).toBe('Sep 10, 2026');
    expect(formatMoment(at('2026-09-10T00:00:00.000Z'), tokyo)).toBe('Sep 10, 2026, 09:00');
    expect(formatMoment('2026-09-10T00:00:00.000Z', { timeZone: 'UTC', locale: 'en-GB' })).toBe('10 Sept 2026');
  });

  it('shows a day typed as an as-of (its last millisecond) as that day, a minute before it to the minute', () => {
    expect(formatMoment('2026-09-10T14:59:59.999Z', tokyo)).toBe('Sep 10, 2026');
    expect(formatMoment('2026-09-10T14:59:00.000Z', tokyo)).toBe('Sep 10, 2026, 23:59');
    expect(formatMoment('2026-09-10T14:58:59.999Z', tokyo)).toBe('Sep 10, 2026, 23:58');
  });

  it('shows a fact’s interval at its precision, in the zone', () => {
    const kyoto = { valid_at: '2026-07-09T15:00:00.000Z', valid_at_precision: 'day', invalid_at: '2026-07-13T15:00:00.000Z', invalid_at_precision: 'day' } as const;
    const now = '2026-12-02T03:00:00.000Z';
    expect(formatInterval(kyoto, tokyo, now)).toBe('Jul 10 – Jul 14, 2026');
    expect(formatInterval(kyoto, { timeZone: 'UTC', locale: 'en-US' }, now)).toBe('Jul 9 – Jul 13, 2026');
    expect(formatInterval({ valid_at: '2026-02-28T15:00:00.000Z', valid_at_precision: 'month', invalid_at: null, invalid_at_precision: null }, tokyo, now)).toBe('since March 2026');
  });

  it('snaps the cursor to the zone’s days', () => {
    const wide = { from: at('2026-01-01T00:00:00Z'), to: at('2026-12-31T00:00:00Z') };
    expect(iso(snap(at('2026-09-10T02:00:00Z'), wide, 1000, 'Asia/Tokyo'))).toBe('2026-09-09T15:00:00.000Z');
    expect(iso(snap(at('2026-09-10T02:00:00Z'), wide, 1000))).toBe('2026-09-10T00:00:00.000Z');
    // 02:20Z is 07:50 in Kolkata: the nearest midnight there is that day's, 18:30Z the day before.
    const narrow = { from: at('2026-09-10T00:00:00Z'), to: at('2026-09-10T12:00:00Z') };
    expect(iso(snap(at('2026-09-10T02:20:00Z'), narrow, 1000, 'Asia/Kolkata'))).toBe('2026-09-09T18:30:00.000Z');
  });

  it('puts ticks on the zone’s calendar boundaries, labelled for the locale', () => {
    const months = ticks({ from: at('2026-03-01T00:00:00Z'), to: at('2026-10-15T00:00:00Z') }, 720, tokyo);
    expect(months.length).toBeGreaterThan(3);
    for (const tick of months) expect(isStartOfDay(tick.ms, 'Asia/Tokyo')).toBe(true);
    expect(months.map((t) => iso(t.ms))).toContain('2026-08-31T15:00:00.000Z');
    expect(months.find((t) => iso(t.ms) === '2026-08-31T15:00:00.000Z')?.label).toMatch(/^Sep/);
    const japanese = ticks({ from: at('2026-03-01T00:00:00Z'), to: at('2026-10-15T00:00:00Z') }, 720, { timeZone: 'Asia/Tokyo', locale: 'ja-JP' });
    expect(japanese.map((t) => t.label)).toContain('2026年9月');

    // Daily ticks across New York's spring change: every one a local midnight, 23 hours apart once.
    const days = ticks({ from: at('2026-03-05T00:00:00Z'), to: at('2026-03-12T00:00:00Z') }, 700, { timeZone: 'America/New_York', locale: 'en-US' });
    expect(days.length).toBeGreaterThanOrEqual(6);
    for (const tick of days) expect(isStartOfDay(tick.ms, 'America/New_York')).toBe(true);
    const gaps = days.slice(1).map((t, i) => t.ms - days[i]!.ms);
    expect(gaps).toContain(23 * H);
    expect(gaps.filter((g) => g !== DAY && g !== 23 * H)).toEqual([]);
    expect(days.find((t) => iso(t.ms) === '2026-03-08T05:00:00.000Z')?.label).toBe('Mar 8');

    const hours = ticks({ from: at('2026-09-01T00:00:00Z'), to: at('2026-09-01T12:00:00Z') }, 1000, tokyo);
    expect(hours.map((t) => t.label)).toContain('10:00');
  });
});
