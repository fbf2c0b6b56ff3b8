/**
 * The time a question names — "on 2026-09-10", "in 2024", "last spring", "3月の時点で", "去年の今頃" —
 * found in the question and resolved by the resolver ingestion uses (resolveTimeExpression), in the
 * user's zone at the reference instant (now). Pure: same question, same reference, same answer.
 *
 * Finding (time-phrases.ts): runs of time-ish English words, every span of a run tried longest first,
 * and Japanese time phrases by pattern; the first time in the question that the resolver reads is taken.
 *
 * What it means:
 * - A point ("on 10 Sep", "yesterday", "3 days ago", "as of March", "3月の時点で", "去年の今頃") is
 *   answered as of one instant (`asOf`): an instant itself; for a named day, month or year, its last
 *   moment (what was true by the end of it: a change on the day counts, and a fact held through it;
 *   shared/time.ts momentAskedBefore); "before X" the last moment before X starts, "after X" when it has ended, "at the start of X" when it starts.
 * - A period ("in 2024", "during March", "last spring", "去年", "先週", "since 2024", "2023年から2024年まで")
 *   is [at, until): a day, a week, a month, a season (three months), a year, or since X until now;
 *   "early/mid/late X", "上旬/中旬/下旬" a third of a month, season or year.
 * - Words that mean now ("now", "today", "今日", "現在") name no time: the question is about now.
 * - Bare words that are also ordinary words ("may", "march", "fall", "spring", "sat") count only with
 *   a word that makes them a time ("in May", "last spring", "May 2024"); a season with neither a year nor
 *   "last/this/next" is a habit ("what makes me sneeze in spring?"), not a time.
 * - A weekday alone is a habit ("what sport do I play on Saturday?", "every Monday", "土曜日に何をしますか"),
 *   not a date, unless the question is in the past tense ("what did I do on Saturday?"); "last Saturday",
 *   "先週の土曜日", "on Saturday 5 Sep" are dates.
 * - A month or day named without a year ("in May", "5月", "on 5 May") is the latest one the memory
 *   covers: the resolver's (the latest not after now), moved back a year at a time while it begins
 *   after the latest thing the memory holds began (`covered`).
 */
import { resolveTimeExpression, type Precision, type Resolved, type TimeReference } from '../../memory/index';
import { EN_MONTHS, EN_WEEKDAYS, timePhrases, type Candidate, type Third } from './time-phrases';
import { addInZone, isStartOfLocalDay } from './zoned-time';
import { isoFromMs, momentAskedBefore, toIsoUtc, type IsoTime } from '../../../shared/time';

export type QuestionTimeUnit = 'instant' | 'day' | 'week' | 'weekend' | 'month' | 'season' | 'year' | 'range';

export interface QuestionTime {
  /** The words of the question that name the time (NFKC-normalised). */
  phrase: string;
  /** The start of the time named (the resolver's value; for "before X", X's start). */
  at: IsoTime;
  /** The resolver's precision. */
  precision: Precision;
  /** What the phrase names: a day, a month, a season …; 'range' for "from X to Y", "since X". */
  unit: QuestionTimeUnit;
  kind: 'point' | 'period';
  /** A point: the instant the question is answered as of. */
  asOf?: IsoTime;
  /** A period: its end (exclusive). The period is [at, until). */
  until?: IsoTime;
  /** The zone the time was read in (the user's). */
  zone: string;
}


const TODAY_WORDS = /^(?:today|tonight|this (?:morning|afternoon|evening)|今日|きょう|本日|今朝|今晩|今夜)$/u;

/** What the memory covers: when the latest thing it holds began (null: an empty memory), asked only for a month or day without a year. */
export interface Covered {
  latestStart(): string | null;
}

/** The first time the question names, or null. `reference.instant` is now. */
export function findQuestionTime(question: string, reference: TimeReference, covered?: Covered): QuestionTime | null {
  const text = question.normalize('NFKC');
  // A message full of numbers (a pasted table) must not cost a resolver call per span.
  let budget = MAX_RESOLVER_CALLS;
  for (const group of timePhrases(text)) {
    for (const candidate of group) {
      if (budget-- === 0) return null;
      if (isHabit(text, candidate) || !dayOfMonthSaid(text, candidate)) continue;
      const time = meaningOf(text, candidate, reference);
      if (time) return covered && isYearless(candidate) ? withinMemory(time, covered) : time;
    }
  }
  return null;
}

const BARE_WEEKDAY = new RegExp(`^(?:(?:on|at|during|in|around|about) )?(?:${EN_WEEKDAYS})$|^[月火水木金土日]曜日?$`, 'u');
/** A past tense in English ("did", "went", "called") or Japanese (ました, でした, 会った?). */
const PAST_EN = /\b(?:did|was|were|had|went|got|made|met|saw|ate|drank|bought|told|said|took|came|gave|ran|spent|left|paid|sent|found|felt|heard|thought|brought|kept|wore|won|lost|began|wrote|rode|drove|flew|swam|sang|slept|\w{2,}[^e\W]ed)\b/iu;
const PAST_JA = /ました|でした|だった|かった|[っんいしきぎちりみびに]た(?:の|か|っけ)?(?:[?？。!！]|$)/u;

