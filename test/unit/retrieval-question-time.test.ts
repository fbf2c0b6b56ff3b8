import { describe, expect, it } from 'vitest';
import { findQuestionTime, matchesTime, type QuestionTime } from '../../electron/assistant/retrieval/question-time';
import { isoFromMs, toIsoUtc, type IsoTime } from '../../shared/time';

// Thursday 1 October 2026, 12:00 in Tokyo.
const NOW = '2026-10-01T03:00:00.000Z';
const TOKYO = { instant: NOW, zone: 'Asia/Tokyo' };

/** Local midnight of a day in Tokyo, as stored (UTC). */
const jst = (day: string): IsoTime => toIsoUtc(`${day}T00:00:00+09:00`);
/** The moment a day in Tokyo asked about stands for: its last millisecond but one (momentAskedBefore). */
const jstEnd = (day: string): IsoTime => isoFromMs(Date.parse(`${day}T00:00:00+09:00`) + 86_400_000 - 2);
/** The moment "before" a day in Tokyo stands for: the last but one of the day before. */
const jstBefore = (day: string): IsoTime => isoFromMs(Date.parse(`${day}T00:00:00+09:00`) - 2);

type Expected = Pick<QuestionTime, 'phrase' | 'kind' | 'unit' | 'at'> & Partial<Pick<QuestionTime, 'asOf' | 'until'>>;

const point = (phrase: string, unit: QuestionTime['unit'], at: IsoTime, asOf: IsoTime): Expected => ({ phrase, kind: 'point', unit, at, asOf });
const period = (phrase: string, unit: QuestionTime['unit'], at: IsoTime, until: IsoTime): Expected => ({ phrase, kind: 'period', unit, at, until });

describe('findQuestionTime: English', () => {
  it.each<[string, Expected]>([
    ['Who was my manager on 2026-09-10?', point('on 2026-09-10', 'day', jst('2026-09-10'), jstEnd('2026-09-10'))],
    ['Who was my manager on 10 September 2026?', point('on 10 September 2026', 'day', jst('2026-09-10'), jstEnd('2026-09-10'))],
    ['who was my manager on Sept. 10th, 2026?', point('on Sept. 10th, 2026', 'day', jst('2026-09-10'), jstEnd('2026-09-10'))],
    ['where was I on September 10?', point('on September 10', 'day', jst('2026-09-10'), jstEnd('2026-09-10'))],
    ['what did I do yesterday?', point('yesterday', 'day', jst('2026-09-30'), jstEnd('2026-09-30'))],
    ['who did I meet last Monday?', point('last Monday', 'day', jst('2026-09-28'), jstEnd('2026-09-28'))],
    ['Where did I live in 2024?', period('in 2024', 'year', jst('2024-01-01'), jst('2025-01-01'))],
    ['Where did I live during 2025?', period('during 2025', 'year', jst('2025-01-01'), jst('2026-01-01'))],
    ['what happened in 2025?', period('in 2025', 'year', jst('2025-01-01'), jst('2026-01-01'))],
    ['What did I do last spring?', period('last spring', 'season', jst('2026-03-01'), jst('2026-06-01'))],
    ['where did I travel in the summer of 2024?', period('in the summer of 2024', 'season', jst('2024-06-01'), jst('2024-09-01'))],
    ['who was my manager in March?', period('in March', 'month', jst('2026-03-01'), jst('2026-04-01'))],
    ['what did I buy in May 2025?', period('in May 2025', 'month', jst('2025-05-01'), jst('2025-06-01'))],
    ['who was my manager last week?', period('last week', 'week', jst('2026-09-21'), jst('2026-09-28'))],
    ['what did I read last month?', period('last month', 'month', jst('2026-09-01'), jst('2026-10-01'))],
    ['where did I live last year?', period('last year', 'year', jst('2025-01-01'), jst('2026-01-01'))],
    ['as of March, who was my manager?', point('as of March', 'month', jst('2026-03-01'), jstEnd('2026-03-31'))],
    ['where did I live at the end of 2024?', point('at the end of 2024', 'year', jst('2024-01-01'), jstEnd('2024-12-31'))],
    ['who was my manager at the start of 2025?', point('at the start of 2025', 'year', jst('2025-01-01'), jst('2025-01-01'))],
    ['where did I work before 2024?', point('before 2024', 'year', jst('2024-01-01'), jstBefore('2024-01-01'))],
    ['where did I work after 2024?', point('after 2024', 'year', jst('2024-01-01'), jst('2025-01-01'))],
    ['where have I lived since 2024?', period('since 2024', 'range', jst('2024-01-01'), NOW)],
    ['where did I live from 2023 to 2024?', period('from 2023 to 2024', 'range', jst('2023-01-01'), jst('2025-01-01'))],
    ['where did I work 3 years ago?', point('3 years ago', 'instant', '2023-10-01T03:00:00.000Z', '2023-10-01T03:00:00.000Z')],
    ['this time last year, where was I living?', point('this time last year', 'instant', '2025-10-01T03:00:00.000Z', '2025-10-01T03:00:00.000Z')],
    ['Who was my manager in early September 2025?', period('in early September 2025', 'range', jst('2025-09-01'), jst('2025-09-11'))],
    ['where was I in mid-2024?', period('in mid-2024', 'range', jst('2024-05-01'), jst('2024-09-01'))],
    ['what did I do in late March?', period('in late March', 'range', jst('2026-03-21'), jst('2026-04-01'))],
    ['what did I start in the last 3 months?', period('in the last 3 months', 'range', '2026-07-01T03:00:00.000Z', NOW)],
  ])('%s', (question, expected) => {
    expect(findQuestionTime(question, TOKYO)).toMatchObject({ ...expected, zone: 'Asia/Tokyo' });
  });
});

