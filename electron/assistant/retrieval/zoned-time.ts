/**
 * Calendar arithmetic and dates written out in the user's zone, for the times named in questions
 * and for the chat context: the end of a named day, month or year; "10 Sep 2026"; "March 2026".
 * Temporal does the zone (IANA names and fixed offsets alike); Intl writes the month names.
 */
import { Temporal } from 'temporal-polyfill';

/** A zone as Temporal takes it: "Z"/"UTC"/"" → "UTC", "+0900" → "+09:00", IANA names as they are. */
export function temporalZone(zone: string): string {
  const text = zone.trim();
  if (text === '' || /^z$/i.test(text)) return 'UTC';
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  return offset ? `${offset[1]}${offset[2]}:${offset[3]}` : text;
}

export function zoned(at: string, zone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(Date.parse(at)).toZonedDateTimeISO(temporalZone(zone));
}

const iso = (z: Temporal.ZonedDateTime) => new Date(z.epochMilliseconds).toISOString();

/** `at` moved by a calendar duration in the zone ("a month after 1 March" is 1 April, across DST too). */
export function addInZone(at: string, zone: string, duration: Temporal.DurationLike): string {
  return iso(zoned(at, zone).add(duration));
}

/** Is `at` the first instant of its local day (the start of a named day, week, month, year)? */
export function isStartOfLocalDay(at: string, zone: string): boolean {
  const z = zoned(at, zone);
  return z.startOfDay().epochMilliseconds === z.epochMilliseconds;
}

export function shiftMs(at: string, ms: number): string {
  return new Date(Date.parse(at) + ms).toISOString();
}

const MONTH_SHORT = new Intl.DateTimeFormat('en-US', { month: 'short', timeZone: 'UTC' });
const MONTH_LONG = new Intl.DateTimeFormat('en-US', { month: 'long', timeZone: 'UTC' });
const monthName = (format: Intl.DateTimeFormat, month: number) => format.format(Date.UTC(2000, month - 1, 1));

/** "10 Sep 2026" in the zone; "10 Sep" when `withYear` is false. */
export function formatDay(at: string, zone: string, withYear = true): string {
  const z = zoned(at, zone);
  const day = `${z.day} ${monthName(MONTH_SHORT, z.month)}`;
  return withYear ? `${day} ${z.year}` : day;
}

/** "10 Sep 2026, 15:30" in the zone. */
export function formatDayTime(at: string, zone: string): string {
  const z = zoned(at, zone);
  return `${formatDay(at, zone)}, ${String(z.hour).padStart(2, '0')}:${String(z.minute).padStart(2, '0')}`;
}

/** "March 2026" in the zone. */
export function formatMonth(at: string, zone: string): string {
  const z = zoned(at, zone);
  return `${monthName(MONTH_LONG, z.month)} ${z.year}`;
}

export function yearIn(at: string, zone: string): number {
  return zoned(at, zone).year;
}
