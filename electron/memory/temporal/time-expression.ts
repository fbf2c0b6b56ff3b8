/**
 * A time expression as a person wrote it ("先週", "9月1日から", "last March", "3 days ago", "the 5th",
 * "2026-09-01") → the instant it names, worked out in the writer's zone at the reference instant
 * (never against today). Used by the assistant's ingestion (since/until of extracted facts) and by
 * observe (valid_at/invalid_at phrases).
 *
 * Rules (docs: the table in test/fixtures/time-expressions.ts is the specification by example):
 * - A named calendar period — a date, weekday, "yesterday"/"昨日", week ("先週", Monday-based), month,
 *   season, year — is the START of that period in the reference's zone: local midnight of its first
 *   day. Precision: 'day' for days and weeks, 'month' for months and seasons, 'year' for years.
 * - A date or month without a year is the most recent one not after the reference's local day
 *   ("9月1日" on 31 August 2026 → 1 September 2025; "March" in March → this March) — unless it ends
 *   something still to come (ResolveOptions.ahead: "until November" said in June of a stay that goes
 *   on), then it is the nearest one not over yet (November this year; "until June" said on 15 June
 *   is this June, under way: ingestion holds such an end through it). "last March" is the
 *   most recent March before the current month; "next March" the first after it; "this March" the
 *   reference year's. A bare weekday is the most recent not after today (today included); "last
 *   Monday" the most recent before today; "next Monday" the first after today; "this Monday" the
 *   one in the current week. Seasons are meteorological (northern): spring = March, summer = June,
 *   autumn = September, winter = December (winter 2026 starts 2026-12-01).
 * - A duration ("3 days ago", "2週間前", "in 2 weeks") in days, weeks, months or years shifts the
 *   reference's local day in its zone (calendar-aware: a month back from 31 March is 28/29 February)
 *   and is the START of the day it lands on, precision 'day' (the phrase is only good to a day:
 *   "3 days ago" said at 08:00 on 20 Sep is 17 Sep from 00:00, as "yesterday" is 19 Sep from 00:00).
 *   In hours or minutes it shifts the reference instant itself, precision 'instant'. (A question's
 *   "this time last year" asks for the instant itself: ResolveOptions.durationKeepsTimeOfDay.)
 * - "now"/"現在" is the reference instant (precision 'instant').
 * - "the end of" a month or year ("11月末", "先月末", "年末", "the end of 2025") is its last day, from
 *   its start (precision 'day'), as a date said is; weeks and seasons have no end here.
 * - Dates in numbers are checked first (shared/numeric-date.ts): month 13, 30 February, offset
 *   +25:00 and an ambiguous "10/09/2026" are no time; "25/09/2026" (one reading) is 25 September.
 * - An ISO date-time with an offset or Z is that instant; without one it is that wall time in the
 *   reference's zone (precision 'instant'). An ISO date alone is that day in the reference's zone;
 *   "2026-09" that month.
 * - Anything else an English/Japanese date parser (chrono-node) reads in full, such as "September 1st
 *   at 3pm" or "9月1日15時", is taken from chrono's components, put in the zone with Temporal.
 * - Years outside 0000–9999, impossible dates, vague words ("recently", "a while ago") → null.
 */
import * as chrono from 'chrono-node';
import { Temporal } from 'temporal-polyfill';
import { readNumericDate } from '../../../shared/numeric-date';
import { isoFromMs } from '../../../shared/time';
import { atInstant, mondayOf, plainDate, referenceIn, startOfDay, startOfMonth, startOfYear, zoneOfIsoTime, type Resolved } from './time-zone';
import { aheadOf, calendar, dayOfMonth, mostRecent, season, yearOf } from './time-expression-calendar';
import { DAY_WORDS, EN_UNIT, EN_WEEKDAY, JA_UNIT, JA_WEEKDAY, MONTH_WORDS, NOW_WORDS, NUMBER, WEEK_WORDS, enUnit, enWeekday, jaUnit, jaWeekday, numberOf, lookup } from './time-words';

export type { Precision, Resolved } from './time-zone';
export { zoneOfIsoTime } from './time-zone';

