/**
 * A moment asked about (as of, known at): a day, week, month or year means its last millisecond but one in
 * the user's zone (an end held through that period is stored at its last millisecond, and the fact
 * is true then), or now while it lasts; a time of day is that instant. Pinned at the boundaries: a
 * 23-hour day in Los Angeles, a leap February, a year, today, a span to come.
 */
import { describe, expect, it } from 'vitest';
import { readMomentInput, readTimeInput } from '../../electron/assistant/index';

const NOW = '2026-12-05T06:34:00.000Z'; // 15:34 in Tokyo, 22:34 on 4 Dec in Los Angeles

describe('readMomentInput', () => {
  it('a past day is its last millisecond but one there, even a 23-hour one', () => {
    expect(readMomentInput('2026-03-10', 'as_of', NOW, 'Asia/Tokyo')).toEqual({ at: '2026-03-10T14:59:59.998Z', precision: 'day' });
    expect(readMomentInput('2026-03-08', 'as_of', NOW, 'America/Los_Angeles')).toEqual({ at: '2026-03-09T06:59:59.998Z', precision: 'day' });
  });

  it('a month ends with its last day, a year with 31 December', () => {
    expect(readMomentInput('2028年2月', 'as_of', NOW, 'Asia/Tokyo')).toEqual({ at: '2028-02-29T14:59:59.998Z', precision: 'month' });
    expect(readMomentInput('2025年', 'as_of', NOW, 'Asia/Tokyo')).toEqual({ at: '2025-12-31T14:59:59.998Z', precision: 'year' });
  });

  it('today, this month and this year are now; yesterday ends before today begins', () => {
    for (const text of ['今日', 'today', '2026-12-05', '2026年12月', '2026年']) expect(readMomentInput(text, 'as_of', NOW, 'Asia/Tokyo').at, text).toBe(NOW);
    expect(readMomentInput('昨日', 'as_of', NOW, 'Asia/Tokyo').at).toBe('2026-12-04T14:59:59.998Z');
    // Still 4 Dec in Los Angeles: "today" there is now, "2026-12-05" is a day to come.
    expect(readMomentInput('today', 'as_of', NOW, 'America/Los_Angeles').at).toBe(NOW);
    expect(readMomentInput('2026-12-05', 'as_of', NOW, 'America/Los_Angeles').at).toBe('2026-12-06T07:59:59.998Z');
  });

  it('a week means its Sunday, a weekend its Sunday too; this week is now', () => {
    // NOW is Saturday 5 Dec 2026 in Tokyo: last week ran Monday 23 Nov … Sunday 29 Nov.
    for (const text of ['先週', 'last week', '先週から']) expect(readMomentInput(text, 'as_of', NOW, 'Asia/Tokyo'), text).toEqual({ at: '2026-11-29T14:59:59.998Z', precision: 'day' });
    expect(readMomentInput('先々週', 'as_of', NOW, 'Asia/Tokyo').at).toBe('2026-11-22T14:59:59.998Z');
    expect(readMomentInput('先週末', 'as_of', NOW, 'Asia/Tokyo').at).toBe('2026-11-29T14:59:59.998Z');
    for (const text of ['今週', 'this week', 'this weekend']) expect(readMomentInput(text, 'as_of', NOW, 'Asia/Tokyo').at, text).toBe(NOW);
    expect(readMomentInput('来週', 'as_of', NOW, 'Asia/Tokyo').at).toBe('2026-12-13T14:59:59.998Z');
    // A weekday is one day, as before.
    expect(readMomentInput('月曜', 'as_of', NOW, 'Asia/Tokyo').at).toBe('2026-11-30T14:59:59.998Z');
  });

  it('a time of day is that instant, as the write forms read it', () => {
    expect(readMomentInput('2026-03-10T15:00', 'as_of', NOW, 'Asia/Tokyo')).toEqual(readTimeInput('2026-03-10T15:00', 'as_of', NOW, 'Asia/Tokyo'));
    expect(readMomentInput('now', 'as_of', NOW, 'Asia/Tokyo').at).toBe(NOW);
  });

  it('a bad time is refused naming the field', () => {
    expect(() => readMomentInput('2026-13-01', 'known_at', NOW, 'Asia/Tokyo')).toThrow(/^known_at: /);
  });
});
