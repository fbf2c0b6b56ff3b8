/**
 * Times as a person reads them: in the user's zone, formatted for the locale, as precisely as they
 * were said ("since March 2026", "until 31 Dec 2026", "ended 25 May 2026", "1 Sep 2025 – 25 May
 * 2026", "2026年3月から"). The one interval formatter: the renderer, the CLI and the chat model's
 * context all write times with it. Stored times stay UTC; only what is shown changes.
 */
import type { Precision } from './memory-schema';
import { fixedOffsetMinutes } from './time-zone';

export interface TimeFormat {
  /** IANA zone or fixed offset the times are shown in. */
  timeZone: string;
  /** BCP 47 locale, e.g. "en-GB", "ja-JP". */
  locale: string;
  /** A fact's time said to the minute reads as the day it falls on in the zone (the chat model reads days). */
  instantsAsDays?: boolean;
}

const cache = new Map<string, Intl.DateTimeFormat>();

/**
 * Formats in the zone. Intl takes IANA names only (Node 20 refuses "+09:00"), so a fixed offset
 * is shown by formatting the shifted instant in UTC.
 */
function formatter(format: TimeFormat, options: Intl.DateTimeFormatOptions): { format(date: Date): string; formatToParts(date: Date): Intl.DateTimeFormatPart[] } {
  const offset = fixedOffsetMinutes(format.timeZone);
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

/**
 * A moment in the zone at a precision: "2026", "March 2026", "1 Sep 2026", "1 Sep 2026, 10:00" (the
 * day a moment falls on there, …). A fact's time as it was said: formatSaid.
 */
export function formatAt(iso: string, precision: Precision, format: TimeFormat): string {
  return formatShown(iso, precision, 'instant', format);
}

/**
 * A fact's time as it was said, at the precision it reads best at (readablePrecision): a month or
 * year said is that period on the calendar in every zone (calendarReading), a day or an instant is
 * read in the zone: "since March 2026", "1 Sep 2026", "1 Sep 2026, 10:00".
 */
export function formatSaid(iso: string, precision: Precision, format: TimeFormat, end = false): string {
  return formatShown(iso, readablePrecision(iso, precision, format, end), precision, format);
}

/** A time said at `said` ('instant': a moment, read in the zone), shown at `shown`. */
function formatShown(iso: string, shown: Precision, said: Precision, format: TimeFormat): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const read = calendarReading(date, said, format);
  switch (shown) {
    case 'year':
      return formatter(read.format, { year: 'numeric' }).format(read.date);
    case 'month':
      return formatter(read.format, { year: 'numeric', month: 'long' }).format(read.date);
    case 'day':
      return formatter(read.format, DAY).format(read.date);
    default:
      return formatter(format, MINUTE).format(date);
  }
}

/**
 * A month or year said (`said`) is a period on the calendar, not a moment: "in 2025" said in Tokyo is
 * stored as the start of 2025 there (2024-12-31T15:00Z), and must still read "2025" after the user
 * moves to Los Angeles, where that instant is in 2024. So:
 * - where the time starts its month or year in the zone it is read in, it is read there (one said
 *   here reads as it always did);
 * - else, where it starts one at a real UTC offset, at any whole second from −12:00 to +14:00
 *   (Baker Island to Kiritimati; the local mean times of old dates included: "1900" said in Kolkata,
 *   at +05:21:10), it was said in another zone and reads as that period there: only one month or
 *   year starts within those 26 hours;
 * - else (no period starts there) it reads in the zone.
 * A day said reads in the zone, as an instant does: a fact with no start of its own is stored at its
 * message's time at day precision, and an observe line or an agent's reference_time is often on the
 * hour (2026-12-06T15:00-05:00 is 20:00Z, a midnight at +04:00) — no rule tells those from another
 * zone's midnight, so reading them as one would move a day said here by a day. Telling them apart
 * needs facts to keep the zone they were said in.
 */
function calendarReading(date: Date, said: Precision, format: TimeFormat): { date: Date; format: TimeFormat } {
  if (said === 'instant' || said === 'day' || startsPeriodIn(date, said, format)) return { date, format };
  const start = saidElsewhere(date.getTime(), said);
  return start === null ? { date, format } : { date: new Date(start), format: { ...format, timeZone: 'UTC' } };
}

const CLOCK: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };

