/**
 * Calendar arithmetic in the user's zone, for the times named in questions and for the chat context:
 * the end of a named day, month or year. Temporal does the zone (IANA names and fixed offsets alike);
 * dates are written out by shared/time-format.ts.
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

export function yearIn(at: string, zone: string): number {
  return zoned(at, zone).year;
}
