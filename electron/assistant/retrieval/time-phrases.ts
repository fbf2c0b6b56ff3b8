/**
 * Where a question names a time: the candidate phrases, each with what the resolver is to read
 * ("since 2024" → "2024") and the words around it that change its meaning ("before", "as of",
 * "の時点で", "から" …). English questions are cut into runs of time-ish words (dates, month, season
 * and weekday names, "last", "ago", "in" …), every span of a run a candidate, longest first; Japanese
 * has no spaces, so its time phrases are matched by pattern. question-time.ts resolves them.
 */
export type Mode = 'default' | 'as-of-end' | 'as-of-start' | 'since' | 'before' | 'after' | 'during' | Third;
/** Early, mid, late: the first, second or last third of a month, season or year. */
export type Third = 'early' | 'mid' | 'late';

export interface Candidate {
  /** Offsets in the normalised question. */
  start: number;
  end: number;
  /** What the resolver is given. */
  core: string;
  mode: Mode;
  /** A second end for "from X to Y" / "XからYまで". */
  to?: string;
}

/**
 * The candidates of a (NFKC-normalised) question in groups, in the order to try them: whole phrases
 * first ("in the last 3 months" is not "last 3 months"), then each run or match in the question's order.
 */
export function timePhrases(text: string): Candidate[][] {
  return [...specialGroups(text), ...[...englishGroups(text), ...japaneseGroups(text)].sort((a, b) => a[0]!.start - b[0]!.start)];
}

// ——— English ———

export const EN_MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec';
export const EN_WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const ANCHOR = new RegExp(`^(?:${EN_MONTHS}|${EN_WEEKDAYS}|spring|summer|autumn|fall|winter|yesterday|tomorrow|weekend|weeks?|months?|years?|days?|hours?|minutes?)$`, 'u');
/** Time words that are also ordinary words: a time only beside another time word. */
const AMBIGUOUS = new Set(['may', 'march', 'mar', 'jan', 'spring', 'summer', 'fall', 'winter', 'autumn', 'sun', 'sat', 'wed', 'mon', 'fri', 'tue', 'thu']);
const CONNECTOR = new Set([
  'last', 'this', 'next', 'past', 'previous', 'coming', 'the', 'of', 'in', 'on', 'at', 'during', 'throughout', 'since', 'as', 'from', 'starting',
  'ago', 'before', 'earlier', 'later', 'back', 'after', 'hence', 'a', 'an', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine',
  'ten', 'eleven', 'twelve', 'fifteen', 'twenty', 'thirty', 'couple', 'half', 'start', 'beginning', 'end', 'until', 'till', 'by', 'prior', 'to',
  'up', 'around', 'about', 'between', 'and', 'through', 'today', 'now', 'early', 'mid', 'middle', 'late', 'sun', 'sat', 'wed', 'mon', 'fri', 'tue', 'thu',
]);
const CJK = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/u;
/** Punctuation that ends a sentence (a run of time words stops there); "Sept." and "10," go on. */
const SENTENCE_END = /[?!;。？！]$|[^a-z]\.$/iu;

const EN_FRAMES: [RegExp, Mode][] = [
  [/^(?:as of|at the time of) /u, 'as-of-end'],
  [/^(?:(?:at|by) )?(?:the )?end of /u, 'as-of-end'],
  [/^(?:at )?(?:the )?(?:start|beginning) of /u, 'as-of-start'],
  [/^(?:since|from|starting(?: from| on| in)?) /u, 'since'],
  [/^(?:before|until|till|til|prior to|up to|up until|by) /u, 'before'],
  [/^after /u, 'after'],
  [/^(?:(?:in|during) )?(?:the )?early[- ]/u, 'early'],
  [/^(?:(?:in|during) )?(?:the )?(?:mid|middle of)[- ]/u, 'mid'],
  [/^(?:(?:in|during) )?(?:the )?late[- ]/u, 'late'],
  [/^(?:during|throughout|in|within) /u, 'during'],
  [/^(?:on|at|around|about) /u, 'default'],
];
const EN_RANGE = /^(?:from|between) (.+?) (?:to|until|till|and|through) (.+)$/u;
const EN_AROUND_NOW = /\b(?:(?:at )?(?:this|the same|same) time (?:last|a) (year|month|week)|(?:a|one) (year|month|week) ago today)\b/giu;
/** "in the last 3 months", "over the past two years": since that long ago. */
const EN_LATELY = /\b(?:(?:in|over|during) )?the (?:last|past) (\d+|two|three|four|five|six|seven|eight|nine|ten|twelve|few) (days|weeks|months|years)\b/giu;

/** Words of a run tried: "from the 10th of September 2026 to the end of October 2026" is 11. */
const MAX_RUN = 12;