describe('findQuestionTime: Japanese', () => {
  it.each<[string, Expected]>([
    ['3月の時点で上司は誰?', point('3月の時点', 'month', jst('2026-03-01'), jstEnd('2026-03-31'))],
    ['去年の今頃どこに住んでいた?', point('去年の今頃', 'instant', '2025-10-01T03:00:00.000Z', '2025-10-01T03:00:00.000Z')],
    ['去年はどこに住んでいましたか', period('去年', 'year', jst('2025-01-01'), jst('2026-01-01'))],
    ['2025年6月10日に、私はどこで働いていましたか？', point('2025年6月10日', 'day', jst('2025-06-10'), jstEnd('2025-06-10'))],
    ['2025年に、私はどこに住んでいましたか？', period('2025年', 'year', jst('2025-01-01'), jst('2026-01-01'))],
    ['9月10日の上司は誰?', point('9月10日', 'day', jst('2026-09-10'), jstEnd('2026-09-10'))],
    ['去年の春はどこにいた?', period('去年の春', 'season', jst('2025-03-01'), jst('2025-06-01'))],
    ['令和6年の上司は?', period('令和6年', 'year', jst('2024-01-01'), jst('2025-01-01'))],
    ['先週の月曜日に誰と会った?', point('先週の月曜日', 'day', jst('2026-09-21'), jstEnd('2026-09-21'))],
    ['先週は何をしていた?', period('先週', 'week', jst('2026-09-21'), jst('2026-09-28'))],
    ['先月どこへ行った?', period('先月', 'month', jst('2026-09-01'), jst('2026-10-01'))],
    ['昨日の夕食は?', point('昨日', 'day', jst('2026-09-30'), jstEnd('2026-09-30'))],
    ['3年前はどこで働いていた?', point('3年前', 'instant', '2023-10-01T03:00:00.000Z', '2023-10-01T03:00:00.000Z')],
    ['2024年末の住所は?', point('2024年末', 'year', jst('2024-01-01'), jstEnd('2024-12-31'))],
    ['去年の年末はどこに住んでいた?', point('去年の年末', 'year', jst('2025-01-01'), jstEnd('2025-12-31'))],
    ['年末の予定は?', point('年末', 'year', jst('2026-01-01'), jstEnd('2026-12-31'))],
    ['月末の締め切りは?', point('月末', 'month', jst('2026-10-01'), jstEnd('2026-10-31'))],
    ['先月末の住所は?', point('先月末', 'month', jst('2026-09-01'), jstEnd('2026-09-30'))],
    ['2024年から住んでいる所は?', period('2024年から', 'range', jst('2024-01-01'), NOW)],
    ['2023年から2024年までどこに住んでいた?', period('2023年から2024年まで', 'range', jst('2023-01-01'), jst('2025-01-01'))],
    ['3月まで上司は誰だった?', point('3月まで', 'month', jst('2026-03-01'), jstBefore('2026-03-01'))],
    ['9月上旬の上司は?', period('9月上旬', 'range', jst('2026-09-01'), jst('2026-09-11'))],
    ['8月下旬に何をした?', period('8月下旬', 'range', jst('2026-08-21'), jst('2026-09-01'))],
    ['去年の初めの住所は?', period('去年の初め', 'range', jst('2025-01-01'), jst('2025-05-01'))],
    ['２０２４年の上司は？', period('2024年', 'year', jst('2024-01-01'), jst('2025-01-01'))],
  ])('%s', (question, expected) => {
    expect(findQuestionTime(question, TOKYO)).toMatchObject(expected);
  });
});

