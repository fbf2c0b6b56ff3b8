import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { buildContext, timeLabel } from '../../electron/assistant/retrieval/context-builder';
import { describeInterval } from '../../electron/assistant/prompts/model-time';
import { findQuestionTime } from '../../electron/assistant/retrieval/question-time';
import { retrieve, retrieveWithoutVectors } from '../../electron/assistant/retrieval/retrieve';
import { runChatTurn } from '../../electron/assistant/chat/chat-turn';
import { searchMemoryText } from '../../electron/engine/memory-search';
import type { ChatMessage, ChatModel } from '../../electron/llm/ports';
import { sampleFact } from '../fixtures/fact-record';
import type { FactRecord } from '../../shared/memory-schema';

const countTokens = (text: string) => Math.ceil(text.length / 4);
const NOW = '2026-10-01T00:00:00.000Z';

let savedZone: string | undefined;
beforeEach(() => {
  savedZone = process.env.TEMPORA_TZ;
  process.env.TEMPORA_TZ = 'Asia/Tokyo';
});
afterEach(() => {
  if (savedZone === undefined) delete process.env.TEMPORA_TZ;
  else process.env.TEMPORA_TZ = savedZone;
});

function observed(lines: { subject: string; predicate: string; object: string; fact: string; at: string }[]): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock(NOW) });
  for (const l of lines) m.facts.observe([{ subject: l.subject, predicate: l.predicate, object: l.object, fact: l.fact, reference_time: l.at, cardinality: 'one' }]);
  return m;
}

