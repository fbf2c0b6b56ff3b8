/**
 * A time named in a question ranks, never filters (issue 28 item 3): facts said on or soon after the
 * named time and facts true then come first, and a fact that matches the words but was said later
 * moves down a few places, never below everything said earlier. A bare month is the latest one the
 * memory covers; a weekday in a habit is no date at all. Through retrieve(), in Tokyo.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { retrieve } from '../../electron/assistant/retrieval/retrieve';
import { buildContext } from '../../electron/assistant/retrieval/context-builder';

const NOW = '2026-10-01T03:00:00.000Z'; // Thursday 1 Oct 2026, 12:00 in Tokyo

let savedZone: string | undefined;
beforeEach(() => {
  savedZone = process.env.TEMPORA_TZ;
  process.env.TEMPORA_TZ = 'Asia/Tokyo';
});
afterEach(() => {
  if (savedZone === undefined) delete process.env.TEMPORA_TZ;
  else process.env.TEMPORA_TZ = savedZone;
});

type Line = { object: string; fact: string; at: string; predicate?: string; cardinality?: 'one' | 'many' };

/** Each line told in its own message at `at` (Tokyo), dated by that message. */
function told(lines: Line[]): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock(NOW) });
  for (const l of lines) {
    m.facts.observe([{ subject: 'me', predicate: l.predicate ?? 'did', object: l.object, fact: l.fact, reference_time: `${l.at}T10:00:00+09:00`, cardinality: l.cardinality ?? 'many' }]);
  }
  return m;
}

/** Twelve things said about Mia in August, all still true on 10 September. */
const august: Line[] = Array.from({ length: 12 }, (_, i) => ({ object: `thing ${i + 1}`, fact: `I chatted with Mia about thing ${i + 1}.`, at: `2026-08-${String(i + 10).padStart(2, '0')}` }));

const objects = (hits: { fact: { object: string } }[]) => hits.map((h) => h.fact.object);

