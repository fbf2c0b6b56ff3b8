/**
 * Calendar dates as people write them, for the time-expression resolver (time-expression.ts):
 * a month and day, a month, a season, a year word or era ("去年", "令和5年"), "the 5th" — each the
 * most recent one not after the reference's local day unless a year or "last/this/next" says
 * otherwise, or it ends something still to come (`ahead`: the nearest one not over yet, the one
 * under way included: "until June" said on 15 June is this June). The rules are in time-expression.ts's header; each function returns null
 * for text that is not its kind.
 */
import { Temporal } from 'temporal-polyfill';
import { plainDate, startOfDay, startOfMonth, type Resolved } from './time-zone';
import { EN_MONTH, EN_SEASON, ERAS, YEAR_WORDS, enMonth, numberOf, seasonMonth } from './time-words';

type Ref = Temporal.ZonedDateTime;

const ORDINAL_DAY = /^(?:the )?(\d{1,2})(?:st|nd|rd|th)$/u;

/**
 * "the 5th", "21st": that day of the month, the most recent one not after the reference's local
 * day (today included); a month without it is passed over ("the 31st" on 20 September is 31 August,
 * "the 30th" in March is 30 January). Days 1–31 only.
 */
export function dayOfMonth(text: string, ref: Ref, ahead = false): Resolved | null {
  const m = ORDINAL_DAY.exec(text);
  if (!m) return null;
  const day = Number(m[1]);
  if (day < 1 || day > 31) return null;
  if (ahead) {
    let next = ref.toPlainDate().with({ day: 1 });
    if (day < ref.day) next = next.add({ months: 1 });
    for (let i = 0; i < 12; i++, next = next.add({ months: 1 })) {
      const d = plainDate(next.year, next.month, day);
      if (d) return startOfDay(d, ref.timeZoneId);
    }
    return null;
  }
  let month = ref.toPlainDate().with({ day: 1 });
  if (day > ref.day) month = month.subtract({ months: 1 });
  for (let i = 0; i < 12; i++, month = month.subtract({ months: 1 })) {
    const d = plainDate(month.year, month.month, day);
    if (d) return startOfDay(d, ref.timeZoneId);
  }
  return null;
}

export const yearOf = (word: string, ref: Ref): number | null => {
  const offset = YEAR_WORDS[word];
  if (offset !== undefined) return ref.year + offset;
  const era = /^(令和|平成|昭和|大正|明治)(\d+|元|[一二三四五六七八九十]+)年?$/u.exec(word);
  if (era) {
    const n = numberOf(era[2]!);
    return n === null ? null : ERAS[era[1]!]! + n;
  }
  const y = /^(?:the year )?(\d{4})年?$/u.exec(word) ?? /^(\d{1,4})年$/u.exec(word);
  return y ? Number(y[1]) : null;
};

/** The most recent date with these fields not after the reference's local day; Feb 29 looks back to a leap year. */
export function mostRecent(today: Temporal.PlainDate, month: number, day: number): Temporal.PlainDate | null {
  for (let year = today.year; year >= Math.max(0, today.year - 8); year--) {
    const d = plainDate(year, month, day);
    if (d && Temporal.PlainDate.compare(d, today) <= 0) return d;
  }
  return null;
}

/**
 * The first date with these fields not over by the reference's local day (`day` null: the first of
 * a month not over: this month counts); `todayCounts` false: after today (a time of day on it has passed).
 */
export function aheadOf(today: Temporal.PlainDate, month: number, day: number | null, todayCounts = true): Temporal.PlainDate | null {
  for (let year = today.year; year <= today.year + 8; year++) {
    const d = plainDate(year, month, day ?? 1);
    if (!d) continue;
    if (day === null ? year > today.year || month >= today.month : Temporal.PlainDate.compare(d, today) > (todayCounts ? -1 : 0)) return d;
  }
  return null;
}