/** My manager: A from 1 Sep, B from 15 Sep (a one-valued slot, so B closed A). */
const managers = () =>
  observed([
    { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', at: '2026-09-01T10:00:00+09:00' },
    { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', at: '2026-09-15T10:00:00+09:00' },
  ]);

const context = (m: Memory, result: Awaited<ReturnType<typeof retrieve>>) => buildContext(result.facts, { budget: 800, countTokens, now: m.clock.now(), time: result.time }).text;

describe('questions with a time', () => {
  it('"who was my manager on 2026-09-10?" answers as of that day, and says what is true now', async () => {
    const m = managers();
    const result = await retrieve(m, 'who was my manager on 2026-09-10?');
    expect(result.time).toMatchObject({ phrase: 'on 2026-09-10', kind: 'point', unit: 'day', at: '2026-09-09T15:00:00.000Z', zone: 'Asia/Tokyo' });
    expect(result.hits[0]!.fact.object).toBe('A');
    expect(result.hits.map((h) => h.fact.object)).toEqual(['A', 'B']);
    const text = context(m, result);
    expect(text).toContain('today is 1 Oct 2026');
    expect(text).toContain('As of 10 Sept 2026:\n- My manager is A. (1 Sept – 15 Sept 2026)');
    expect(text).toContain('Now:\n- My manager is B. (since 15 Sept 2026)');
    expect(text.indexOf('My manager is A.')).toBeLessThan(text.indexOf('My manager is B.'));
  });

  it('a fact true then and still true now is said to be still true, with no "Now" section', async () => {
    const m = managers();
    const result = await retrieve(m, 'who was my manager on 20 September 2026?');
    expect(result.hits[0]!.fact.object).toBe('B');
    const text = context(m, result);
    expect(text).toContain('As of 20 Sept 2026:\n- My manager is B. (since 15 Sept 2026, still true)');
    expect(text).not.toContain('Now:');
    expect(text).toContain('Other history:\n- My manager is A. (1 Sept – 15 Sept 2026)');
  });

  it('"where did I live in 2024?" puts the fact that overlapped 2024 first', async () => {
    const m = observed([
      { subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.', at: '2020-01-10T10:00:00+09:00' },
      { subject: 'me', predicate: 'lives_in', object: 'Osaka', fact: 'I live in Osaka.', at: '2023-11-01T10:00:00+09:00' },
      { subject: 'me', predicate: 'lives_in', object: 'Tokyo', fact: 'I live in Tokyo.', at: '2025-03-01T10:00:00+09:00' },
    ]);
    const result = await retrieve(m, 'where did I live in 2024?');
    expect(result.time).toMatchObject({ kind: 'period', unit: 'year', phrase: 'in 2024', until: '2024-12-31T15:00:00.000Z' });
    expect(result.hits[0]!.fact.object).toBe('Osaka');
    const text = context(m, result);
    expect(text).toContain('In 2024:\n- I live in Osaka. (1 Nov 2023 – 1 Mar 2025)');
    expect(text).toContain('Now:\n- I live in Tokyo. (since 1 Mar 2025)');
    expect(text).toContain('The question asks about 2024 ("in 2024")');
  });

  it('a period brings every fact that overlapped it, first', async () => {
    const m = observed([
      { subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.', at: '2020-01-10T10:00:00+09:00' },
      { subject: 'me', predicate: 'lives_in', object: 'Osaka', fact: 'I live in Osaka.', at: '2024-06-01T10:00:00+09:00' },
      { subject: 'me', predicate: 'lives_in', object: 'Tokyo', fact: 'I live in Tokyo.', at: '2025-03-01T10:00:00+09:00' },
    ]);
    const result = await retrieve(m, 'where did I live during 2024?');
    expect(result.hits.slice(0, 2).map((h) => h.fact.object).sort()).toEqual(['Kyoto', 'Osaka']);
    expect(result.hits[2]!.fact.object).toBe('Tokyo');
  });

  it('Japanese: "3月の時点で上司は誰?" answers as of the end of March', async () => {
    const m = observed([
      { subject: '私', predicate: '上司', object: '佐藤', fact: '私の上司は佐藤さんです。', at: '2026-01-10T10:00:00+09:00' },
      { subject: '私', predicate: '上司', object: '鈴木', fact: '私の上司は鈴木さんです。', at: '2026-04-20T10:00:00+09:00' },
    ]);
    const result = await retrieve(m, '3月の時点で上司は誰?');
    expect(result.time).toMatchObject({ kind: 'point', unit: 'month', phrase: '3月の時点', asOf: '2026-03-31T14:59:59.998Z' });
    expect(result.hits[0]!.fact.object).toBe('佐藤');
    const text = context(m, result);
    expect(text).toContain('As of 31 Mar 2026:\n- 私の上司は佐藤さんです。 (10 Jan – 20 Apr 2026)');
    expect(text).toContain('Now:\n- 私の上司は鈴木さんです。 (since 20 Apr 2026)');
  });

  it('Japanese: "去年" is the period of last year', async () => {
    const m = observed([
      { subject: '私', predicate: '住所', object: '京都', fact: '京都に住んでいます。', at: '2023-04-01T10:00:00+09:00' },
      { subject: '私', predicate: '住所', object: '大阪', fact: '大阪に住んでいます。', at: '2024-08-01T10:00:00+09:00' },
      { subject: '私', predicate: '住所', object: '東京', fact: '東京に住んでいます。', at: '2026-02-01T10:00:00+09:00' },
    ]);
    const result = await retrieve(m, '去年はどこに住んでいましたか?');
    expect(result.time).toMatchObject({ kind: 'period', unit: 'year', phrase: '去年' });
    expect(result.hits[0]!.fact.object).toBe('大阪');
  });

  it('a date in the question is that day in the user\'s zone: Tokyo and New York differ', async () => {
    // B took over at 11:00 on 10 Sep in Tokyo, which is 22:00 on 9 Sep in New York.
    const m = observed([
      { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', at: '2026-09-01T10:00:00+09:00' },
      { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', at: '2026-09-10T02:00:00Z' },
    ]);
    process.env.TEMPORA_TZ = 'Asia/Tokyo';
    const tokyo = await retrieve(m, 'who was my manager on 2026-09-09?');
    expect(tokyo.time!.at).toBe('2026-09-08T15:00:00.000Z');
    expect(tokyo.hits[0]!.fact.object).toBe('A');
    process.env.TEMPORA_TZ = 'America/New_York';
    const newYork = await retrieve(m, 'who was my manager on 2026-09-09?');
    expect(newYork.time!.at).toBe('2026-09-09T04:00:00.000Z');
    expect(newYork.hits[0]!.fact.object).toBe('B');
    // The zone option says the same without the environment.
    expect((await retrieve(m, 'who was my manager on 2026-09-09?', { zone: 'Asia/Tokyo' })).hits[0]!.fact.object).toBe('A');
    // And the context writes New York's days.
    expect(context(m, newYork)).toContain('As of 9 Sept 2026:\n- My manager is B. (since 9 Sept 2026, still true)');
  });

  it('an explicit asOf wins over a time in the question; history off ignores it', async () => {
    const m = managers();
    const asOf = await retrieve(m, 'who was my manager on 2026-09-10?', { asOf: '2026-09-20T00:00:00.000Z' });
    expect(asOf.time).toBeNull();
    expect(asOf.hits.map((h) => h.fact.object)).toEqual(['B']);
    const current = retrieveWithoutVectors(m, 'who was my manager on 2026-09-10?', { history: false });
    expect(current.time).toBeNull();
    expect(current.hits.map((h) => h.fact.object)).toEqual(['B']);
  });

  it('vectors rank within the time: a vector hit of the wrong time does not come first', async () => {
    const m = managers();
    const b = m.facts.list({ predicate: 'manager' })[0]!;
    const result = await retrieve(m, 'who was my manager on 2026-09-10?', { vectors: { rank: async () => [b.id] } });
    expect(result.vectorsUsed).toBe(true);
    expect(result.hits[0]!.fact.object).toBe('A');
  });

  it('`tempora search` (searchMemoryText) gives the same answer first', () => {
    const m = managers();
    const response = searchMemoryText(m, { query: 'who was my manager on 2026-09-10?' });
    expect(response.hits[0]!.fact.object).toBe('A');
    expect(response.history).toBe(true);
  });

  it('the chat model is told the time and the answer as of it', async () => {
    const m = managers();
    const seen: ChatMessage[][] = [];
    const model: ChatModel = {
      contextSize: 8192,
      countTokens,
      async streamChat(messages, opts) {
        seen.push(messages);
        opts.onToken('A.');
        return { text: 'A.', stopped: false, promptTokens: 1, completionTokens: 1 };
      },
    };
    const conversation = m.conversations.create('t');
    const turn = await runChatTurn(m, model, null, { conversationId: conversation.id, content: 'Who was my manager on 2026-09-10?', onToken: () => {} });
    expect(turn.retrieval.time).toMatchObject({ kind: 'point', phrase: 'on 2026-09-10' });
    const system = seen[0]![0]!.content;
    expect(system).toContain('As of 10 Sept 2026:\n- My manager is A. (1 Sept – 15 Sept 2026)');
    expect(system).toContain('Now:\n- My manager is B. (since 15 Sept 2026)');
    expect(turn.factIds[0]).toBe(turn.retrieval.hits[0]!.fact.id);
  });
});

describe('the context for a time', () => {
  const ref = { instant: '2026-10-01T03:00:00.000Z', zone: 'Asia/Tokyo' };
  it.each([
    ['what did I do last spring?', 'In spring 2026 (1 Mar 2026 – 31 May 2026)'],
    ['who was my manager in March?', 'In March 2026'],
    ['where have I lived since 2024?', 'Since 1 Jan 2024'],
    ['who was my manager in early September 2025?', 'In 1 Sept 2025 – 10 Sept 2025'],
    ['what did I do last week?', 'In 21 Sept 2026 – 27 Sept 2026'],
    ['去年の今頃はどこにいた?', 'As of 1 Oct 2025'],
    ['where was I on 2025-10-01T09:30?', 'As of 1 Oct 2025, 09:30'],
    ['who was my manager before 2024?', 'As of 31 Dec 2023'],
  ])('%s → "%s:"', (question, title) => {
    const time = findQuestionTime(question, ref)!;
    expect(timeLabel(time, 'Asia/Tokyo', ref.instant).title).toBe(title);
  });

  it('keeps to the budget, the facts true then first', async () => {
    const m = managers();
    const result = await retrieve(m, 'who was my manager on 2026-09-10?');
    const tight = buildContext(result.facts, { budget: 70, countTokens, now: m.clock.now(), time: result.time });
    expect(tight.tokens).toBeLessThanOrEqual(70);
    expect(tight.factIds).toEqual([result.hits[0]!.fact.id]);
    expect(tight.dropped).toBe(1);
  });

  it('writes intervals in the zone with the screens\' formatter', () => {
    const now = '2026-10-01T00:00:00.000Z';
    expect(describeInterval({ valid_at: '2025-12-31T16:00:00.000Z', invalid_at: '2026-09-14T15:30:00.000Z' }, now, 'Asia/Tokyo')).toBe('1 Jan – 15 Sept 2026');
    expect(describeInterval({ valid_at: '2025-12-31T16:00:00.000Z', invalid_at: '2026-09-14T15:30:00.000Z' }, now, 'America/New_York')).toBe('31 Dec 2025 – 14 Sept 2026');
    expect(describeInterval({ valid_at: '2026-09-15T01:00:00.000Z', invalid_at: null }, now, 'Asia/Tokyo')).toBe('since 15 Sept 2026');
    expect(describeInterval({ valid_at: '2026-09-15T01:00:00.000Z', invalid_at: '2027-01-10T00:00:00.000Z' }, now, 'Asia/Tokyo')).toBe('since 15 Sept 2026, until 10 Jan 2027');
  });
});

describe('the context without a named time', () => {
  it('writes days in the user zone: 1 September in Tokyo, not 31 August', () => {
    const fact: FactRecord = { ...sampleFact, valid_at: '2026-08-31T15:00:00.000Z', valid_at_precision: 'day' };
    const options = { budget: 500, countTokens: (t: string) => t.length / 4, now: '2026-09-01T00:30:00.000Z' };
    expect(buildContext([fact], { ...options, zone: 'Asia/Tokyo' }).text).toContain('since 1 Sept 2026');
    expect(buildContext([fact], { ...options, zone: 'Asia/Tokyo' }).text).toContain('today is 1 Sept 2026');
    expect(buildContext([fact], options).text).toContain('since 31 Aug 2026');
    // A month said in Tokyo is that month read in UTC too (a calendar date, not a moment).
    const month: FactRecord = { ...sampleFact, valid_at: '2026-08-31T15:00:00.000Z', valid_at_precision: 'month' };
    expect(buildContext([month], options).text).toContain('since September 2026');
  });
});
