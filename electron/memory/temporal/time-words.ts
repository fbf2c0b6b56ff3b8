/** The words of time expressions, English and Japanese: numbers, units, weekdays, months, seasons, eras. */

export type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

/** A word table with no prototype: "__proto__" or "constructor" in a message is a word like any other, not a key of Object. */
export function lookup(entries: Record<string, number>): Readonly<Record<string, number>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, number>, entries));
}

const EN_NUMBERS = lookup({
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, twenty: 20, thirty: 30, 'a couple of': 2, couple: 2,
});
const KANJI_DIGITS = lookup({ 〇: 0, 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 });

/** "3", "three", "a", "十二", "二十一", "元" (the first year of an era) → a number; null when not a number word. */
export function numberOf(word: string): number | null {
  const w = word.trim();
  if (/^\d+$/.test(w)) return Number(w);
  if (w in EN_NUMBERS) return EN_NUMBERS[w]!;
  if (w === '元') return 1;
  const kanji = /^([一二三四五六七八九])?(十)?([〇一二三四五六七八九])?$/u.exec(w);
  if (kanji && w !== '') {
    if (!kanji[2]) return kanji[1] && !kanji[3] ? KANJI_DIGITS[kanji[1]]! : null;
    return (kanji[1] ? KANJI_DIGITS[kanji[1]]! : 1) * 10 + (kanji[3] ? KANJI_DIGITS[kanji[3]]! : 0);
  }
  return null;
}
export const NUMBER = String.raw`\d+|[〇一二三四五六七八九十]+|a couple of|couple|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|twenty|thirty`;

export function enUnit(word: string): Unit | null {
  const w = word.replace(/s$/, '');
  if (w === 'min' || w === 'minute') return 'minute';
  if (w === 'hour' || w === 'hr') return 'hour';
  if (w === 'day' || w === 'week' || w === 'month' || w === 'year') return w;
  return null;
}
export const EN_UNIT = String.raw`minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?`;

export function jaUnit(word: string): Unit | null {
  const w = word.replace(/間$/u, '');
  if (w === '分') return 'minute';
  if (w === '時') return 'hour';
  if (w === '日') return 'day';
  if (w === '週') return 'week';
  if (w === '年') return 'year';
  if (/^[かヶカケヵ箇个]月$/u.test(w)) return 'month';
  return null;
}
export const JA_UNIT = String.raw`分間?|時間|日間?|週間?|[かヶカケヵ箇个]月間?|年間?`;

const EN_WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const EN_WEEKDAY_SHORT = lookup({ mon: 1, tue: 2, tues: 2, wed: 3, weds: 3, thu: 4, thur: 4, thurs: 4, fri: 5, sat: 6, sun: 7 });
/** ISO day of week (Monday 1 … Sunday 7). */
export function enWeekday(word: string): number | null {
  const full = EN_WEEKDAYS.indexOf(word);
  if (full >= 0) return full + 1;
  return EN_WEEKDAY_SHORT[word.replace(/\.$/, '')] ?? null;
}
export const EN_WEEKDAY = String.raw`monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun`;
const JA_WEEKDAYS = '月火水木金土日';
export function jaWeekday(char: string): number | null {
  const i = JA_WEEKDAYS.indexOf(char);
  return i >= 0 ? i + 1 : null;
}
export const JA_WEEKDAY = String.raw`([月火水木金土日])曜(?:日)?`;

const EN_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
export function enMonth(word: string): number | null {
  const w = word.replace(/\.$/, '');
  if (w.length < 3) return null;
  if (w === 'sept') return 9;
  const i = EN_MONTHS.findIndex((m) => m === w || (w.length === 3 && m.startsWith(w)));
  return i >= 0 ? i + 1 : null;
}
export const EN_MONTH = String.raw`january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec`;

/** Meteorological seasons (northern hemisphere): the month each starts. Winter Y starts in December Y. */
export function seasonMonth(word: string): number | null {
  const table = lookup({ spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12, 春: 3, 夏: 6, 秋: 9, 冬: 12 });
  return table[word] ?? null;
}
export const EN_SEASON = String.raw`spring|summer|autumn|fall|winter`;

/** Day / week / month / year words with their offset from the reference's own period. */
export const DAY_WORDS = lookup({
  today: 0, 'this morning': 0, 'this afternoon': 0, 'this evening': 0, tonight: 0, 今日: 0, きょう: 0, 本日: 0, 今朝: 0, 今晩: 0, 今夜: 0,
  yesterday: -1, 'last night': -1, 昨日: -1, きのう: -1, 昨夜: -1, 昨晩: -1, ゆうべ: -1,
  'the day before yesterday': -2, 'day before yesterday': -2, 一昨日: -2, おととい: -2, おとつい: -2,
  tomorrow: 1, 明日: 1, あした: 1, あす: 1, 'the day after tomorrow': 2, 'day after tomorrow': 2, 明後日: 2, あさって: 2,
});
export const WEEK_WORDS = lookup({
  'this week': 0, 今週: 0, 'last week': -1, 先週: -1, 'the week before last': -2, 先々週: -2, 先先週: -2,
  'next week': 1, 来週: 1, 'the week after next': 2, 再来週: 2,
});
export const MONTH_WORDS = lookup({
  'this month': 0, 今月: 0, 'last month': -1, 先月: -1, 'the month before last': -2, 先々月: -2, 先先月: -2,
  'next month': 1, 来月: 1, 'the month after next': 2, 再来月: 2,
});
export const YEAR_WORDS = lookup({
  'this year': 0, 今年: 0, 本年: 0, ことし: 0, 'last year': -1, 去年: -1, 昨年: -1, きょねん: -1,
  'the year before last': -2, 一昨年: -2, おととし: -2, 'next year': 1, 来年: 1, 翌年: 1, 'the year after next': 2, 再来年: 2,
});
export const NOW_WORDS = new Set(['now', 'right now', 'just now', 'currently', 'at the moment', 'at present', 'nowadays', 'these days', '今', 'いま', '現在', '只今', 'ただいま', '現時点', '今現在']);
/** Japanese eras: the Gregorian year before year 1 of each. */
export const ERAS = lookup({ 令和: 2018, 平成: 1988, 昭和: 1925, 大正: 1911, 明治: 1867 });
