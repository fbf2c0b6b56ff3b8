/**
 * One time language (shared/time-format.ts): "ended" only for ends in the past, "until" for ends to
 * come, at the precision each time was said, in the zone and locale given — never the machine's —
 * and the chat model's context, which writes with the same formatter, says "planned" for facts still
 * to come and never lists them as current or as history.
 */
import { describe, expect, it } from 'vitest';
import { buildContext } from '../../electron/assistant/retrieval/context-builder';
import type { QuestionTime } from '../../electron/assistant/retrieval/question-time';
import type { FactRecord, Precision } from '../../shared/memory-schema';
import { resolveTimeExpression } from '../../electron/memory/index';
import { formatAt, formatEnding, formatInterval, formatMoment, formatWhen, isPast } from '../../shared/time-format';
import { sampleFact } from '../fixtures/fact-record';
import type { IsoTime } from '../../shared/time';

const gb = (timeZone: string) => ({ timeZone, locale: 'en-GB' });
const us = (timeZone: string) => ({ timeZone, locale: 'en-US' });
const ja = (timeZone: string) => ({ timeZone, locale: 'ja-JP' });

const NOW = '2026-12-02T03:00:00.000Z'; // 2 Dec 2026, 12:00 in Tokyo
const end = (invalid_at: string, invalid_at_precision: Precision = 'day') => ({ invalid_at, invalid_at_precision });
const fact = (valid_at: string, valid_at_precision: Precision, invalid_at: string | null = null, invalid_at_precision: Precision | null = invalid_at ? 'day' : null) => ({
  valid_at,
  valid_at_precision,
  invalid_at,
  invalid_at_precision,
});

describe('an end: "ended" only when it is past', () => {
  it('says "until" for an end still to come, even one said to the minute (the reported "closed 31 Dec 2026, 23:59")', () => {
    expect(formatEnding(end('2026-12-31T14:59:00.000Z', 'instant'), gb('Asia/Tokyo'), NOW)).toBe('until 31 Dec 2026');
    expect(formatEnding(end('2026-12-30T15:00:00.000Z'), gb('Asia/Tokyo'), NOW)).toBe('until 31 Dec 2026');
  });

  it('says "ended" for an end in the past', () => {
    expect(formatEnding(end('2026-05-24T15:00:00.000Z'), gb('Asia/Tokyo'), NOW)).toBe('ended 25 May 2026');
  });

  it('an end exactly now is over (a fact is true up to its end, not at it); a millisecond later it is not', () => {
    expect(isPast(NOW, NOW)).toBe(true);
    expect(formatEnding(end(NOW, 'instant'), gb('UTC'), NOW)).toBe('ended 2 Dec 2026, 03:00');
    expect(formatEnding(end('2026-12-02T03:00:00.001Z', 'instant'), gb('UTC'), NOW)).toBe('until 2 Dec 2026, 03:00');
    expect(formatEnding(end(NOW, 'instant'), gb('UTC'), Date.parse(NOW) - 1)).toBe('until 2 Dec 2026, 03:00');
  });

  it('is empty for an open fact', () => {
    expect(formatEnding({ invalid_at: null, invalid_at_precision: null }, gb('UTC'), NOW)).toBe('');
  });

  it('in Japanese: "まで" ahead, "に終了" past', () => {
    expect(formatEnding(end('2026-12-30T15:00:00.000Z'), ja('Asia/Tokyo'), NOW)).toBe('2026年12月31日まで');
    expect(formatEnding(end('2026-05-24T15:00:00.000Z'), ja('Asia/Tokyo'), NOW)).toBe('2026年5月25日に終了');
  });
});