export function calendar(text: string, ref: Ref, ahead = false): Resolved | null {
  const zone = ref.timeZoneId;
  const today = ref.toPlainDate();
  const parts = enDate(text) ?? jaDate(text);
  if (!parts) return null;
  const { yearWord, modifier, month, day } = parts;
  if (month === null || month < 1 || month > 12) return null;
  let year: number | null = null;
  if (yearWord !== undefined) {
    year = yearOf(yearWord, ref);
    if (year === null) return null;
  }
  if (year === null && day !== null && modifier === undefined) {
    const d = ahead ? aheadOf(today, month, day) : mostRecent(today, month, day);
    return d ? startOfDay(d, zone) : null;
  }
  if (year === null) {
    const mod = modifier ?? (ahead ? 'ahead' : '');
    if (mod === 'this') year = today.year;
    else if (mod === 'ahead') year = month >= today.month ? today.year : today.year + 1;
    else if (mod === 'last') year = month < today.month ? today.year : today.year - 1;
    else if (mod === 'next') year = month > today.month ? today.year : today.year + 1;
    else year = month <= today.month ? today.year : today.year - 1;
  }
  if (day === null) return startOfMonth(year, month, zone);
  const d = plainDate(year, month, day);
  return d ? startOfDay(d, zone) : null;
}

interface DateParts { yearWord?: string; modifier?: string; month: number | null; day: number | null }

function enDate(text: string): DateParts | null {
  const yearTail = String.raw`(?:,? (?:of |in )?(\d{4}|last year|this year|next year))?`;
  const monthFirst = new RegExp(`^(?:(last|this|next) )?(${EN_MONTH})\\.?(?: (?:the )?(\\d{1,2})(?:st|nd|rd|th)?)?${yearTail}$`, 'u').exec(text);
  if (monthFirst) return { modifier: monthFirst[1], month: enMonth(monthFirst[2]!), day: monthFirst[3] ? Number(monthFirst[3]) : null, yearWord: monthFirst[4] };
  const dayFirst = new RegExp(`^(?:the )?(\\d{1,2})(?:st|nd|rd|th)? (?:of )?(${EN_MONTH})\\.?${yearTail}$`, 'u').exec(text);
  if (dayFirst) return { month: enMonth(dayFirst[2]!), day: Number(dayFirst[1]), yearWord: dayFirst[3] };
  return null;
}

function jaDate(text: string): DateParts | null {
  const n = '(\\d{1,2}|[一二三四五六七八九十]+)';
  const m = new RegExp(`^(?:((?:令和|平成|昭和|大正|明治)?(?:\\d{1,4}|元|[一二三四五六七八九十]+)年|今年|本年|去年|昨年|一昨年|おととし|来年|再来年)の?)?${n}月(?:${n}日)?$`, 'u').exec(text);
  if (m) return { yearWord: m[1], month: numberOf(m[2]!), day: m[3] ? numberOf(m[3]) : null };
  return null;
}

export function season(text: string, ref: Ref, ahead = false): Resolved | null {
  const zone = ref.timeZoneId;
  const today = ref.toPlainDate();
  const en = new RegExp(`^(?:(last|this|next|past) )?(${EN_SEASON})(?:,? (?:of |in )?(\\d{4}|last year|this year|next year))?$`, 'u').exec(text);
  const ja = /^(?:((?:令和|平成|昭和)?(?:\d{1,4}|元)年|今年|本年|去年|昨年|一昨年|おととし|来年|再来年)の?)?(春|夏|秋|冬)$/u.exec(text);
  const month = seasonMonth((en?.[2] ?? ja?.[2]) ?? '');
  if (month === null) return null;
  const yearWord = en ? en[3] : ja![1];
  const modifier = en?.[1] ?? (ahead ? 'ahead' : undefined);
  if (yearWord !== undefined) {
    const year = yearOf(yearWord, ref);
    return year === null ? null : startOfMonth(year, month, zone);
  }
  const start = (year: number) => plainDate(year, month, 1);
  const recentYear = Temporal.PlainDate.compare(start(today.year)!, today) <= 0 ? today.year : today.year - 1;
  const within = (year: number) => Temporal.PlainDate.compare(today, start(year)!.add({ months: 3 })) < 0;
  let year = recentYear;
  if (modifier === 'last' || modifier === 'past') year = within(recentYear) ? recentYear - 1 : recentYear;
  else if (modifier === 'next') year = recentYear + 1;
  else if (modifier === 'ahead') year = within(recentYear) ? recentYear : recentYear + 1;
  else if (modifier === 'this') year = month === 12 && today.month <= 2 ? today.year - 1 : today.year;
  return startOfMonth(year, month, zone);
}
