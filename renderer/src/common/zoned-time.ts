/**
 * Wall-clock arithmetic in a time zone, for the page (no Temporal here): the zone's offset at an
 * instant, the wall time an instant shows there, and back — a wall time read in the zone to the
 * instant it names, across DST changes (a time in a spring-forward gap moves forward, as a clock
 * does; a time that happens twice in the autumn is the first of the two). Zones are IANA names
 * ("Asia/Tokyo") or fixed offsets ("+09:00"); pure, so the tests pass their zones explicitly.
 */

export interface WallTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const FIXED_OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** Milliseconds of a fixed offset ("+09:00" → 9 h), or null for a zone name. */
function fixedOffsetMs(zone: string): number | null {
  const m = FIXED_OFFSET.exec(zone.trim());
  if (!m) return null;
  const ms = (Number(m[2]) * 60 + Number(m[3])) * MINUTE_MS;
  return m[1] === '-' ? -ms : ms;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(zone, f);
  }
  return f;
}

/** The instant whose UTC wall clock reads `w` (unlike Date.UTC, years 0–99 are those years). */
export function utcOfWall(w: WallTime): number {
  const date = new Date(0);
  date.setUTCFullYear(w.year, w.month - 1, w.day);
  date.setUTCHours(w.hour, w.minute, w.second ?? 0, 0);
  return date.getTime();
}

/** The wall time `ms` shows in `zone`. */
export function wallOf(ms: number, zone: string): WallTime {
  const fixed = fixedOffsetMs(zone);
  if (fixed !== null) {
    const d = new Date(ms + fixed);
    return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds() };
  }
  const parts = partsFormatter(zone).formatToParts(new Date(ms));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const bc = parts.some((p) => p.type === 'era' && /^B/i.test(p.value));
  const year = get('year');
  return { year: bc ? 1 - year : year, month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute'), second: get('second') };
}

/** How far `zone`'s clocks are ahead of UTC at the instant `ms` (Tokyo: +9 h; New York in July: −4 h). */
export function offsetMs(ms: number, zone: string): number {
  const fixed = fixedOffsetMs(zone);
  if (fixed !== null) return fixed;
  const whole = Math.floor(ms / 1000) * 1000;
  return utcOfWall(wallOf(whole, zone)) - whole;
}

/**
 * The instant the wall time `w` names in `zone`. Tries the offsets in force a day before and a day
 * after: one fits (an ordinary time), both fit (the repeated hour: the earlier is taken), or none
 * (the skipped hour: read with the offset from before the change, which lands after the gap).
 */
export function wallToUtc(w: WallTime, zone: string): number {
  const local = utcOfWall(w);
  const before = offsetMs(local - DAY_MS, zone);
  const after = offsetMs(local + DAY_MS, zone);
  const fits = [before, after].map((o) => local - o).filter((t) => offsetMs(t, zone) === local - t);
  if (fits.length > 0) return Math.min(...fits);
  return local - before;
}

/** The first instant of the day `ms` falls on in `zone`. */
export function startOfDay(ms: number, zone: string): number {
  const w = wallOf(ms, zone);
  return wallToUtc({ year: w.year, month: w.month, day: w.day, hour: 0, minute: 0 }, zone);
}

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

/** Whether this engine's Intl knows `zone`. */
export function isUsableZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A zone Intl can format in, for `zone`: itself where this engine knows it; a whole-hour fixed
 * offset as its Etc/GMT name ("+09:00" → "Etc/GMT-9", for engines without offset zones); else UTC.
 */
export function displayZone(zone: string): string {
  if (isUsableZone(zone)) return zone;
  const fixed = fixedOffsetMs(zone);
  if (fixed !== null && fixed % HOUR_MS === 0) {
    const hours = fixed / HOUR_MS;
    return hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
  }
  return 'UTC';
}