/**
 * A weekday or a season alone in a habit: "every Monday", "on Saturday", "in spring", 「春に」 in a
 * question not in the past tense ("what did I do in spring?" names the latest spring).
 */
function isHabit(text: string, c: Candidate): boolean {
  const core = c.core.replace(/^(?:on|at|during|in|around|about) /u, '');
  if (c.to !== undefined || !(BARE_WEEKDAY.test(core) || BARE_SEASON.test(c.core) || /^[春夏秋冬]$/u.test(core))) return false;
  if (/\b(?:every|each)\s+(?:(?:on|at)\s+)?$/iu.test(text.slice(0, c.start))) return true;
  return !PAST_EN.test(text) && !PAST_JA.test(text);
}

/** Words that may follow "on the 5th" when it is a day ("… on the 5th with Leo?"); any other ("on the 5th floor") makes it no day. */
const AFTER_A_DAY = /^\s*(?:$|[?!.,;:)、。？！]|(?:with|and|at|in|for|when|while|before|after|or|but|to|from)\b)/iu;

/** "on the 5th" is a day of the month when nothing but a function word or the sentence's end follows it; any other candidate passes. */
function dayOfMonthSaid(text: string, c: Candidate): boolean {
  if (!/^on (?:the )?\d{1,2}(?:st|nd|rd|th)$/u.test(c.core)) return true;
  return AFTER_A_DAY.test(text.slice(c.end));
}

/** A month or a day named without a year or a word that places it ("in May", "5月", "on 5 May"; not "last May", "先月"). */
function isYearless(c: Candidate): boolean {
  if (c.to !== undefined || c.mode === 'since') return false;
  const core = c.core.toLowerCase();
  const month = new RegExp(`\\b(?:${EN_MONTHS}|spring|summer|autumn|fall|winter)\\b|月|^[春夏秋冬]$`, 'u').test(core);
  return month && !/\d{3,}|年|\b(?:last|this|next|year|ago|previous|coming|past)\b|[先今来前後]/u.test(core);
}

/** How far a day said in another zone can start before the reader's (Kiritimati, +14:00). */
const EASTMOST_MS = 14 * 3_600_000;

/**
 * The time moved back a year at a time while it begins after the latest thing the memory holds began
 * (a day said in another zone counts from up to 14 hours before: "9月10日" told in Tokyo covers 10
 * September read in UTC).
 */
function withinMemory(time: QuestionTime, covered: Covered): QuestionTime {
  const found = covered.latestStart();
  if (found === null) return time;
  const latest = isoFromMs(Date.parse(found) + EASTMOST_MS);
  if (time.at <= latest) return time;
  for (let years = 1; years <= 200; years++) {
    const back = (at: IsoTime | undefined) => (at === undefined ? undefined : addInZone(at, time.zone, { years: -years }));
    const at = back(time.at)!;
    if (at > latest) continue;
    const moved: QuestionTime = { ...time, at };
    if (time.asOf !== undefined) moved.asOf = back(time.asOf);
    if (time.until !== undefined) moved.until = back(time.until);
    return moved;
  }
  return time;
}

/** "3 years ago", "this time last year" in a question: that instant, the time of day kept. */
const AS_ASKED = { durationKeepsTimeOfDay: true };

/** Candidates tried per question, at most: a question's time phrase is found in far fewer. */
const MAX_RESOLVER_CALLS = 200;

function meaningOf(text: string, c: Candidate, reference: TimeReference): QuestionTime | null {
  const resolved = resolveTimeExpression(c.core, reference, AS_ASKED);
  if (!resolved || namesNow(c.core, resolved, reference)) return null;
  const phrase = text.slice(c.start, c.end).replace(/[.,、]+$/u, '');
  const unit = unitOf(c.core, resolved, reference.zone);
  const end = endOf(resolved.at, unit, reference.zone);
  const base = { phrase, at: resolved.at, precision: resolved.precision, unit, zone: reference.zone };
  if (c.to !== undefined) {
    const to = resolveTimeExpression(c.to, reference, AS_ASKED);
    if (!to || to.at < resolved.at) return null;
    return { ...base, unit: 'range', kind: 'period', until: endOf(to.at, unitOf(c.to, to, reference.zone), reference.zone) };
  }
  const point = (asOf: IsoTime): QuestionTime => ({ ...base, kind: 'point', asOf });
  const period = (until: IsoTime): QuestionTime => ({ ...base, kind: 'period', until });
  switch (c.mode) {
    case 'as-of-end':
      return point(unit === 'instant' ? resolved.at : momentAskedBefore(Date.parse(end)));
    case 'as-of-start':
      return point(resolved.at);
    case 'before':
      return point(momentAskedBefore(Date.parse(resolved.at)));
    case 'after':
      return point(end);
    case 'since':
      return reference.instant > resolved.at ? { ...period(toIsoUtc(reference.instant)), unit: 'range' } : period(end);
    case 'during':
      return unit === 'instant' ? point(resolved.at) : period(end);
    case 'early':
    case 'mid':
    case 'late': {
      const third = thirdOf(resolved.at, unit, c.mode, reference.zone);
      if (third) return { ...base, unit: 'range', kind: 'period', at: third.from, until: third.until };
      return unit === 'instant' ? point(resolved.at) : unit === 'day' ? point(momentAskedBefore(Date.parse(end))) : period(end);
    }
    default:
      if (unit === 'instant') return point(resolved.at);
      if (unit === 'day') return point(momentAskedBefore(Date.parse(end)));
      return period(end);
  }
}