/** Whether the time is the first instant of its month or year in the zone. */
function startsPeriodIn(date: Date, precision: 'month' | 'year', format: TimeFormat): boolean {
  if (date.getUTCMilliseconds() !== 0) return false;
  const parts = Object.fromEntries(formatter({ ...format, locale: 'en-US' }, CLOCK).formatToParts(date).map((p) => [p.type, p.value]));
  if (parts.hour !== '00' || parts.minute !== '00' || parts.second !== '00' || parts.day !== '1') return false;
  return precision === 'month' || parts.month === '1';
}

const HOUR_MS = 3_600_000;
/** The UTC offsets clocks keep: −12:00 (Baker Island) to +14:00 (Kiritimati). */
const WESTMOST_MS = -12 * HOUR_MS;
const EASTMOST_MS = 14 * HOUR_MS;

/**
 * The month or year `ms` starts at a real offset other than the reader's (calendarReading), as the
 * UTC wall time of its start there (the instant plus that offset); null where it starts none.
 */
function saidElsewhere(ms: number, said: 'month' | 'year'): number | null {
  if (ms % 1000 !== 0) return null;
  // The last month (year) to start by the easternmost clock; said there or west of it, if at all.
  const start = new Date(ms + EASTMOST_MS);
  start.setUTCHours(0, 0, 0, 0);
  start.setUTCDate(1);
  if (said === 'year') start.setUTCMonth(0);
  return start.getTime() - ms >= WESTMOST_MS ? start.getTime() : null;
}

/** An instant, to the minute, in the zone: "1 Sep 2026, 10:00". */
export function formatInstant(iso: string, format: TimeFormat): string {
  return formatAt(iso, 'instant', format);
}

/** An instant with the zone's short name, where a reader could not tell: "1 Sep 2026, 10:00 GMT+9". */
export function formatInstantWithZone(iso: string, format: TimeFormat): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  if (fixedOffsetMinutes(format.timeZone) !== null) return `${formatter(format, MINUTE).format(date)} ${format.timeZone === 'Z' ? 'UTC' : `UTC${format.timeZone}`}`;
  return formatter(format, { ...MINUTE, timeZoneName: 'short' }).format(date);
}

export interface Interval {
  valid_at: string;
  valid_at_precision: Precision;
  invalid_at: string | null;
  invalid_at_precision: Precision | null;
}

/** "Now" for the words that depend on it ("ended" or "until"): an ISO string, epoch ms or a Date. */
export type Now = string | number | Date;

const msOf = (now: Now) => (typeof now === 'number' ? now : new Date(now).getTime());

/** Whether `iso` is at or before `now`: an end then is over (a fact is true up to, not at, its end). */
export function isPast(iso: string, now: Now = Date.now()): boolean {
  return new Date(iso).getTime() <= msOf(now);
}

const WITHOUT_YEAR: Partial<Record<Precision, Intl.DateTimeFormatOptions>> = {
  month: { month: 'long' },
  day: { month: 'short', day: 'numeric' },
};

/** The year a time said at `precision` reads in (calendarReading). */
function yearIn(iso: string, precision: Precision, format: TimeFormat): string {
  const read = calendarReading(new Date(iso), precision, format);
  return formatter(read.format, { year: 'numeric' }).format(read.date);
}

/**
 * The precision a time reads best at: as it was said, except that an instant at a midnight of the
 * zone, or an end in the last minute of a day there ("31 Dec, 23:59"), is that day: the minutes
 * would say nothing a reader needs.
 */
