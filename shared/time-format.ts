/**
 * Times as a person reads them: in the user's zone, formatted for the locale, as precisely as they
 * were said ("since March 2026", "from 1 Sep to 15 Sep 2026", "2026年3月から"). Used by the renderer
 * and the CLI alike. Stored times stay UTC; only what is shown changes.
 */
import type { Precision } from './memory-schema';

export interface TimeFormat {
  /** IANA zone or fixed offset the times are shown in. */
  timeZone: string;
  /** BCP 47 locale, e.g. "en-GB", "ja-JP". */
  locale: string;
}

const cache = new Map<string, Intl.DateTimeFormat>();

/** A fixed offset ("+09:00", "-0530") in minutes, or null for a zone name. */
function offsetMinutes(zone: string): number | null {
  if (/^z$/i.test(zone.trim())) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone.trim());
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : null;
}

/**
 * Formats in the zone. Intl takes IANA names only (Node 20 refuses "+09:00"), so a fixed offset
 * is shown by formatting the shifted instant in UTC.
 */
function formatter(format: TimeFormat, options: Intl.DateTimeFormatOptions): { format(date: Date): string; formatToParts(date: Date): Intl.DateTimeFormatPart[] } {
  const offset = offsetMinutes(format.timeZone);
  const zone = offset === null ? format.timeZone : 'UTC';
  const key = `${format.locale}|${zone}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(format.locale, { ...options, timeZone: zone });
    cache.set(key, f);
  }
  const intl = f;
  if (offset === null) return intl;
  const shift = (date: Date) => new Date(date.getTime() + offset * 60_000);
  return { format: (date) => intl.format(shift(date)), formatToParts: (date) => intl.formatToParts(shift(date)) };
}

const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const MINUTE: Intl.DateTimeFormatOptions = { ...DAY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

const isJapanese = (format: TimeFormat) => format.locale.toLowerCase().startsWith('ja');

/** A time at the precision it was said: "2026", "March 2026", "1 Sep 2026", "1 Sep 2026, 10:00". */
export function formatAt(iso: string, precision: Precision, format: TimeFormat): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  switch (precision) {
    case 'year':
      return formatter(format, { year: 'numeric' }).format(date);
    case 'month':
      return formatter(format, { year: 'numeric', month: 'long' }).format(date);
    case 'day':
      return formatter(format, DAY).format(date);
    default:
      return formatter(format, MINUTE).format(date);
  }
}

/** An instant, to the minute, in the zone: "1 Sep 2026, 10:00". */
export function formatInstant(iso: string, format: TimeFormat): string {
  return formatAt(iso, 'instant', format);
}

/** An instant with the zone's short name, where a reader could not tell: "1 Sep 2026, 10:00 GMT+9". */
export function formatInstantWithZone(iso: string, format: TimeFormat): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  if (offsetMinutes(format.timeZone) !== null) return `${formatter(format, MINUTE).format(date)} ${format.timeZone === 'Z' ? 'UTC' : `UTC${format.timeZone}`}`;
  return formatter(format, { ...MINUTE, timeZoneName: 'short' }).format(date);
}

export interface Interval {
  valid_at: string;
  valid_at_precision: Precision;
  invalid_at: string | null;
  invalid_at_precision: Precision | null;
}

const WITHOUT_YEAR: Partial<Record<Precision, Intl.DateTimeFormatOptions>> = {
  month: { month: 'long' },
  day: { month: 'short', day: 'numeric' },
};

const yearIn = (iso: string, format: TimeFormat) => formatter(format, { year: 'numeric' }).format(new Date(iso));

/**
 * "since March 2026", "from 1 Sep to 15 Sep 2026" (the year once when both ends share it); in
 * Japanese "2026年3月から", "2026年9月1日〜9月15日".
 */
export function formatInterval(fact: Interval, format: TimeFormat): string {
  const from = formatAt(fact.valid_at, fact.valid_at_precision, format);
  if (fact.invalid_at === null) return isJapanese(format) ? `${from}から` : `since ${from}`;
  const endPrecision = fact.invalid_at_precision ?? 'instant';
  const to = formatAt(fact.invalid_at, endPrecision, format);
  const sameYear = yearIn(fact.valid_at, format) === yearIn(fact.invalid_at, format);
  if (isJapanese(format)) {
    const short = sameYear ? WITHOUT_YEAR[endPrecision] : undefined;
    return `${from}〜${short ? formatter(format, short).format(new Date(fact.invalid_at)) : to}`;
  }
  const short = sameYear ? WITHOUT_YEAR[fact.valid_at_precision] : undefined;
  return `from ${short ? formatter(format, short).format(new Date(fact.valid_at)) : from} to ${to}`;
}

/** The value for an <input type="datetime-local"> showing `iso` in the zone: "2026-09-01T10:00". */
export function toLocalInputValue(iso: string, timeZone: string): string {
  const parts = formatter({ timeZone, locale: 'en-CA' }, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}
