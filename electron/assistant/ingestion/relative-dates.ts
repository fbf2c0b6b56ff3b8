/**
 * Turns a time expression as written in a message ("last week", "先週", "3日前", "2026-09-01",
 * "9月1日", "since March") into an instant, resolved against the message's reference_time — never
 * against today (rule 2). The model only copies the phrase; the arithmetic is done here, in code.
 *
 * Dates without a time resolve to 00:00 UTC of that day; relative day/week/month/year shifts keep
 * the reference's time of day. Returns null for anything it does not understand.
 */
import { toIsoUtc } from '../../../shared/time';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const UNIT_MS = { day: 86_400_000, week: 7 * 86_400_000 } as const;
type Unit = 'day' | 'week' | 'month' | 'year';

const WORD_NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, few: 3, couple: 2, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };

export function resolveTimeExpression(expression: string, referenceTime: string): string | null {
  const text = clean(expression);
  if (text === '') return null;
  const ref = new Date(referenceTime);
  if (Number.isNaN(ref.getTime())) throw new RangeError(`bad reference time ${referenceTime}`);

  const iso = tryIso(text);
  if (iso) return iso;

  const fixed: Record<string, [number, Unit]> = {
    today: [0, 'day'], now: [0, 'day'], currently: [0, 'day'], 'these days': [0, 'day'], 今日: [0, 'day'], 今: [0, 'day'], 現在: [0, 'day'], 最近: [0, 'day'], 本日: [0, 'day'],
    yesterday: [-1, 'day'], 昨日: [-1, 'day'], きのう: [-1, 'day'], 'the day before yesterday': [-2, 'day'], 一昨日: [-2, 'day'], おととい: [-2, 'day'],
    tomorrow: [1, 'day'], 明日: [1, 'day'], あした: [1, 'day'],
    'last week': [-1, 'week'], 先週: [-1, 'week'], 'this week': [0, 'week'], 今週: [0, 'week'], 'next week': [1, 'week'], 来週: [1, 'week'],
    'last month': [-1, 'month'], 先月: [-1, 'month'], 'this month': [0, 'month'], 今月: [0, 'month'], 'next month': [1, 'month'], 来月: [1, 'month'],
    'last year': [-1, 'year'], 去年: [-1, 'year'], 昨年: [-1, 'year'], 'this year': [0, 'year'], 今年: [0, 'year'], 'next year': [1, 'year'], 来年: [1, 'year'],
    おととし: [-2, 'year'], 一昨年: [-2, 'year'],
  };
  const hit = fixed[text];
  if (hit) return shift(ref, hit[0], hit[1]);

  const ago = /^(\d+|[a-z]+|[一二三四五六七八九十])\s*(day|week|month|year)s?\s+ago$/u.exec(text) ?? /^(\d+|[a-z]+)\s*(day|week|month|year)s?\s+before$/u.exec(text);
  if (ago) return withNumber(ago[1]!, (n) => shift(ref, -n, ago[2] as Unit));
  const inFuture = /^in\s+(\d+|[a-z]+)\s*(day|week|month|year)s?$/u.exec(text);
  if (inFuture) return withNumber(inFuture[1]!, (n) => shift(ref, n, inFuture[2] as Unit));
  const ja = /^(\d+|[一二三四五六七八九十])\s*(日|週間|週|か月|ヶ月|カ月|ケ月|ヵ月|ヶ月間|か月間|年)(前|後)$/u.exec(text);
  if (ja) {
    const unit: Unit = ja[2]!.startsWith('週') ? 'week' : ja[2] === '日' ? 'day' : ja[2] === '年' ? 'year' : 'month';
    return withNumber(ja[1]!, (n) => shift(ref, ja[3] === '前' ? -n : n, unit));
  }

  const jaDate = /^(?:(\d{4})年)?(\d{1,2})月(?:(\d{1,2})日)?$/u.exec(text);
  if (jaDate) return calendar(ref, jaDate[1], Number(jaDate[2]), jaDate[3] ? Number(jaDate[3]) : 1);
  const jaYear = /^(\d{4})年$/u.exec(text);
  if (jaYear) return calendar(ref, jaYear[1], 1, 1);
  const slash = /^(\d{4})\/(\d{1,2})(?:\/(\d{1,2}))?$/u.exec(text);
  if (slash) return calendar(ref, slash[1], Number(slash[2]), slash[3] ? Number(slash[3]) : 1);
  const monthFirst = /^([a-z]+)\.?(?:\s+(\d{1,2})(?:st|nd|rd|th)?)?(?:,?\s+(\d{4}))?$/u.exec(text);
  if (monthFirst && monthIndex(monthFirst[1]!) >= 0) {
    return calendar(ref, monthFirst[3], monthIndex(monthFirst[1]!) + 1, monthFirst[2] ? Number(monthFirst[2]) : 1);
  }
  const dayFirst = /^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?(?:,?\s+(\d{4}))?$/u.exec(text);
  if (dayFirst && monthIndex(dayFirst[2]!) >= 0) return calendar(ref, dayFirst[3], monthIndex(dayFirst[2]!) + 1, Number(dayFirst[1]));
  const year = /^(?:in\s+)?(\d{4})$/u.exec(text);
  if (year) return calendar(ref, year[1], 1, 1);
  return null;
}

/** Lower-cases, folds width, and drops framing words: "since", "from", "until", "から", "まで", "に", "頃". */
function clean(expression: string): string {
  return expression
    .normalize('NFKC')
    .toLowerCase()
    .trim()
    .replace(/[.。、,!！?？]+$/u, '')
    .replace(/^(since|from|as of|starting|until|till|up to|on|in|at)\s+/u, (m) => (m.trim() === 'in' ? 'in ' : ''))
    .replace(/(から|より|まで|に|頃|ごろ|くらい|ぐらい|以来)$/u, '')
    .replace(/^(since|from)\s+/u, '')
    .trim();
}

function tryIso(text: string): string | null {
  if (!/^\d{4}-\d{2}(-\d{2})?/.test(text)) return null;
  try {
    return toIsoUtc(/^\d{4}-\d{2}$/.test(text) ? `${text}-01` : text.toUpperCase());
  } catch {
    return null;
  }
}

function withNumber(word: string, then: (n: number) => string | null): string | null {
  const n = /^\d+$/.test(word) ? Number(word) : WORD_NUMBERS[word];
  return n === undefined || n > 1000 ? null : then(n);
}

function monthIndex(word: string): number {
  if (word.length < 3) return -1;
  return MONTHS.findIndex((m) => m.startsWith(word));
}

function shift(ref: Date, amount: number, unit: Unit): string {
  if (unit === 'day' || unit === 'week') return new Date(ref.getTime() + amount * UNIT_MS[unit]).toISOString();
  const d = new Date(ref.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + amount);
  else d.setUTCFullYear(d.getUTCFullYear() + amount);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.toISOString();
}

/** A calendar date; without a year, the most recent such date not after the reference. */
function calendar(ref: Date, year: string | undefined, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  let y = year ? Number(year) : ref.getUTCFullYear();
  const build = (yy: number) => `${String(yy).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  try {
    let iso = toIsoUtc(build(y));
    if (!year && iso > ref.toISOString()) {
      y -= 1;
      iso = toIsoUtc(build(y));
    }
    return iso;
  } catch {
    return null;
  }
}