export interface TimeReference {
  /** The instant the expression was written (ISO-8601). */
  instant: string;
  /** The writer's zone: an IANA name ("Asia/Tokyo") or a fixed offset ("+09:00"); "Z"/"UTC" for UTC. */
  zone: string;
}

type Ref = Temporal.ZonedDateTime;
const NON_ASCII = /[^\p{ASCII}]/u;
/** "in 2019", "in March" drop their "in"; "in 2 weeks" keeps it (a duration). */
const IN_NOT_DURATION = new RegExp(`^in (?!(?:(?:${NUMBER}) (?:${EN_UNIT})|half an? year)$)`, 'u');

export interface ResolveOptions {
  /**
   * A question's reading: a duration in days or more keeps the reference's time of day ("this time
   * last year" is this instant a year back; precision 'day'). What is stored never uses it.
   */
  durationKeepsTimeOfDay?: boolean;
  /**
   * An end still to come ("I'm in Osaka until November", "11月まで出張です"): a date, month, season,
   * weekday or day of the month said without a year or last/this/next is the nearest one not over
   * yet (the one under way included), not the most recent one; with a time of day, the first that
   * starts after the reference instant. What was said of the past never uses it.
   */
  ahead?: boolean;
}

export function resolveTimeExpression(expression: string, reference: TimeReference, options: ResolveOptions = {}): Resolved | null {
  const cleaned = clean(expression);
  if (cleaned === '') return null;
  const numeric = readNumericDate(cleaned);
  if (numeric !== null && 'fault' in numeric) return null;
  const text = numeric?.text ?? cleaned;
  const ref = referenceIn(reference.instant, reference.zone);
  return endOf(text, ref, options) ?? period(text, ref, options);
}

const WEEKEND = /^(last|this|next) weekend$|^(先週|今週|来週)末$/u;

/**
 * How many days a time read at day precision names: a week ("先週", "next week") 7 from its Monday,
 * a weekend ("先週末", "this weekend") 2 from its Saturday, anything else 1. A moment asked about
 * ("as of 先週") is the end of all of them, not of the first day.
 */
export function daysNamed(expression: string): number {
  const text = clean(expression);
  if (WEEK_WORDS[text] !== undefined) return 7;
  return WEEKEND.test(text) ? 2 : 1;
}

/**
 * An end that names a period (a day, a month, a year) not over at the reference holds through it:
 * its last instant, with the period's precision, so it still reads as the period said. "until
 * Friday", "11月まで", "2027年3月まで" said before or during that period are true on Friday, in
 * November, in March. An end over already, or a time of day, is as read.
 */
export function heldThrough(end: Resolved, reference: TimeReference): Resolved {
  if (end.precision === 'instant') return end;
  const unit = end.precision === 'day' ? { days: 1 } : end.precision === 'month' ? { months: 1 } : { years: 1 };
  try {
    const last = referenceIn(end.at, reference.zone).add(unit).epochMilliseconds - 1;
    return last > Date.parse(reference.instant) ? { at: isoFromMs(last), precision: end.precision } : end;
  } catch {
    return end; // past the last time that can be stored
  }
}

function period(text: string, ref: Ref, options: ResolveOptions): Resolved | null {
  const ahead = options.ahead === true;
  return iso(text, ref) ?? named(text, ref) ?? duration(text, ref, options.durationKeepsTimeOfDay === true) ?? weekday(text, ref, ahead) ?? calendar(text, ref, ahead) ?? season(text, ref, ahead) ?? dayOfMonth(text, ref, ahead) ?? withChrono(text, ref, ahead);
}

/** What "月末"/"年末" and "the end of the month/year" name: this month's or this year's end. */
const END_OF_THIS: ReadonlyMap<string, string> = new Map([
  ['月', '今月'],
  ['年', '今年'],
  ['month', 'this month'],
  ['year', 'this year'],
]);

/**
 * "the end of November", "11月末", "先月末", "年末": the last day of the month or year named (a day,
 * from its start). Read ahead, it is the first such end not before today: "until the end of
 * November" said on 15 November is this November's, said in December next November's.
 */