describe('findQuestionTime: no time named', () => {
  it.each([
    'who is my manager?',
    'who is my manager now?',
    'what am I doing today?',
    'may I ask where I live?',
    'do I like spring rolls?',
    'who was my 2nd manager?',
    'I have 3 cats, what are their names?',
    'what did I march for?',
    'who was my manager before B?',
    '私の上司は誰？',
    '今日の予定は?',
    '夏休みはどこへ行く?',
    '春になると何が咲く?',
    'what makes me sneeze in spring?',
    'what do I do in the summer?',
    '毎週月曜日に何をする?',
    '10年間住んでいた場所は?',
    '現在の住所は?',
  ])('%s → null', (question) => {
    expect(findQuestionTime(question, TOKYO)).toBeNull();
  });
});

describe('findQuestionTime: the user\'s zone', () => {
  it('a date named in the question is that day in the user\'s zone', () => {
    const tokyo = findQuestionTime('who was my manager on 2026-09-09?', TOKYO)!;
    const newYork = findQuestionTime('who was my manager on 2026-09-09?', { instant: NOW, zone: 'America/New_York' })!;
    expect(tokyo.at).toBe('2026-09-08T15:00:00.000Z');
    expect(tokyo.asOf).toBe('2026-09-09T14:59:59.998Z');
    expect(newYork.at).toBe('2026-09-09T04:00:00.000Z');
    expect(newYork.asOf).toBe('2026-09-10T03:59:59.998Z');
    expect(newYork.zone).toBe('America/New_York');
  });

  it('"yesterday" depends on the day it is where the user is', () => {
    // 2026-10-01T03:00Z is 1 Oct in Tokyo but still 30 Sep in New York.
    expect(findQuestionTime('what did I do yesterday?', { instant: NOW, zone: 'America/New_York' })!.at).toBe('2026-09-29T04:00:00.000Z');
    expect(findQuestionTime('what did I do yesterday?', { instant: NOW, zone: '+09:00' })!.at).toBe(jst('2026-09-30'));
  });

  it('a month and a season end by the calendar, across a DST change', () => {
    const march = findQuestionTime('what did I do in March 2026?', { instant: NOW, zone: 'America/New_York' })!;
    expect(march.at).toBe('2026-03-01T05:00:00.000Z'); // EST
    expect(march.until).toBe('2026-04-01T04:00:00.000Z'); // EDT
  });
});