/** The first, middle or last third of a month (days 1–10, 11–20, 21–), season (by month) or year (four months each). */
function thirdOf(at: IsoTime, unit: QuestionTimeUnit, third: Third, zone: string): { from: IsoTime; until: IsoTime } | null {
  const step = unit === 'month' ? { days: 10 } : unit === 'season' ? { months: 1 } : unit === 'year' ? { months: 4 } : null;
  if (!step) return null;
  const n = third === 'early' ? 0 : third === 'mid' ? 1 : 2;
  const from = n === 0 ? at : addInZone(at, zone, scale(step, n));
  const until = n === 2 ? endOf(at, unit, zone) : addInZone(at, zone, scale(step, n + 1));
  return { from, until };
}

const scale = (step: { days: number } | { months: number }, n: number) => ('days' in step ? { days: step.days * n } : { months: step.months * n });

/** A season with no year or "last"/"this"/"next": a habit in the present tense ("what makes me sneeze in spring?"), see isHabit. */
const BARE_SEASON = /^(?:(?:in|during) )?(?:the )?(?:spring|summer|autumn|fall|winter)s?$/u;

/** "now", "today", "現在": the question is about now, the default. Numbers that are no date ("my 2nd job", "10年"). */
function namesNow(core: string, resolved: Resolved, reference: TimeReference): boolean {
  const word = core.replace(/^(?:on|at|as of|in|during) /u, '');
  // A number alone is no date ("my 2nd job"); a day of the month is one after "on" ("on the 5th"), see dayOfMonthSaid.
  if (TODAY_WORDS.test(word) || (/^(?:the )?\d{1,2}(?:st|nd|rd|th)?$/u.test(word) && !/^on (?:the )?\d{1,2}(?:st|nd|rd|th)$/u.test(core))) return true;
  if (resolved.precision === 'instant' && Math.abs(Date.parse(resolved.at) - Date.parse(reference.instant)) < 60_000) return true;
  const year = /^(\d{1,4})年?$/u.exec(word);
  return year !== null && (Number(year[1]) < 1900 || Number(year[1]) > 2199);
}

function unitOf(core: string, resolved: Resolved, zone: string): QuestionTimeUnit {
  if (resolved.precision === 'instant') return 'instant';
  if (resolved.precision === 'year') return 'year';
  if (resolved.precision === 'month') return /spring|summer|autumn|fall|winter|[春夏秋冬]/u.test(core) ? 'season' : 'month';
  // A duration ("3 days ago", "1年前") read AS_ASKED keeps the time of day: it names an instant, good to a day.
  if (!isStartOfLocalDay(resolved.at, zone)) return 'instant';
  if (new RegExp(`${EN_WEEKDAYS}|曜`, 'u').test(core)) return 'day';
  if (/weekend|週末/u.test(core)) return 'weekend';
  if (/week|週/u.test(core)) return 'week';
  return 'day';
}

function endOf(at: IsoTime, unit: QuestionTimeUnit, zone: string): IsoTime {
  switch (unit) {
    case 'day': return addInZone(at, zone, { days: 1 });
    case 'week': return addInZone(at, zone, { weeks: 1 });
    case 'weekend': return addInZone(at, zone, { days: 2 });
    case 'month': return addInZone(at, zone, { months: 1 });
    case 'season': return addInZone(at, zone, { months: 3 });
    case 'year': return addInZone(at, zone, { years: 1 });
    default: return at;
  }
}

/** Was the fact true at the point asked about, or at some time in the period? (Valid time only.) */
export function matchesTime(fact: { valid_at: string; invalid_at: string | null }, time: QuestionTime): boolean {
  if (time.kind === 'point') {
    const at = time.asOf ?? time.at;
    return fact.valid_at <= at && (fact.invalid_at === null || fact.invalid_at > at);
  }
  const until = time.until ?? time.at;
  return fact.valid_at < until && (fact.invalid_at === null || fact.invalid_at > time.at);
}
