/**
 * The one zone module: a time zone as people and programs write it — an IANA name ("Asia/Tokyo"),
 * a fixed offset ("+09:00", "-0530"), "Z" or "UTC" — read, checked, and turned into wall clocks and
 * back. Memory, the assistant, the engine, the faces and the page all use it (Temporal runs in
 * browsers too); shared/time-format.ts writes times with it. Pure: every zone is passed in.
 */
import { Temporal } from 'temporal-polyfill';

export interface WallTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second?: number;
}

/** A fixed offset as it is written: sign, two-digit hours, two-digit minutes, with or without a colon. */
const FIXED_OFFSET = /^([+-])(\d{2}):?(\d{2})$/;
/** A date-time that says its own zone: it ends with "Z" or an offset ("…T10:00+09:00", "…T10:00-0500"). */
const ZONE_SUFFIX = /(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Whether `time` ends with its own zone ("Z" or an offset), so no other zone applies to it. */
export function hasZoneSuffix(time: string): boolean {
  return ZONE_SUFFIX.test(time);
}

/** A fixed offset in minutes ("+09:00" → 540, "-0530" → -330, "Z" → 0), or null for a zone name. */
export function fixedOffsetMinutes(zone: string): number | null {
  const text = zone.trim();
  if (/^z$/i.test(text)) return 0;
  const m = FIXED_OFFSET.exec(text);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

const ids = new Map<string, string | null>();

/**
 * A zone as Temporal takes it, in its canonical spelling: "", "Z" or "UTC" → "UTC", "+0900" →
 * "+09:00", an IANA name as Temporal spells it; null for a zone this engine does not know.
 * Asked once per zone: callers ask for every fact they show.
 */
export function zoneId(zone: string): string | null {
  let id = ids.get(zone);
  if (id !== undefined) return id;
  const text = zone.trim();
  const offset = FIXED_OFFSET.exec(text);
  const candidate = text === '' || /^z$/i.test(text) ? 'UTC' : offset ? `${offset[1]}${offset[2]}:${offset[3]}` : text;
  try {
    id = Temporal.Now.zonedDateTimeISO(candidate).timeZoneId;
  } catch {
    id = null;
  }
  ids.set(zone, id);
  return id;
}

let system: { tz: string | undefined; zone: string } | null = null;

/**
 * The zone this machine (or browser) is set to; UTC when it says none. In Node it is read once per
 * value of $TZ (V8 reads the machine's zone once and again only when TZ is set): the lookup costs
 * 0.2–1 ms, and retrieval asks for it on every question. A page asks Intl each time.
 */
export function systemTimeZone(): string {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (env === undefined) return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  if (system === null || system.tz !== env['TZ']) system = { tz: env['TZ'], zone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC' };
  return system.zone;
}

/** Whether `zone` is an IANA name or a fixed offset this engine knows. */
export function isKnownZone(zone: string): boolean {
  return zoneId(zone) !== null;
}

/**
 * Abbreviations people type for a zone, where they name one zone, with the IANA zone they mean: said
 * back as a suggestion, never read silently (CST, IST and BST each name several).
 */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  JST: 'Asia/Tokyo', KST: 'Asia/Seoul', HKT: 'Asia/Hong_Kong', SGT: 'Asia/Singapore', AEST: 'Australia/Sydney', AEDT: 'Australia/Sydney',
  NZST: 'Pacific/Auckland', NZDT: 'Pacific/Auckland', PST: 'America/Los_Angeles', PDT: 'America/Los_Angeles', MSK: 'Europe/Moscow',
};

/** The words for a zone nobody knows, naming what would do ("JST": did you mean Asia/Tokyo?). */
export function unknownZoneMessage(zone: string): string {
  const meant = ABBREVIATIONS[zone.trim().toUpperCase()];
  const hint = meant === undefined ? '' : `did you mean ${meant}? `;
  return `unknown time zone ${JSON.stringify(zone)} (${hint}use an IANA name like Asia/Tokyo, or an offset like +09:00)`;
}

/** The zone's canonical id; a RangeError in words for an unknown one. */
export function checkedZone(zone: string): string {
  const id = zoneId(zone);
  if (id === null) throw new RangeError(unknownZoneMessage(zone));
  return id;
}

/** The zone written in an ISO date-time: its offset ("+09:00"); "Z", none, or a date alone is UTC. */
export function zoneOfIsoTime(time: string): string {
  const text = time.trim();
  const m = /([+-]\d{2}):?(\d{2})$/.exec(text);
  return m && /T|\s/.test(text) ? `${m[1]}:${m[2]}` : 'UTC';
}

/** The instant `at` (epoch ms or an ISO time) as a wall clock in `zone`. Throws RangeError for an unknown zone. */
export function zonedAt(at: number | string, zone: string): Temporal.ZonedDateTime {
  const ms = typeof at === 'number' ? at : Date.parse(at);
  if (Number.isNaN(ms)) throw new RangeError(`not a time: ${JSON.stringify(at)}`);
  // Temporal takes whole milliseconds; a zoomed timeline's domain is fractional.
  return Temporal.Instant.fromEpochMilliseconds(Math.floor(ms)).toZonedDateTimeISO(checkedZone(zone));
}

/**
 * The zone a message was written in, as its episode keeps it: an IANA zone given by the caller
 * (with its offset at that instant), else the offset written in the time itself ("+09:00"), else
 * nothing known ("Z" is how programs write UTC, not a statement of where the writer lives).
 * Throws RangeError for an unknown zone name.
 */
export function episodeZoneOf(time: string, timeZone: string | undefined): { utcOffset: string | null; timeZone: string | null } {
  if (timeZone !== undefined) {
    const zoned = zonedAt(time, timeZone);
    return { utcOffset: zoned.offset, timeZone: /^[+-]/.test(zoned.timeZoneId) ? null : zoned.timeZoneId };
  }
  const zone = zoneOfIsoTime(time);
  return { utcOffset: zone === 'UTC' ? null : zone, timeZone: null };
}

/**
 * An instant written with `zone`'s offset at that instant ("2026-09-01T10:00:00.000+09:00"): the
 * form a time phrase is read against in the zone it was said in ("9月1日" said in Tokyo is that day
 * in Tokyo). Throws RangeError for an unknown zone.
 */
export function withOffsetIn(iso: string, zone: string): string {
  return zonedAt(iso, zone).toString({ timeZoneName: 'never', smallestUnit: 'millisecond' });
}

const ZONELESS = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

/**
 * A date or wall time written without a zone ("2026-09-01", "2026-09-01T10:00") as the moment it
 * names in `zone`, written with that offset (withOffsetIn); null for anything else — a time that
 * already carries its zone, or no such date or time. Dates are not checked here: the caller's
 * parser refuses 30 February in its own words.
 */
export function zonelessIn(text: string, zone: string): string | null {
  const m = ZONELESS.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  if (Temporal.PlainDate.from({ year, month, day }, { overflow: 'constrain' }).day !== day) return null;
  const ms = wallToUtc({ year, month, day, hour, minute, second }, zone) + Number(`0.${m[7] ?? '0'}`) * 1000;
  return withOffsetIn(new Date(Math.floor(ms)).toISOString(), zone);
}

/** The wall time `ms` shows in `zone`. */
export function wallOf(ms: number, zone: string): WallTime {
  const z = zonedAt(ms, zone);
  return { year: z.year, month: z.month, day: z.day, hour: z.hour, minute: z.minute, second: z.second };
}

/** How far `zone`'s clocks are ahead of UTC at the instant `ms` (Tokyo: +9 h; New York in July: −4 h). */
export function offsetMs(ms: number, zone: string): number {
  const fixed = fixedOffsetMinutes(zone);
  if (fixed !== null) return fixed * 60_000;
  return zonedAt(ms, zone).offsetNanoseconds / 1_000_000;
}

/**
 * The instant the wall time `w` names in `zone`, across DST changes as a clock does: a time in a
 * spring-forward gap moves forward, a time that happens twice in the autumn is the first of the two.
 */
export function wallToUtc(w: WallTime, zone: string): number {
  const wall = Temporal.PlainDateTime.from({ year: w.year, month: w.month, day: w.day, hour: w.hour, minute: w.minute, second: w.second ?? 0 });
  return wall.toZonedDateTime(checkedZone(zone), { disambiguation: 'compatible' }).epochMilliseconds;
}

/** The first instant of the day `ms` falls on in `zone` (after a DST gap that swallows midnight, its end). */
export function startOfDay(ms: number, zone: string): number {
  return zonedAt(ms, zone).startOfDay().epochMilliseconds;
}

const intlZones = new Map<string, boolean>();

/** Whether this engine's Intl formats in `zone` (asked once per zone: every row's formatter asks). */
export function isUsableZone(zone: string): boolean {
  let known = intlZones.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    intlZones.set(zone, known);
  }
  return known;
}

/**
 * A zone Intl can format in, for `zone`: itself where this engine knows it; a whole-hour fixed
 * offset as its Etc/GMT name ("+09:00" → "Etc/GMT-9", for engines without offset zones); else UTC.
 */
export function displayZone(zone: string): string {
  if (isUsableZone(zone)) return zone;
  const fixed = fixedOffsetMinutes(zone);
  if (fixed !== null && fixed % 60 === 0) {
    const hours = fixed / 60;
    return hours === 0 ? 'UTC' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
  }
  return 'UTC';
}