describe('a date in the question ranks, never filters', () => {
  it('an event told the day after the named day comes first, above everything said earlier', async () => {
    const m = told([...august, { object: 'hiking', fact: 'I went hiking with Mia.', at: '2026-09-11' }]);
    const result = await retrieve(m, 'What did I do with Mia on 10 September?');
    expect(result.time).toMatchObject({ kind: 'point', unit: 'day', phrase: 'on 10 September' });
    expect(objects(result.hits)[0]).toBe('hiking');
  });

  it('what began on the day comes above things of many values true then but begun before, told later', async () => {
    // Read in UTC; the day was said in Tokyo ("9月10日": its midnight there is 9 Sep 15:00 UTC).
    process.env.TEMPORA_TZ = 'UTC';
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock(NOW) });
    m.facts.observe([{ subject: 'me', predicate: 'did', object: 'concert', fact: 'I went to a concert with Mia.', reference_time: '2026-09-12T10:00:00+09:00', valid_at: '9月10日' }]);
    for (let i = 1; i <= 12; i++) {
      m.facts.observe([{ subject: 'me', predicate: 'did', object: `thing ${i}`, fact: `I chatted with Mia about thing ${i} and Mia chatted back.`, reference_time: '2026-09-20T10:00:00+09:00', valid_at: '2026-08-01T00:00:00+09:00' }]);
    }
    const result = await retrieve(m, 'What did I do with Mia on 10 September?');
    expect(result.time).toMatchObject({ kind: 'point', unit: 'day', zone: 'UTC' });
    expect(objects(result.hits)[0]).toBe('concert');
    // A one-valued slot's value true then still names the answer above what began that day.
    m.facts.observe([{ subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-20T10:00:00+09:00', valid_at: '2026-08-01T00:00:00+09:00', cardinality: 'one' }]);
    const where = await retrieve(m, 'Where did I live on 10 September?');
    expect(objects(where.hits)[0]).toBe('Kyoto');
    m.close();
  });

  it('the chat context says an event told soon after under its own heading, not as "Now"', async () => {
    const m = told([...august, { object: 'hiking', fact: 'I went hiking with Mia.', at: '2026-09-11' }, { object: 'cycling', fact: 'I went cycling with Mia.', at: '2026-09-18' }]);
    const result = await retrieve(m, 'What did I do with Mia on 10 September?');
    const text = buildContext(result.facts, { budget: 2000, countTokens: (t) => Math.ceil(t.length / 4), now: m.clock.now(), time: result.time }).text;
    expect(text).toContain('Said soon after (it may be about that time):\n- I went hiking with Mia. (since 11 Sept 2026)');
    // Eight days after the day is no longer soon: with what is true now.
    expect(text).toMatch(/Now:\n(?:- .*\n)*- I went cycling with Mia\. \(since 18 Sept 2026\)/);
  });

  it('the day after ranks as on the day; a week after a place lower; just past the week below a fact said earlier', async () => {
    const m = told([
      ...august,
      { object: 'hiking', fact: 'I went hiking with Mia.', at: '2026-09-11' }, // the day after
      { object: 'sailing', fact: 'I went sailing with Mia.', at: '2026-09-17' }, // a week after: still soon
      { object: 'cycling', fact: 'I went cycling with Mia.', at: '2026-09-18' }, // 8 days after: later
    ]);
    const order = objects((await retrieve(m, 'What did I do with Mia on 10 September?')).hits);
    expect(order[0]).toBe('hiking');
    expect(order.indexOf('sailing')).toBeLessThan(order.indexOf('cycling'));
    // Said later: below a fact said earlier, yet among them, never below all of them.
    expect(order.findIndex((o) => o.startsWith('thing'))).toBeLessThan(order.indexOf('cycling'));
    expect(order.slice(0, 10)).toContain('cycling');
  });

  it('a fact said a month later that matches the words is not pushed below everything said earlier', async () => {
    const m = told([...august, { object: 'kayaking', fact: 'I went kayaking with Mia.', at: '2026-09-25' }]);
    const result = await retrieve(m, 'Did I go kayaking with Mia in August?');
    expect(result.time).toMatchObject({ kind: 'period', unit: 'month' });
    expect(objects(result.hits).slice(0, 3)).toContain('kayaking');
  });

  it('a slot\'s next value, begun days after the named day, stays below the value true that day', async () => {
    const m = told([
      { object: 'A', fact: 'My manager is A.', at: '2026-09-01', predicate: 'manager', cardinality: 'one' },
      { object: 'B', fact: 'My manager is B.', at: '2026-09-11', predicate: 'manager', cardinality: 'one' },
    ]);
    expect(objects((await retrieve(m, 'who was my manager on 2026-09-10?')).hits)).toEqual(['A', 'B']);
  });

  it('a slot with many later values: the value true then still comes first', async () => {
    const m = told(
      ['A', 'B', 'C', 'D', 'E', 'F', 'G'].map((object, i) => ({ object, fact: `My manager is ${object}.`, at: `2026-0${i + 2}-01`, predicate: 'manager', cardinality: 'one' as const })),
    );
    // B held from 1 March to 1 April; C to G came after it, ranked first by the words (newest first).
    expect(objects((await retrieve(m, 'who was my manager on 15 March 2026?')).hits)[0]).toBe('B');
    // A period: every value that overlapped it first, in the words' order; the rest after them.
    expect(objects((await retrieve(m, 'who was my manager in spring 2026?')).hits).slice(0, 3).sort()).toEqual(['B', 'C', 'D']);
  });

  it('Japanese: 9月10日にミアと何をしましたか — the outing told the next day first', async () => {
    const m = told([
      ...Array.from({ length: 12 }, (_, i) => ({ object: `店${'ABCDEFGHIJKL'[i]}`, fact: `ミアと店${'ABCDEFGHIJKL'[i]}に行った。`, at: `2026-08-${String(i + 10).padStart(2, '0')}` })),
      { object: '店M', fact: 'ミアと店Mに行った。', at: '2026-09-11' },
    ]);
    const result = await retrieve(m, '9月10日にミアと何をしましたか');
    expect(result.time).toMatchObject({ kind: 'point', unit: 'day' });
    expect(objects(result.hits)[0]).toBe('店M');
  });
});

describe('a bare month is the latest one the memory covers', () => {
  // The memory's last May is three years back: nothing was said after August 2023.
  const trips = () =>
    told([
      { object: 'Kyoto', fact: 'I took a trip to Kyoto.', at: '2023-05-20' },
      { object: 'Hokkaido', fact: 'I took a trip to Hokkaido.', at: '2023-08-10' },
    ]);

  it('"in May" is May 2023, and the trip said then comes first', async () => {
    const result = await retrieve(trips(), 'Where did I take a trip in May?');
    expect(result.time).toMatchObject({ kind: 'period', unit: 'month', at: '2023-04-30T15:00:00.000Z', until: '2023-05-31T15:00:00.000Z' });
    expect(objects(result.hits)[0]).toBe('Kyoto');
  });

  it('5月 in Japanese too; a month with its year keeps it', async () => {
    expect((await retrieve(trips(), '5月にどこへ旅行しましたか')).time).toMatchObject({ at: '2023-04-30T15:00:00.000Z' });
    expect((await retrieve(trips(), 'Where did I take a trip in May 2025?')).time).toMatchObject({ at: '2025-04-30T15:00:00.000Z' });
  });
});

describe('a weekday in a habit is not a date', () => {
  const sports = () =>
    told([
      { object: 'football', fact: 'I play football on Saturdays.', at: '2026-03-02', predicate: 'plays' },
      // Begun after last Saturday (26 Sep): an as-of would have ranked it last.
      { object: 'tennis', fact: 'I play tennis on Saturdays now.', at: '2026-09-29', predicate: 'plays' },
    ]);

  it.each(['what sport do I play on Saturday?', 'What do I play every Saturday?', '土曜日に何のスポーツをしますか'])('%s: no as-of, no time ranking', async (question) => {
    const result = await retrieve(sports(), question);
    expect(result.time).toBeNull();
    expect(result.intent.history).toBe(false);
  });

  it('"last Saturday" and "on Saturday 5 Sep" are dates', async () => {
    expect((await retrieve(sports(), 'what sport did I play last Saturday?')).time).toMatchObject({ kind: 'point', at: '2026-09-25T15:00:00.000Z' });
    expect((await retrieve(sports(), 'what sport did I play on Saturday 5 Sep?')).time).toMatchObject({ kind: 'point', at: '2026-09-04T15:00:00.000Z' });
  });
});