describe('an interval', () => {
  const tokyo = gb('Asia/Tokyo');
  it('"since …" open and begun; "from …" open and still to come', () => {
    expect(formatInterval(fact('2026-02-28T15:00:00.000Z', 'month'), tokyo, NOW)).toBe('since March 2026');
    expect(formatInterval(fact('2027-05-31T15:00:00.000Z', 'day'), tokyo, NOW)).toBe('from 1 Jun 2027');
  });

  it('"1 Sep 2025 – 25 May 2026" when over; the year once when both ends share it', () => {
    expect(formatInterval(fact('2025-08-31T15:00:00.000Z', 'day', '2026-05-24T15:00:00.000Z'), tokyo, NOW)).toMatch(/^1 Sept? 2025 – 25 May 2026$/);
    expect(formatInterval(fact('2026-08-31T15:00:00.000Z', 'day', '2026-09-14T15:00:00.000Z'), tokyo, NOW)).toMatch(/^1 Sept? – 15 Sept? 2026$/);
  });

  it('"since …, until …" when begun and ending later; "from … until …" when all of it is to come', () => {
    expect(formatInterval(fact('2025-08-31T15:00:00.000Z', 'day', '2026-12-30T15:00:00.000Z'), tokyo, NOW)).toMatch(/^since 1 Sept? 2025, until 31 Dec 2026$/);
    expect(formatInterval(fact('2027-01-01T15:00:00.000Z', 'day', '2027-03-31T15:00:00.000Z'), tokyo, NOW)).toBe('from 2 Jan until 1 Apr 2027');
  });

  it('in each locale\'s words and order', () => {
    const over = fact('2025-08-31T15:00:00.000Z', 'day', '2026-05-24T15:00:00.000Z');
    expect(formatInterval(over, us('Asia/Tokyo'), NOW)).toBe('Sep 1, 2025 – May 25, 2026');
    expect(formatInterval(over, ja('Asia/Tokyo'), NOW)).toBe('2025年9月1日〜2026年5月25日');
    const running = fact('2025-08-31T15:00:00.000Z', 'day', '2026-12-30T15:00:00.000Z');
    expect(formatInterval(running, us('Asia/Tokyo'), NOW)).toBe('since Sep 1, 2025, until Dec 31, 2026');
    expect(formatInterval(running, ja('Asia/Tokyo'), NOW)).toBe('2025年9月1日から2026年12月31日まで');
    expect(formatInterval(fact('2026-02-28T15:00:00.000Z', 'month'), ja('Asia/Tokyo'), NOW)).toBe('2026年3月から');
  });
});

describe('precision: as said, a day where minutes say nothing', () => {
  const tokyo = gb('Asia/Tokyo');
  it('each precision', () => {
    expect(formatWhen('2025-12-31T15:00:00.000Z', 'year', tokyo)).toBe('2026');
    expect(formatWhen('2026-02-28T15:00:00.000Z', 'month', tokyo)).toBe('March 2026');
    expect(formatWhen('2026-05-31T15:00:00.000Z', 'day', tokyo)).toBe('1 Jun 2026');
    expect(formatWhen('2026-06-01T01:30:00.000Z', 'instant', tokyo)).toBe('1 Jun 2026, 10:30');
  });

  it('an instant at a midnight of the zone is that day; an end in a day\'s last minute is that day', () => {
    expect(formatWhen('2026-05-31T15:00:00.000Z', 'instant', tokyo)).toBe('1 Jun 2026');
    expect(formatWhen('2026-05-31T15:00:01.000Z', 'instant', tokyo)).toBe('1 Jun 2026, 00:00');
    expect(formatWhen('2026-12-31T14:59:00.000Z', 'instant', tokyo, true)).toBe('31 Dec 2026');
    expect(formatWhen('2026-12-31T14:59:00.000Z', 'instant', tokyo)).toBe('31 Dec 2026, 23:59');
  });
});

