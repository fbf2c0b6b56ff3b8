/**
 * Wall-clock arithmetic in a time zone for the page's views: the zone module (shared/time-zone.ts:
 * offsets, wall times and back across DST changes, the zone Intl formats in) and the roundings the
 * timeline's cursor and ticks snap to. Zones are IANA names ("Asia/Tokyo") or fixed offsets
 * ("+09:00"); pure, so the tests pass their zones explicitly.
 */
import { offsetMs, startOfDay, wallOf } from '../../../shared/time-zone';

export { displayZone, isUsableZone, offsetMs, startOfDay, systemTimeZone, wallOf, wallToUtc, type WallTime } from '../../../shared/time-zone';

const HOUR_MS = 3_600_000;

/** The start of the day nearest to `ms` in `zone` (the cursor snaps to whole days). */
export function roundToDay(ms: number, zone: string): number {
  return startOfDay(ms + 12 * HOUR_MS, zone);
}

/** The nearest whole hour of `zone`'s clock (whole hours of UTC too, in every zone of whole-hour offset). */
export function roundToHour(ms: number, zone: string): number {
  const offset = offsetMs(ms, zone);
  return Math.round((ms + offset) / HOUR_MS) * HOUR_MS - offset;
}

/** Whether `ms` is a midnight of `zone` (the start of a day there). */
export function isStartOfDay(ms: number, zone: string): boolean {
  const w = wallOf(ms, zone);
  return w.hour === 0 && w.minute === 0 && (w.second ?? 0) === 0 && ms % 1000 === 0;
}