function endOf(text: string, ref: Ref, options: ResolveOptions): Resolved | null {
  const m = /^(?:the )?end of (?:the )?(.+)$/u.exec(text) ?? /^(.+?)の?(?:末|終わり|おわり)$/u.exec(text);
  if (!m) return null;
  const named = END_OF_THIS.get(m[1]!) ?? m[1]!;
  // A season is read as its first month (precision 'month'): its last day would be that month's.
  if (season(named, ref) !== null) return null;
  const lastDay = (p: Resolved | null): Temporal.PlainDate | null => {
    if (p === null || (p.precision !== 'month' && p.precision !== 'year')) return null;
    const first = Temporal.Instant.from(p.at).toZonedDateTimeISO(ref.timeZoneId).toPlainDate();
    return first.add(p.precision === 'month' ? { months: 1 } : { years: 1 }).subtract({ days: 1 });
  };
  let day = lastDay(period(named, ref, { ...options, ahead: false }));
  if (day !== null && options.ahead === true && Temporal.PlainDate.compare(day, ref.toPlainDate()) < 0) day = lastDay(period(named, ref, options));
  return day === null ? null : startOfDay(day, ref.timeZoneId);
}

/**
 * Why a time written in numbers is no time ("is not a date: there is no month 13", "is ambiguous: …"),
 * to follow the text in an error; null when its numbers are no fault (it may still be no time).
 */
export function whyNotATime(expression: string): string | null {
  const numeric = readNumericDate(clean(expression));
  return numeric !== null && 'fault' in numeric ? numeric.fault : null;
}

/** Lower-cases, folds width (NFKC), and drops framing words: "since", "from", "until", "から", "まで", "以来"… */
function clean(expression: string): string {
  let text = expression.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  for (let i = 0; i < 3; i++) {
    text = text
      .replace(/[.。、,!！?？]+$/u, '')
      .replace(/^(since|from|as of|starting(?: from| on| in)?|beginning(?: in| on)?|until|till|til|up to|up until|through|by|on|at|during|around|about)\s+/u, '')
      .replace(/^(the )?(start|beginning) of /u, '')
      .replace(IN_NOT_DURATION, '')
      .replace(/(から|より|まで|以来|以降|に|頃|ごろ|くらい|ぐらい|の間|の時|あたり)$/u, '')
      .trim();
  }
  // Japanese is written without spaces: drop the ones between CJK characters and digits.
  if (NON_ASCII.test(text)) text = text.replace(/\s+/g, '');
  return text;
}

