/**
 * Zone arithmetic for time expressions (Temporal): the reference instant seen in the user's zone,
 * and the first instant of a day, week, month, year or season there. Calendar periods start at the
 * local midnight of their first day (or the first instant after it when a DST gap swallows midnight).
 */
import { Temporal } from 'temporal-polyfill';
import type { Precision } from '../../../shared/memory-schema';
import { checkedZone, zoneOfIsoTime } from '../../../shared/time-zone';
import { isoFromMs, type IsoTime } from '../../../shared/time';

export { zoneOfIsoTime };

export type { Precision };
export interface Resolved {
  /** ISO-8601 UTC with milliseconds. */
  at: IsoTime;
  precision: Precision;
}

export function referenceIn(instant: string, zone: string): Temporal.ZonedDateTime {
  const id = checkedZone(zone);
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) throw new RangeError(`bad reference time ${JSON.stringify(instant)}`);
  return Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(id);
}

const inRange = (year: number) => year >= 0 && year <= 9999;

/** An instant as the resolver returns it; null outside years 0000–9999 (UTC). */
export function atInstant(instant: Temporal.Instant, precision: Precision): Resolved | null {
  const utc = instant.toZonedDateTimeISO('UTC');
  if (!inRange(utc.year)) return null;
  return { at: isoFromMs(instant.epochMilliseconds), precision };
}

/** The start of a calendar day in the zone. */
export function startOfDay(date: Temporal.PlainDate, zone: string, precision: Precision = 'day'): Resolved | null {
  if (!inRange(date.year)) return null;
  return atInstant(date.toZonedDateTime({ timeZone: zone }).toInstant(), precision);
}

/** A calendar date from numbers, or null when it does not exist (2026-02-30) or is out of range. */
export function plainDate(year: number, month: number, day: number): Temporal.PlainDate | null {
  if (!inRange(year) || month < 1 || month > 12 || day < 1 || day > 31) return null;
  try {
    return Temporal.PlainDate.from({ year, month, day }, { overflow: 'reject' });
  } catch {
    return null;
  }
}

/** Monday of the week that holds the date (ISO weeks). */
export function mondayOf(date: Temporal.PlainDate): Temporal.PlainDate {
  return date.subtract({ days: date.dayOfWeek - 1 });
}

export function startOfMonth(year: number, month: number, zone: string): Resolved | null {
  const date = plainDate(year, month, 1);
  return date ? startOfDay(date, zone, 'month') : null;
}

export function startOfYear(year: number, zone: string): Resolved | null {
  const date = plainDate(year, 1, 1);
  return date ? startOfDay(date, zone, 'year') : null;
}