export function readablePrecision(iso: string, precision: Precision, format: TimeFormat, end = false): Precision {
  if (precision !== 'instant' || format.instantsAsDays) return precision === 'instant' ? 'day' : precision;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return precision;
  const clock = formatter(format, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
  const midnight = clock === '00:00' && date.getUTCSeconds() === 0 && date.getUTCMilliseconds() === 0;
  return midnight || (end && clock === '23:59') ? 'day' : precision;
}

/** A moment at the precision it reads best at (readablePrecision), in the zone: "1 Sep 2026", "1 Sep 2026, 10:00". */
export function formatWhen(iso: string, precision: Precision, format: TimeFormat, end = false): string {
  return formatShown(iso, readablePrecision(iso, precision, format, end), 'instant', format);
}

/** `iso` without its year where the other end of the range shows it ("1 Sep" of "1 Sep – 15 Sep 2026"). */
function withoutYear(iso: string, precision: Precision, format: TimeFormat, end = false): string {
  const readable = readablePrecision(iso, precision, format, end);
  const short = WITHOUT_YEAR[readable];
  if (!short) return formatSaid(iso, precision, format, end);
  const read = calendarReading(new Date(iso), precision, format);
  return formatter(read.format, short).format(read.date);
}

/** What a close did, in one word for every face: "Closed" for an end that has come, "Ends" for one still to come (or none: "Closed"). */
export function closeWord(fact: Pick<Interval, 'invalid_at'>, now: Now = Date.now()): 'Closed' | 'Ends' {
  return fact.invalid_at === null || isPast(fact.invalid_at, now) ? 'Closed' : 'Ends';
}

/**
 * How a fact's end reads now: "ended 25 May 2026" when it is past (at or before `now`), "until
 * 31 Dec 2026" when it is still ahead; '' for an open fact. In Japanese "2026年5月25日に終了",
 * "2026年12月31日まで". Never "closed" for an end still to come.
 *
 * An end said at a day, month or year is stored as the start of the period said — the moment the
 * fact stopped, to that precision — and reads as that period, as a start does: "until November",
 * "11月まで", an end typed "2026-11" or "November 2026" in the edit or close form (main reads it with
 * the resolver that reads messages: readTimeInput), and the start of the fact that replaced it
 * ("since December" closes the old value at the start of December) are all stored at the first
 * instant of that month and read "November" ("December"), so what is typed reads back as typed, and
 * the form's field shows what the screens show. A day end at the midnight that starts 2 Sep reads
 * "2 Sep"; one a millisecond earlier reads "1 Sep", one a millisecond later "2 Sep" (a period said
 * is read where it starts: calendarReading).
 */
export function formatEnding(fact: Pick<Interval, 'invalid_at' | 'invalid_at_precision'>, format: TimeFormat, now: Now = Date.now()): string {
  if (fact.invalid_at === null) return '';
  const to = formatSaid(fact.invalid_at, fact.invalid_at_precision ?? 'instant', format, true);
  const past = isPast(fact.invalid_at, now);
  if (isJapanese(format)) return past ? `${to}に終了` : `${to}まで`;
  return past ? `ended ${to}` : `until ${to}`;
}

const CLOCK_TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

/** Whether two instants fall on the same day in the zone. */
function sameDayIn(a: string, b: string, format: TimeFormat): boolean {
  const day = formatter({ ...format, locale: 'en-US' }, { year: 'numeric', month: 'numeric', day: 'numeric' });
  return day.format(new Date(a)) === day.format(new Date(b));
}

const COARSENESS: Record<Precision, number> = { instant: 0, day: 1, month: 2, year: 3 };

/** The first (or `last`) day, [year, month, day], of the period a time said at `said` reads as at `shown`, in the zone (calendarReading). */
function edgeDay(iso: string, said: Precision, shown: Precision, format: TimeFormat, last: boolean): [number, number, number] {
  const read = calendarReading(new Date(iso), said, format);
  const parts = Object.fromEntries(formatter({ ...read.format, locale: 'en-US' }, { year: 'numeric', month: 'numeric', day: 'numeric' }).formatToParts(read.date).map((p) => [p.type, p.value]));
  const [year, month, day] = [Number(parts.year), Number(parts.month), Number(parts.day)];
  if (shown === 'year') return last ? [year, 12, 31] : [year, 1, 1];
  if (shown !== 'month') return [year, month, day];
  const end = new Date(0);
  end.setUTCFullYear(year, month, 0); // day 0 of the next month: this month's last day
  return [year, month, last ? end.getUTCDate() : 1];
}

/**
 * The precision of the one day, month or year a start and an end (read at `fromShown`, `toShown`)
 * name together, decided on the calendar of the zone: the coarser of the two, where the start is its
 * first day and the end its last ("1 Jun" and "June", "June" and "30 Jun": June); else null ("2 Jun"
 * and "June"; a time to the minute names no period).
 */
function onePeriod(fact: Interval, fromShown: Precision, toShown: Precision, format: TimeFormat): Precision | null {
  if (fact.invalid_at === null || fromShown === 'instant' || toShown === 'instant') return null;
  const period = COARSENESS[fromShown] >= COARSENESS[toShown] ? fromShown : toShown;
  const start = (shown: Precision, last: boolean) => edgeDay(fact.valid_at, fact.valid_at_precision, shown, format, last).join();
  const end = edgeDay(fact.invalid_at, fact.invalid_at_precision ?? 'instant', toShown, format, true).join();
  return start(fromShown, false) === start(period, false) && end === start(period, true) ? period : null;
}

/**
 * When a fact is true, as a person says it, relative to `now` and at the precision each time was
 * said, in the user's zone and locale:
 * - open, begun: "since March 2026"; open, to come: "from 1 Jun 2027"
 * - over: "1 Sep 2025 – 25 May 2026" (the year once when both ends share it: "1 Sep – 15 Sep 2026")
 * - begun, ending later: "since 1 Sep 2025, until 31 Dec 2026"
 * - to come, with an end: "from 1 Jan until 31 Mar 2027"
 * - two times of one day in the zone, the date once: "1 Sep 2026, 10:00–14:00", "since 1 Sep 2026,
 *   10:00, until 14:00", "from 1 Sep 2027, 10:00 until 14:00"
 * - two ends that name one period, before, during or after it, that period once (onePeriod): "June
 *   2026" for June to June, 1 June to June, June to 30 June (not "since June 2026, until June
 *   2026"); 2 June to June keeps both: "since 2 Jun 2026, until June 2026"
 * In Japanese "2026年3月から", "2026年9月1日〜9月15日", "2025年9月1日から2026年12月31日まで",
 * "2026年9月1日 10:00〜14:00", "2026年9月1日 10:00から14:00まで", "2026年6月".
 * An end reads as the period said (formatEnding).
 */
export function formatInterval(fact: Interval, format: TimeFormat, now: Now = Date.now()): string {
  const from = formatSaid(fact.valid_at, fact.valid_at_precision, format);
  const begun = isPast(fact.valid_at, now);
  const ja = isJapanese(format);
  if (fact.invalid_at === null) return ja ? `${from}から` : begun ? `since ${from}` : `from ${from}`;
  const endPrecision = fact.invalid_at_precision ?? 'instant';
  const to = formatSaid(fact.invalid_at, endPrecision, format, true);
  const past = isPast(fact.invalid_at, now);
  const fromShown = readablePrecision(fact.valid_at, fact.valid_at_precision, format);
  const toShown = readablePrecision(fact.invalid_at, endPrecision, format, true);
  // Two times of a day: the end's clock even in the day's last minute ("10:00–23:59", not "10:00 – 1 Sep").
  if (fromShown === 'instant' && readablePrecision(fact.invalid_at, endPrecision, format) === 'instant' && sameDayIn(fact.valid_at, fact.invalid_at, format)) {
    const clock = formatter(format, CLOCK_TIME).format(new Date(fact.invalid_at));
    if (past) return ja ? `${from}〜${clock}` : `${from}–${clock}`;
    if (ja) return `${from}から${clock}まで`;
    return begun ? `since ${from}, until ${clock}` : `from ${from} until ${clock}`;
  }
  const period = onePeriod(fact, fromShown, toShown, format);
  if (period !== null) return period === fromShown ? from : to;
  const sameYear = yearIn(fact.valid_at, fact.valid_at_precision, format) === yearIn(fact.invalid_at, endPrecision, format);
  if (past) {
    if (ja) return `${from}〜${sameYear ? withoutYear(fact.invalid_at, endPrecision, format, true) : to}`;
    return `${sameYear ? withoutYear(fact.valid_at, fact.valid_at_precision, format) : from} – ${to}`;
  }
  if (ja) return `${from}から${sameYear ? withoutYear(fact.invalid_at, endPrecision, format, true) : to}まで`;
  if (begun) return `since ${from}, until ${to}`;
  return `from ${sameYear ? withoutYear(fact.valid_at, fact.valid_at_precision, format) : from} until ${to}`;
}

/** When a fact became true, relative to `now`: "since March 2026", or "from 1 Jun 2027" when still to come. */
export function formatSince(fact: Pick<Interval, 'valid_at' | 'valid_at_precision'>, format: TimeFormat, now: Now = Date.now()): string {
  return formatInterval({ ...fact, invalid_at: null, invalid_at_precision: null }, format, now);
}

/**
 * A moment picked or typed for a view (as-of, known-at): the day when it is a midnight of the zone
 * or the end of a day (a day typed means its last millisecond but one: readMomentInput), else to the minute
 * ("1 Jun 2026", "1 Jun 2026, 10:00").
 */
export function formatMoment(at: string | number, format: TimeFormat): string {
  const ms = new Date(at).getTime();
  if (Number.isNaN(ms)) return String(at);
  const date = new Date(ms);
  // The moment a day asked about stands for (momentAskedBefore: its last millisecond but one), or its last.
  const dayEnd = date.getUTCSeconds() === 59 && date.getUTCMilliseconds() >= 998;
  return formatWhen(date.toISOString(), 'instant', format, dayEnd);
}