function iso(text: string, ref: Ref): Resolved | null {
  const zone = ref.timeZoneId;
  const date = /^(\d{4})[-/](\d{1,2})(?:[-/](\d{1,2}))?$/.exec(text);
  if (date) {
    if (date[3] === undefined) return startOfMonth(Number(date[1]), Number(date[2]), zone);
    const d = plainDate(Number(date[1]), Number(date[2]), Number(date[3]));
    return d ? startOfDay(d, zone) : null;
  }
  const dt = /^(\d{4})-(\d{2})-(\d{2})[t ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(z|[+-]\d{2}:?\d{2})?$/.exec(text);
  if (!dt) return null;
  const d = plainDate(Number(dt[1]), Number(dt[2]), Number(dt[3]));
  if (!d) return null;
  const [h, mi, s] = [Number(dt[4]), Number(dt[5]), Number(dt[6] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return null;
  const ms = Math.floor(Number(`0.${dt[7] ?? '0'}`) * 1000);
  const wall = Temporal.PlainDateTime.from({ year: d.year, month: d.month, day: d.day, hour: h, minute: mi, second: s, millisecond: ms });
  const inZone = dt[8] ? zoneOfIsoTime(`T${dt[8].toUpperCase()}`) : zone;
  return atInstant(wall.toZonedDateTime(inZone).toInstant(), 'instant');
}

function named(text: string, ref: Ref): Resolved | null {
  const zone = ref.timeZoneId;
  const today = ref.toPlainDate();
  if (NOW_WORDS.has(text)) return atInstant(ref.toInstant(), 'instant');
  const day = DAY_WORDS[text];
  if (day !== undefined) return startOfDay(today.add({ days: day }), zone);
  const week = WEEK_WORDS[text];
  if (week !== undefined) return startOfDay(mondayOf(today).add({ weeks: week }), zone);
  const month = MONTH_WORDS[text];
  if (month !== undefined) {
    const first = today.with({ day: 1 }).add({ months: month });
    return startOfMonth(first.year, first.month, zone);
  }
  const weekend = WEEKEND.exec(text);
  if (weekend) {
    const offset = { last: -1, this: 0, next: 1, 先週: -1, 今週: 0, 来週: 1 }[(weekend[1] ?? weekend[2])!]!;
    return startOfDay(mondayOf(today).add({ weeks: offset }).add({ days: 5 }), zone);
  }
  const year = yearOf(text, ref);
  if (year !== null) return startOfYear(year, zone);
  return null;
}

function duration(expression: string, ref: Ref, keepTimeOfDay: boolean): Resolved | null {
  // "half a year" / "半年" is six months
  const text = expression.replace(/^(in )?half an? year\b/u, (_, inWord: string | undefined) => `${inWord ?? ''}6 months`).replace(/^半年/u, '6か月');
  const en = new RegExp(`^(${NUMBER}) (${EN_UNIT}) (ago|before|earlier|back|later|after|from now|hence)$`, 'u').exec(text) ?? new RegExp(`^(in) (${NUMBER}) (${EN_UNIT})$`, 'u').exec(text);
  const ja = new RegExp(`^(${NUMBER})(${JA_UNIT})(前|後|あと|先|ぶり)$`, 'u').exec(text);
  let amount: number | null = null;
  let unit = null;
  let sign = 0;
  if (en && en[1] === 'in') [amount, unit, sign] = [numberOf(en[2]!), enUnit(en[3]!), 1];
  else if (en) [amount, unit, sign] = [numberOf(en[1]!), enUnit(en[2]!), /^(ago|before|earlier|back)$/.test(en[3]!) ? -1 : 1];
  else if (ja) [amount, unit, sign] = [numberOf(ja[1]!), jaUnit(ja[2]!), ja[3] === '前' || ja[3] === 'ぶり' ? -1 : 1];
  if (amount === null || unit === null || amount > 100_000) return null;
  try {
    const shift = { [`${unit}s`]: sign * amount };
    if (unit === 'hour' || unit === 'minute') return atInstant(ref.add(shift).toInstant(), 'instant');
    if (keepTimeOfDay) return atInstant(ref.add(shift).toInstant(), 'day');
    // Good to a day: the day it lands on, from its start (like "yesterday"), never the time of day said.
    return startOfDay(ref.toPlainDate().add(shift), ref.timeZoneId);
  } catch {
    return null;
  }
}

function weekday(text: string, ref: Ref, ahead: boolean): Resolved | null {
  const zone = ref.timeZoneId;
  const today = ref.toPlainDate();
  const en = new RegExp(`^(?:(last|this|next|past|previous|coming) )?(${EN_WEEKDAY})(?: (?:of )?(last|this|next) week)?$`, 'u').exec(text);
  const ja = new RegExp(`^(?:(先々週|先週|今週|来週|再来週)の?)?${JA_WEEKDAY}$`, 'u').exec(text);
  let target: number | null = null;
  let mode = '';
  if (en) [target, mode] = [enWeekday(en[2]!), en[3] ? `week:${en[3]}` : (en[1] ?? '')];
  else if (ja) [target, mode] = [jaWeekday(ja[2]!), ja[1] ? `week:${ja[1]}` : ''];
  if (target === null) return null;
  // Ahead, the nearest one not over: today counts ("until Monday" said on Monday holds through it).
  if (ahead && mode === '') return startOfDay(today.add({ days: (target - today.dayOfWeek + 7) % 7 }), zone);
  const weekOffsets = lookup({ last: -1, this: 0, next: 1, 先々週: -2, 先週: -1, 今週: 0, 来週: 1, 再来週: 2 });
  if (mode.startsWith('week:') || mode === 'this') {
    const weeks = mode === 'this' ? 0 : weekOffsets[mode.slice(5)]!;
    return startOfDay(mondayOf(today).add({ weeks }).add({ days: target - 1 }), zone);
  }
  const back = (today.dayOfWeek - target + 7) % 7;
  if (mode === 'last' || mode === 'past' || mode === 'previous') return startOfDay(today.subtract({ days: back === 0 ? 7 : back }), zone);
  if (mode === 'next' || mode === 'coming') {
    const ahead = (target - today.dayOfWeek + 7) % 7;
    return startOfDay(today.add({ days: ahead === 0 ? 7 : ahead }), zone);
  }
  return startOfDay(today.subtract({ days: back }), zone);
}

/** A weekday said with last/this/next or a week ("next Friday at 5pm", "来週の金曜17時"): chrono places it as said. */
const WEEK_SAID = /\b(?:last|this|next|past|previous|coming)\b|週/u;

/**
 * The rest: whatever chrono-node reads in full (dates with a time of day, mostly), placed in the zone.
 * A date without a year and a bare weekday follow the rules above (chrono's own choice is the nearest
 * weekday, ahead or back); read ahead, today at a time of day still to come is the one ("until 6pm on
 * Monday" said on Monday morning), as it starts after the message.
 */
function withChrono(text: string, ref: Ref, ahead: boolean): Resolved | null {
  const parser = NON_ASCII.test(text) ? chrono.ja : chrono.en;
  const offsetMinutes = Math.round(ref.offsetNanoseconds / 60e9);
  const results = parser.parse(text, { instant: new Date(ref.epochMilliseconds), timezone: offsetMinutes });
  if (results.length !== 1 || results[0]!.text.replace(/\s/g, '') !== text.replace(/\s/g, '')) return null;
  const start = results[0]!.start;
  if (!start.isCertain('day') && !start.isCertain('weekday') && !start.isCertain('month')) return null;
  const today = ref.toPlainDate();
  const zone = start.isCertain('timezoneOffset') ? offsetId(start.get('timezoneOffset')!) : ref.timeZoneId;
  const time = start.isCertain('hour') ? { hour: start.get('hour')!, minute: start.get('minute') ?? 0, second: start.get('second') ?? 0 } : null;
  const ofDay = start.isCertain('day') || start.isCertain('weekday');
  const place = (date: Temporal.PlainDate): Resolved | null =>
    time === null ? startOfDay(date, ref.timeZoneId, ofDay ? 'day' : 'month') : atInstant(date.toPlainDateTime(time).toZonedDateTime(zone).toInstant(), 'instant');
  const laterToday = (date: Temporal.PlainDate): boolean => {
    const at = ahead && time !== null && date.equals(today) ? place(date) : null;
    return at !== null && Temporal.Instant.compare(Temporal.Instant.from(at.at), ref.toInstant()) > 0;
  };
  let year = start.get('year')!;
  const [month, day] = [start.get('month')!, start.get('day')!];
  if (!start.isCertain('year') && start.isCertain('month')) {
    const thisYear = start.isCertain('day') ? plainDate(today.year, month, day) : null;
    const d = thisYear !== null && laterToday(thisYear) ? thisYear : ahead ? aheadOf(today, month, start.isCertain('day') ? day : null, time === null) : start.isCertain('day') ? mostRecent(today, month, day) : plainDate(month <= today.month ? today.year : today.year - 1, month, 1);
    if (!d) return null;
    year = d.year;
  }
  const date = plainDate(year, month, ofDay || !start.isCertain('month') ? day : 1);
  if (!date) return null;
  if (start.isCertain('weekday') && !start.isCertain('day') && !start.isCertain('month') && !WEEK_SAID.test(text)) {
    const target = start.get('weekday')! === 0 ? 7 : start.get('weekday')!;
    if (!ahead) return place(today.subtract({ days: (today.dayOfWeek - target + 7) % 7 }));
    const forward = (target - today.dayOfWeek + 7) % 7;
    return place(forward === 0 && !laterToday(today) ? today.add({ days: 7 }) : today.add({ days: forward }));
  }
  return place(date);
}

function offsetId(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