describe('matchesTime', () => {
  const fact = (valid_at: string, invalid_at: string | null) => ({ valid_at, invalid_at });
  it('a point: true at asOf (start included, end excluded)', () => {
    const time = findQuestionTime('on 2026-09-10', TOKYO)!;
    expect(matchesTime(fact(jst('2026-09-01'), jst('2026-09-15')), time)).toBe(true);
    expect(matchesTime(fact(jst('2026-09-15'), null), time)).toBe(false);
    // A change during the named day: what held by its end counts.
    expect(matchesTime(fact('2026-09-10T01:00:00.000Z', null), time)).toBe(true);
    expect(matchesTime(fact(jst('2026-09-01'), '2026-09-10T01:00:00.000Z'), time)).toBe(false);
  });

  it('a period: any overlap with [at, until)', () => {
    const time = findQuestionTime('in 2024', TOKYO)!;
    expect(matchesTime(fact(jst('2020-01-01'), jst('2024-06-01')), time)).toBe(true);
    expect(matchesTime(fact(jst('2024-12-31'), null), time)).toBe(true);
    expect(matchesTime(fact(jst('2020-01-01'), jst('2024-01-01')), time)).toBe(false);
    expect(matchesTime(fact(jst('2025-01-01'), null), time)).toBe(false);
  });
});

