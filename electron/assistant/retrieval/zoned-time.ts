/**
 * Calendar arithmetic in the user's zone, for the times named in questions and for the chat context:
 * the end of a named day, month or year. The zone is read by shared/time-zone.ts, dates are written
 * out by shared/time-format.ts.
 */
import type { Temporal } from 'temporal-polyfill';
import { isoFromMs, type IsoTime } from '../../../shared/time';
import { zonedAt } from '../../../shared/time-zone';

const iso = (z: Temporal.ZonedDateTime): IsoTime => isoFromMs(z.epochMilliseconds);

/** `at` moved by a calendar duration in the zone ("a month after 1 March" is 1 April, across DST too). */
export function addInZone(at: string, zone: string, duration: Temporal.DurationLike): IsoTime {
  return iso(zonedAt(at, zone).add(duration));
}

/** Is `at` the first instant of its local day (the start of a named day, week, month, year)? */
export function isStartOfLocalDay(at: string, zone: string): boolean {
  const z = zonedAt(at, zone);
  return z.startOfDay().epochMilliseconds === z.epochMilliseconds;
}

export function shiftMs(at: string, ms: number): IsoTime {
  return isoFromMs(Date.parse(at) + ms);
}

export function yearIn(at: string, zone: string): number {
  return zonedAt(at, zone).year;
}
