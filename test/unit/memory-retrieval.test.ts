import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { buildContext } from '../../electron/assistant/retrieval/context-builder';
import { describeInterval } from '../../electron/assistant/prompts/model-time';
import { detectQueryIntent } from '../../electron/assistant/retrieval/query-intent';
import { retrieve } from '../../electron/assistant/retrieval/retrieve';

const countTokens = (text: string) => Math.ceil(text.length / 4);

function seeded() {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z') });
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' }]);
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' }]);
  m.facts.observe([{ subject: '私', predicate: '住所', object: '大阪', fact: '大阪に住んでいます。', reference_time: '2026-08-01T00:00:00+09:00', cardinality: 'one' }]);
  return m;
}

describe('query intent', () => {
  it.each([
    ['who is my manager?', false],
    ['where do I live', false],
    ['私の上司は誰？', false],
    ['who was my manager before B?', true],
    ['when did I move to Osaka?', true],
    ['what did I use to like?', true],
    ['以前の上司は誰でしたか', true],
    ['いつ引っ越しましたか', true],
    ['what happened in 2025?', true],
  ])('%s → history %s', (query, history) => {
    expect(detectQueryIntent(query).history).toBe(history);
  });
});

describe('retrieval and the context block', () => {
  it('answers "who is my manager?" with B current and A ended on 15 Sep', async () => {
    const m = seeded();
    const result = await retrieve(m, 'who is my manager?');
    expect(result.intent.history).toBe(false);
    expect(result.vectorsUsed).toBe(false);
    expect(result.note).toMatch(/full-text and entity search only/);
    const block = buildContext(result.facts, { budget: 500, countTokens, now: m.clock.now() });
    expect(block.text).toContain('Current facts:\n- My manager is B. (since 15 Sept 2026)');
    expect(block.text).toContain('History (no longer true):\n- My manager is A. (1 Sept – 15 Sept 2026)');
    expect(block.text.indexOf('My manager is B.')).toBeLessThan(block.text.indexOf('My manager is A.'));
    expect(block.factIds).toHaveLength(2);
  });

  it('brings history for questions about the past, and honours as-of', async () => {
    const m = seeded();
    const past = await retrieve(m, 'who was my manager before?');
    expect(past.hits.map((h) => h.fact.object).sort()).toEqual(['A', 'B']);
    const asOf = await retrieve(m, 'manager', { asOf: '2026-09-10T00:00:00.000Z' });
    expect(asOf.hits.map((h) => h.fact.object)).toEqual(['A']);
  });

  it('keeps the user\'s language and fits the budget', async () => {
    const m = seeded();
    const result = await retrieve(m, '大阪');
    const block = buildContext(result.facts, { budget: 1000, countTokens, now: m.clock.now() });
    expect(block.text).toContain('大阪に住んでいます。');
    const tight = buildContext(m.facts.list({ history: true }).filter((f) => f.expired_at === null), { budget: 30, countTokens, now: m.clock.now() });
    expect(tight.tokens).toBeLessThanOrEqual(30);
    expect(tight.dropped).toBeGreaterThan(0);
  });

  it('uses vector rankings when given, and survives a failing ranker', async () => {
    const m = seeded();
    const b = m.facts.list({ predicate: 'manager' })[0]!;
    const withVectors = await retrieve(m, 'boss', { vectors: { rank: async () => [b.id] } });
    expect(withVectors.vectorsUsed).toBe(true);
    expect(withVectors.hits[0]!.parts.vector).toBe(1);
    const failing = await retrieve(m, 'manager', { vectors: { rank: async () => { throw new Error('index closed'); } } });
    expect(failing.note).toMatch(/vector search failed \(index closed\)/);
    expect(failing.hits.length).toBeGreaterThan(0);
    // A rejection that is not an Error (a native layer may reject with a string, or nothing) is said too.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the fault under test
    const odd = await retrieve(m, 'manager', { vectors: { rank: () => Promise.reject('lance gone') } });
    expect(odd.note).toMatch(/vector search failed \(lance gone\)/);
    expect(odd.hits.length).toBeGreaterThan(0);
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the fault under test
    const silent = await retrieve(m, 'manager', { vectors: { rank: () => Promise.reject(undefined) } });
    expect(silent.note).toBe('vector search failed (no reason given): full-text and entity search only');
  });

  it('writes intervals out', () => {
    const now = '2026-10-01T00:00:00.000Z';
    expect(describeInterval({ valid_at: '2026-09-01T01:00:00.000Z', invalid_at: null }, now)).toBe('since 1 Sept 2026');
    expect(describeInterval({ valid_at: '2026-09-01T01:00:00.000Z', invalid_at: '2026-09-15T01:00:00.000Z' }, now)).toBe('1 Sept – 15 Sept 2026');
    expect(describeInterval({ valid_at: '2026-09-01T01:00:00.000Z', invalid_at: '2026-12-31T00:00:00.000Z', invalid_at_precision: 'day' }, now)).toBe('since 1 Sept 2026, until 31 Dec 2026');
    expect(describeInterval({ valid_at: '2027-01-01T00:00:00.000Z', valid_at_precision: 'month', invalid_at: null }, now)).toBe('from January 2027 (planned)');
  });
});