interface Token { start: number; end: number; word: string; anchor: boolean; ambiguous: boolean; stop: boolean }

function englishTokens(text: string): Token[] {
  const tokens: Token[] = [];
  for (const m of text.matchAll(/\S+/gu)) {
    const raw = m[0];
    const lead = /^[("'“‘[]*/u.exec(raw)![0].length;
    const word = raw.slice(lead).replace(/[)"'”’\].,!?;:。、？！]+$/u, '').toLowerCase();
    const start = m.index + lead;
    const time = !CJK.test(word) && (/\d/u.test(word) || ANCHOR.test(word) || CONNECTOR.has(word));
    tokens.push({
      start,
      end: start + word.length,
      word: time ? word : '',
      anchor: time && (/\d/u.test(word) || ANCHOR.test(word) || AMBIGUOUS.has(word)),
      ambiguous: AMBIGUOUS.has(word),
      stop: SENTENCE_END.test(raw),
    });
  }
  return tokens;
}

/** Spans of each run of time-ish words, longest first: one group per run. */
function englishGroups(text: string): Candidate[][] {
  const tokens = englishTokens(text);
  const groups: Candidate[][] = [];
  let i = 0;
  while (i < tokens.length) {
    if (!tokens[i]!.word) { i++; continue; }
    let j = i;
    while (j + 1 < tokens.length && tokens[j + 1]!.word && !tokens[j]!.stop) j++;
    // A run longer than any time phrase (a list of numbers) is tried in its first words only.
    const run = tokens.slice(i, Math.min(j + 1, i + MAX_RUN));
    if (run.some((t) => t.anchor)) groups.push(runCandidates(text, run));
    i = j + 1;
  }
  return groups;
}

function runCandidates(text: string, run: Token[]): Candidate[] {
  const out: Candidate[] = [];
  for (let length = Math.min(run.length, 8); length >= 1; length--) {
    for (let a = 0; a + length <= run.length; a++) {
      const span = run.slice(a, a + length);
      const anchors = span.filter((t) => t.anchor);
      if (anchors.length === 0) continue;
      // "may", "march", "spring" alone are words, not times; "in May", "last spring", "May 2024" are times.
      if (anchors.every((t) => t.ambiguous) && length === 1) continue;
      const start = span[0]!.start;
      const end = span[span.length - 1]!.end;
      const words = text.slice(start, end).toLowerCase().replace(/\s+/gu, ' ');
      const range = EN_RANGE.exec(words);
      if (range) out.push({ start, end, core: range[1]!, to: range[2]!, mode: 'since' });
      const frame = EN_FRAMES.find(([re]) => re.test(words));
      // The time inside its frame first: "at the end of 2024" asks as of the end of the year 2024
      // (the resolver would read the whole phrase as 31 December, a day).
      if (frame) {
        const core = words.replace(frame[0], '');
        out.push({ start, end, core, mode: frame[1] });
        // "in the summer of 2024": the resolver reads "summer of 2024".
        if (core.startsWith('the ')) out.push({ start, end, core: core.slice(4), mode: frame[1] });
      }
      out.push({ start, end, core: words, mode: frame ? frame[1] : 'default' });
    }
  }
  return out;
}

// ——— Japanese ———

const N = '(?:\\d{1,4}|[〇一二三四五六七八九十]+|元)';
const MONTH_DAY = '(?:\\d{1,2}|[一二三四五六七八九十]+)月(?:(?:\\d{1,2}|[一二三四五六七八九十]+)日)?';
const YEAR = `(?:(?:令和|平成|昭和|大正|明治)${N}年|\\d{1,4}年|今年|本年|ことし|去年|昨年|一昨年|おととし|来年|再来年)`;
const AROUND_NOW = '(?:去年|昨年|一昨年|おととし|先月|先週)の(?:今頃|今ごろ|いまごろ|この時期|同じ頃|同じ時期)';
const WEEKDAY = '(?:(?:先々週|先週|今週|来週|再来週)の?)?[月火水木金土日]曜日?';
const DURATION = '(?:\\d+|[一二三四五六七八九十]+|半)(?:年|か月|ヶ月|カ月|ケ月|ヵ月|箇月|週間|日|時間|分)(?:前|後)';
const RELATIVE = '(?:先々週|先週|今週|来週|再来週)末?|先々月|先月|今月|来月|再来月|一昨日|おととい|昨日|きのう|昨夜|昨晩|ゆうべ|明日|あした|明後日|あさって';
/** 「春に」「夏の間」: a season alone, not inside a word or a name (青春, 千春に). */
const SEASON = '(?<![\\p{Script=Han}\\p{Script=Katakana}ー])[春夏秋冬](?=に|の間|の頃|頃|ごろ)';
const JA_TIME = new RegExp(
  `${AROUND_NOW}|\\d{4}[-/]\\d{1,2}(?:[-/]\\d{1,2})?|${YEAR}の?${MONTH_DAY}|${MONTH_DAY}|${YEAR}の?[春夏秋冬]|${WEEKDAY}|${DURATION}|${RELATIVE}|${YEAR}|${SEASON}`,
  'gu',
);
const AROUND_NOW_WORD = new RegExp(`^${AROUND_NOW}$`, 'u');
/** 年末, 去年の年末, 月末 (of this month; 先月末 and 11月末 are a month with its 末): as of the end of that year or month. */
const JA_PERIOD_END = new RegExp(`(?:(${YEAR})の)?(?<![\\d〇一二三四五六七八九十元今去昨来])年末|(?<![今先来々\\d一二三四五六七八九十])月末`, 'gu');
/** 過去3年, ここ2か月: since that long ago. */
const JA_LATELY = /(?:過去|ここ)(\d+|[一二三四五六七八九十]+)(年|か月|ヶ月|カ月|週間|日)(?:間)?/gu;
const AROUND_NOW_AS = { 去年: '1年前', 昨年: '1年前', 一昨年: '2年前', おととし: '2年前', 先月: '1か月前', 先週: '1週間前' } as Record<string, string>;
const JA_SUFFIXES: [RegExp, Mode][] = [
  [/^の?(?:時点|現在)/u, 'as-of-end'],
  [/^の?(?:末|終わり)/u, 'as-of-end'],
  [/^の?(?:上旬|初旬|初め|はじめ|初頭)/u, 'early'],
  [/^の?(?:中旬|半ば|なかば)/u, 'mid'],
  [/^の?下旬/u, 'late'],
  [/^(?:から|以来|以降)/u, 'since'],
  [/^(?:まで|以前|より前)/u, 'before'],
  [/^(?:以後|の後|より後)/u, 'after'],
  [/^(?:の間|中|の頃|頃|ごろ)/u, 'during'],
];

function japaneseGroups(text: string): Candidate[][] {
  const matches = [...text.matchAll(JA_TIME)].map((m) => ({ start: m.index, end: m.index + m[0].length, word: m[0] }));
  const groups: Candidate[][] = [];
  for (const [k, m] of matches.entries()) {
    const before = text.slice(Math.max(0, m.start - 2), m.start);
    if (before.includes('毎')) continue; // 毎週月曜日: every Monday, not one
    const after = text.slice(m.end);
    const around = AROUND_NOW_WORD.test(m.word) ? AROUND_NOW_AS[m.word.slice(0, m.word.indexOf('の'))] : undefined;
    const suffix = JA_SUFFIXES.find(([re]) => re.test(after));
    const next = matches[k + 1];
    // 2023年から2024年まで: one period.
    if (suffix?.[1] === 'since' && next && /^(?:から|より)$/u.test(text.slice(m.end, next.start)) && /^まで/u.test(text.slice(next.end))) {
      groups.push([{ start: m.start, end: next.end + 2, core: m.word, to: next.word, mode: 'since' }]);
      continue;
    }
    const end = m.end + (suffix ? suffix[0].exec(after)![0].length : 0);
    groups.push([{ start: m.start, end, core: around ?? m.word, mode: around ? 'default' : (suffix?.[1] ?? 'default') }]);
  }
  return groups;
}

/** Whole phrases the resolver has no word for, said as what it reads: "this time last year" → "1 year ago". */
function specialGroups(text: string): Candidate[][] {
  const lower = text.toLowerCase();
  const around = [...lower.matchAll(EN_AROUND_NOW)].map((m): Candidate => ({ start: m.index, end: m.index + m[0].length, core: `1 ${m[1] ?? m[2]} ago`, mode: 'default' }));
  const lately = [...lower.matchAll(EN_LATELY)].map((m): Candidate => ({ start: m.index, end: m.index + m[0].length, core: `${m[1] === 'few' ? 3 : m[1]} ${m[2]} ago`, mode: 'since' }));
  const ja = [...text.matchAll(JA_LATELY)].map((m): Candidate => ({ start: m.index, end: m.index + m[0].length, core: `${m[1]}${m[2]}前`, mode: 'since' }));
  const ends = [...text.matchAll(JA_PERIOD_END)].map((m): Candidate => ({ start: m.index, end: m.index + m[0].length, core: m[0].endsWith('年末') ? (m[1] ?? '今年') : '今月', mode: 'as-of-end' }));
  return [...around, ...lately, ...ja, ...ends].map((c) => [c]);
}
