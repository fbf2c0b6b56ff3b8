/**
 * The one zone module (shared/time-zone.ts): a zone read as people write it, checked, and turned
 * into wall clocks and back, the same for memory, the assistant, the faces and the page. Every zone
 * is passed explicitly, so the machine's own zone does not matter.
 */
import { describe, expect, it } from 'vitest';
import { checkedZone, displayZone, fixedOffsetMinutes, hasZoneSuffix, isKnownZone, offsetMs, startOfDay, systemTimeZone, wallOf, wallToUtc, zoneId, zoneOfIsoTime } from '../../shared/time-zone';

const H = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('reading a zone', () => {
  it('reads fixed offsets with or without a colon, and "Z"', () => {
    expect(fixedOffsetMinutes('+09:00')).toBe(540);
    expect(fixedOffsetMinutes('-0530')).toBe(-330);
    expect(fixedOffsetMinutes(' +05:45 ')).toBe(345);
    expect(fixedOffsetMinutes('z')).toBe(0);
    expect(fixedOffsetMinutes('Asia/Tokyo')).toBeNull();
    expect(fixedOffsetMinutes('+9')).toBeNull();
  });

  it('names a zone as Temporal takes it, and knows which it does not know', () => {
    expect(zoneId('')).toBe('UTC');
    expect(zoneId('Z')).toBe('UTC');
    expect(zoneId('+0900')).toBe('+09:00');
    expect(zoneId(' Asia/Tokyo ')).toBe('Asia/Tokyo');
    expect(zoneId('Mars/Olympus')).toBeNull();
    expect(isKnownZone('Europe/Berlin')).toBe(true);
    expect(isKnownZone('Mars/Olympus')).toBe(false);
    expect(() => checkedZone('Mars/Olympus')).toThrow('unknown time zone "Mars/Olympus" (use an IANA name like Asia/Tokyo, or an offset like +09:00)');
  });

  it('finds the zone a written time carries', () => {
    expect(hasZoneSuffix('2026-09-01T10:00:00+09:00')).toBe(true);
    expect(hasZoneSuffix('2026-09-01T10:00:00z')).toBe(true);
    expect(hasZoneSuffix('2026-09-01T10:00:00')).toBe(false);
    expect(zoneOfIsoTime('2026-09-01T10:00:00+0900')).toBe('+09:00');
    expect(zoneOfIsoTime('2026-09-01T10:00:00Z')).toBe('UTC');
    expect(zoneOfIsoTime('2026-09-01')).toBe('UTC');
  });
});

describe("the machine's zone", () => {
  it('follows $TZ each time it is set, though it is read once per setting', () => {
    const before = process.env['TZ'];
    try {
      process.env['TZ'] = 'Asia/Tokyo';
      expect(systemTimeZone()).toBe('Asia/Tokyo');
      expect(systemTimeZone()).toBe('Asia/Tokyo');
      process.env['TZ'] = 'America/New_York';
      expect(systemTimeZone()).toBe('America/New_York');
      process.env['TZ'] = 'Asia/Tokyo';
      expect(systemTimeZone()).toBe('Asia/Tokyo');
    } finally {
      if (before === undefined) delete process.env['TZ'];
      else process.env['TZ'] = before;
    }
  });
});

describe('wall clocks in a zone', () => {
  it('gives offsets for names and fixed offsets alike', () => {
    expect(offsetMs(Date.parse('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(-4 * H);
    expect(offsetMs(Date.parse('2026-07-01T12:00:00Z'), '-03:30')).toBe(-3.5 * H);
    expect(offsetMs(Date.parse('2026-07-01T12:00:00Z') + 0.5, 'Asia/Kolkata')).toBe(5.5 * H);
  });

  it('reads a wall time back across DST as a clock does', () => {
    // New York springs forward at 02:00 on 8 March 2026: 02:30 does not exist and reads as 03:30 EDT.
    expect(iso(wallToUtc({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, 'America/New_York'))).toBe('2026-03-08T07:30:00.000Z');
    // Berlin falls back at 03:00 on 25 October 2026: 02:30 happens twice, the first (CEST) is taken.
    expect(iso(wallToUtc({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin'))).toBe('2026-10-25T00:30:00.000Z');
    expect(wallOf(Date.parse('2026-10-25T01:30:00Z'), 'Europe/Berlin')).toEqual({ year: 2026, month: 10, day: 25, hour: 2, minute: 30, second: 0 });
  });

  it('starts a day at its first instant, after a gap that swallows midnight', () => {
    // Santiago springs forward at midnight on 6 September 2026: the day starts at 01:00 there.
    expect(iso(startOfDay(Date.parse('2026-09-06T12:00:00Z'), 'America/Santiago'))).toBe('2026-09-06T04:00:00.000Z');
    expect(iso(startOfDay(Date.parse('2026-09-01T01:00:00Z'), '+09:00'))).toBe('2026-08-31T15:00:00.000Z');
  });

  it('gives Intl a zone it can format in', () => {
    expect(displayZone('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(['+09:00', 'Etc/GMT-9']).toContain(displayZone('+09:00'));
    expect(displayZone('Z')).toBe('UTC');
    expect(displayZone('Mars/Olympus')).toBe('UTC');
  });
});