describe('findQuestionTime: cost', () => {
  it('a long message full of numbers is cut short, and still finds a time at its start', () => {
    const numbers = Array.from({ length: 2000 }, (_, i) => String(i % 97)).join(' ');
    const started = performance.now();
    expect(findQuestionTime(numbers, TOKYO)).toBeNull();
    expect(findQuestionTime(`in 2024 ${numbers}`, TOKYO)).toMatchObject({ phrase: 'in 2024', kind: 'period' });
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('findQuestionTime: a weekday in a habit is no date', () => {
  it.each([
    'what sport do I play on Saturday?',
    'what do I play on Saturdays?',
    'where do I go every Monday?',
    'what do I eat each Friday?',
    'what do I do on Sunday?',
    '土曜日に何をしますか',
    '月曜日は何をしていますか',
    '毎週月曜日に何をする?',
  ])('%s → null', (question) => {
    expect(findQuestionTime(question, TOKYO)).toBeNull();
  });

  it.each<[string, Expected]>([
    ['what sport did I play last Saturday?', point('last Saturday', 'day', jst('2026-09-26'), jstEnd('2026-09-26'))],
    ['what did I do on Saturday?', point('on Saturday', 'day', jst('2026-09-26'), jstEnd('2026-09-26'))],
    ['who called me on Monday?', point('on Monday', 'day', jst('2026-09-28'), jstEnd('2026-09-28'))],
    ['what do I do on Saturday 5 Sep?', point('on Saturday 5 Sep', 'day', jst('2026-09-05'), jstEnd('2026-09-05'))],
    ['土曜日に何をしましたか', point('土曜日', 'day', jst('2026-09-26'), jstEnd('2026-09-26'))],
    ['先週の土曜日に何をしますか', point('先週の土曜日', 'day', jst('2026-09-26'), jstEnd('2026-09-26'))],
  ])('%s is a date', (question, expected) => {
    expect(findQuestionTime(question, TOKYO)).toMatchObject(expected);
  });
});

describe('findQuestionTime: a month without a year is the latest the memory covers', () => {
  const covered = (latest: string | null) => ({ latestStart: () => latest });

  it('the memory\'s last May three years back: May 2023, at its boundaries', () => {
    // Latest thing begun 10 Aug 2023: May 2023 is covered.
    expect(findQuestionTime('what did I do in May?', TOKYO, covered(jst('2023-08-10')))).toMatchObject(period('in May', 'month', jst('2023-05-01'), jst('2023-06-01')));
    // Begun on 1 May 2023 itself: still May 2023. A day said in another zone starts up to 14 hours
    // before the reader's (+14:00), so up to then May 2023 counts as covered; the instant before: May 2022.
    expect(findQuestionTime('what did I do in May?', TOKYO, covered(jst('2023-05-01')))!.at).toBe(jst('2023-05-01'));
    expect(findQuestionTime('what did I do in May?', TOKYO, covered(isoFromMs(Date.parse(jst('2023-05-01')) - 14 * 3_600_000)))!.at).toBe(jst('2023-05-01'));
    expect(findQuestionTime('what did I do in May?', TOKYO, covered(isoFromMs(Date.parse(jst('2023-05-01')) - 14 * 3_600_000 - 1)))!.at).toBe(jst('2022-05-01'));
  });

  it('a memory that covers this May keeps it; an empty memory keeps the resolver\'s', () => {
    expect(findQuestionTime('what did I do in May?', TOKYO, covered(jst('2026-05-20')))!.at).toBe(jst('2026-05-01'));
    expect(findQuestionTime('what did I do in May?', TOKYO, covered(null))!.at).toBe(jst('2026-05-01'));
  });

  it.each<[string, Expected]>([
    ['5月に何をしましたか', period('5月', 'month', jst('2023-05-01'), jst('2023-06-01'))],
    ['what did I do on 5 May?', point('on 5 May', 'day', jst('2023-05-05'), jstEnd('2023-05-05'))],
    ['5月5日に何をしましたか', point('5月5日', 'day', jst('2023-05-05'), jstEnd('2023-05-05'))],
    ['what did I do in May 2025?', period('in May 2025', 'month', jst('2025-05-01'), jst('2025-06-01'))],
    ['2025年5月に何をしましたか', period('2025年5月', 'month', jst('2025-05-01'), jst('2025-06-01'))],
    ['what did I do last month?', period('last month', 'month', jst('2026-09-01'), jst('2026-10-01'))],
    ['先月何をしましたか', period('先月', 'month', jst('2026-09-01'), jst('2026-10-01'))],
  ])('%s (memory up to Aug 2023)', (question, expected) => {
    expect(findQuestionTime(question, TOKYO, covered(jst('2023-08-10')))).toMatchObject(expected);
  });
});

describe('findQuestionTime: a day of the month, a season alone (issue 28, second round)', () => {
  it.each<[string, Expected]>([
    // Today is the 1st: "on the 1st" is today, "on the 2nd" last month's.
    ['what did I do on the 1st?', point('on the 1st', 'day', jst('2026-10-01'), jstEnd('2026-10-01'))],
    ['what did I do on the 2nd?', point('on the 2nd', 'day', jst('2026-09-02'), jstEnd('2026-09-02'))],
    // September has no 31st: August's.
    ['what did I do on the 31st?', point('on the 31st', 'day', jst('2026-08-31'), jstEnd('2026-08-31'))],
    ['what did Mia do on the 5th with Leo?', point('on the 5th', 'day', jst('2026-09-05'), jstEnd('2026-09-05'))],
    // A season alone in the past tense is the latest one begun: spring 2026, and winter 2025–26.
    ['what did I do in spring?', period('in spring', 'season', jst('2026-03-01'), jst('2026-06-01'))],
    ['where did Mia go in winter?', period('in winter', 'season', jst('2025-12-01'), jst('2026-03-01'))],
    ['春に何をした？', period('春', 'season', jst('2026-03-01'), jst('2026-06-01'))],
    ['杏奈は夏の間どこに住んでいた？', period('夏の間', 'season', jst('2026-06-01'), jst('2026-09-01'))],
  ])('%s', (question, expected) => {
    expect(findQuestionTime(question, TOKYO)).toMatchObject(expected);
  });

  it.each([
    'what is on the 5th floor?',
    'who was my 2nd manager?',
    'what do I do in spring?',
    'what do I do every spring?',
    '春に何をする？',
    '春は何が好き？',
    '千春に何をあげた？',
    '毎年春に何をした？',
  ])('%s → null', (question) => {
    expect(findQuestionTime(question, TOKYO)).toBeNull();
  });

  it('a season alone is the latest one the memory covers', () => {
    const time = findQuestionTime('what did I do in spring?', TOKYO, { latestStart: () => '2025-04-15T00:00:00.000Z' })!;
    expect(time.at).toBe(jst('2025-03-01'));
    expect(time.until).toBe(jst('2025-06-01'));
  });
});