describe('zones around midnight and DST: the zone given, never the machine\'s', () => {
  const atTokyoMidnight = '2026-05-31T15:00:00.000Z';
  it('the same instant is a different day and clock in Tokyo, UTC and Los Angeles', () => {
    expect(formatWhen(atTokyoMidnight, 'instant', gb('Asia/Tokyo'))).toBe('1 Jun 2026');
    expect(formatWhen(atTokyoMidnight, 'instant', gb('UTC'))).toBe('31 May 2026, 15:00');
    expect(formatWhen(atTokyoMidnight, 'instant', gb('America/Los_Angeles'))).toBe('31 May 2026, 08:00');
    expect(formatWhen(atTokyoMidnight, 'day', gb('America/Los_Angeles'))).toBe('31 May 2026');
  });

  it('"ended" against now holds across zones: the moment decides, not the wall clock', () => {
    const justEnded = end('2026-12-02T02:59:00.000Z', 'instant');
    expect(formatEnding(justEnded, gb('Asia/Tokyo'), NOW)).toBe('ended 2 Dec 2026, 11:59');
    expect(formatEnding(justEnded, gb('America/Los_Angeles'), NOW)).toBe('ended 1 Dec 2026, 18:59');
  });

  it('Los Angeles across the spring-forward night: midnight after the change is a day, 01:00 is not', () => {
    expect(formatWhen('2026-03-08T08:00:00.000Z', 'instant', gb('America/Los_Angeles'))).toBe('8 Mar 2026');
    expect(formatWhen('2026-03-08T10:00:00.000Z', 'instant', gb('America/Los_Angeles'))).toBe('8 Mar 2026, 03:00');
    expect(formatWhen('2026-03-09T07:00:00.000Z', 'instant', gb('America/Los_Angeles'))).toBe('9 Mar 2026');
    expect(formatWhen('2026-03-09T08:00:00.000Z', 'instant', gb('America/Los_Angeles'))).toBe('9 Mar 2026, 01:00');
    expect(formatMoment('2026-11-01T07:00:00.000Z', us('America/Los_Angeles'))).toBe('Nov 1, 2026');
    expect(formatMoment('2026-11-02T08:00:00.000Z', us('America/Los_Angeles'))).toBe('Nov 2, 2026');
  });
});

describe('the chat model\'s context: a fact still to come is planned', () => {
  const options = { budget: 1000, countTokens: (t: string) => t.length / 4, now: NOW, zone: 'Asia/Tokyo' };
  const record = (id: string, text: string, valid_at: IsoTime, invalid_at: IsoTime | null = null): FactRecord => ({
    ...sampleFact,
    id,
    fact: text,
    valid_at,
    valid_at_precision: 'day',
    invalid_at,
    invalid_at_precision: invalid_at ? 'day' : null,
  });
  const current = record('f1', 'I live in Tokyo.', '2025-02-28T15:00:00.000Z');
  const planned = record('f2', 'I will move to Osaka.', '2027-03-31T15:00:00.000Z');
  const past = record('f3', 'I lived in Kyoto.', '2020-01-09T15:00:00.000Z', '2025-02-28T15:00:00.000Z');

  it('lists it under "Planned", never under current facts or history', () => {
    const text = buildContext([planned, current, past], options).text;
    expect(text).toContain('today is 2 Dec 2026');
    expect(text).toContain('Current facts:\n- I live in Tokyo. (since 1 Mar 2025)\n');
    expect(text).toContain('Planned (not true yet):\n- I will move to Osaka. (from 1 Apr 2027 (planned))\n');
    expect(text).toMatch(/History \(no longer true\):\n- I lived in Kyoto\. \(10 Jan 2020 – 1 Mar 2025\)$/);
    expect(text.indexOf('Osaka')).toBeLessThan(text.indexOf('History'));
  });

  it('a question naming another time keeps it apart from history too', () => {
    const time: QuestionTime = { phrase: 'in 2024', at: '2023-12-31T15:00:00.000Z', precision: 'year' as const, unit: 'year' as const, kind: 'period' as const, until: '2024-12-31T15:00:00.000Z', zone: 'Asia/Tokyo' };
    const text = buildContext([planned, current, past], { ...options, time }).text;
    expect(text).toContain('Planned (not true yet):\n- I will move to Osaka. (from 1 Apr 2027 (planned))');
    expect(text).not.toMatch(/Other history:[^]*Osaka/);
  });
});

describe('what the time control shows, main reads back the same', () => {
  const cases: [string, Precision][] = [
    ['2025-12-31T15:00:00.000Z', 'year'],
    ['2026-02-28T15:00:00.000Z', 'month'],
    ['2026-08-31T15:00:00.000Z', 'day'],
    ['2026-09-01T01:00:00.000Z', 'instant'],
    ['2026-12-31T14:30:00.000Z', 'instant'],
  ];
  for (const locale of ['en-GB', 'en-US', 'ja-JP']) {
    it(`in ${locale}`, () => {
      const format = { timeZone: 'Asia/Tokyo', locale };
      for (const [at, precision] of cases) {
        const shown = formatAt(at, precision, format);
        expect(resolveTimeExpression(shown, { instant: NOW, zone: 'Asia/Tokyo' }), shown).toEqual({ at, precision });
      }
    });
  }
});
