/**
 * Fusion is never worse than its best part: a vector list that agrees with the other lists no
 * better than chance keeps a trace weight — it fills slots the text lists leave empty and moves
 * none of their facts — while one that agrees far better than chance counts whole.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { agreementWeight, hypergeometricTail, PART_WEIGHTS, TRACE_WEIGHT } from '../../electron/memory/text-search/fusion';

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('agreementWeight', () => {
  it('counts a list whole when no other list found anything: it is the only evidence', () => {
    expect(agreementWeight({ text: [], vector: ids('v', 20) }, 'vector', 10_000)).toBe(PART_WEIGHTS.vector);
  });

  it('keeps only a trace weight for a list sharing nothing with the others', () => {
    expect(agreementWeight({ text: ids('t', 20), entity: ids('e', 10), vector: ids('v', 30) }, 'vector', 10_000)).toBe(TRACE_WEIGHT);
  });

  it('counts whole a list whose top is the others’ top', () => {
    expect(agreementWeight({ text: ids('t', 20), vector: [...ids('t', 10), ...ids('v', 20)] }, 'vector', 10_000)).toBe(PART_WEIGHTS.vector);
  });

  it('at the boundary: the first overlap as unlikely as 1 in 1,000 by chance lifts the weight off the trace', () => {
    // 1,000 facts, the others' tops hold 20, the vector top 20: the chance overlap is 0.4.
    const n = 1000;
    let x = 0;
    while (hypergeometricTail(n, 20, 20, x) > 1e-3) x++;
    const list = (overlap: number) => ({ text: ids('t', 20), vector: [...ids('t', overlap), ...ids('v', 20 - overlap)] });
    expect(agreementWeight(list(x - 1), 'vector', n)).toBe(TRACE_WEIGHT);
    expect(agreementWeight(list(x), 'vector', n)).toBeGreaterThan(TRACE_WEIGHT);
  });

  it('in a small memory, the same overlap is no longer unlikely: the others hold much of it', () => {
    const list = { text: ids('t', 20), entity: ids('e', 20), vector: [...ids('t', 5), ...ids('v', 15)] };
    expect(agreementWeight(list, 'vector', 100)).toBe(TRACE_WEIGHT);
    expect(agreementWeight(list, 'vector', 100_000)).toBe(PART_WEIGHTS.vector);
  });

  it('the tail is a probability: 1 for no overlap, exact for small cases', () => {
    expect(hypergeometricTail(50, 10, 5, 0)).toBe(1);
    // P(X >= 2) drawing 2 of 4 with 2 marked: C(2,2)/C(4,2) = 1/6.
    expect(hypergeometricTail(4, 2, 2, 2)).toBeCloseTo(1 / 6, 10);
    // Large memories: Stirling's series, still a probability.
    const p = hypergeometricTail(1_000_000, 60, 20, 1);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(0.01);
  });
});

function memoryOf(sentences: string[]): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z') });
  sentences.forEach((fact, i) =>
    m.facts.observe([{ subject: `Person ${i}`, predicate: 'note', object: `thing ${i}`, fact, reference_time: `2026-09-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`, cardinality: 'many' }]),
  );
  return m;
}

describe('a weak vector list through the search', () => {
  const sentences = [
    ...Array.from({ length: 12 }, (_, i) => `Person ${i} enjoys kayaking on lake number ${i}.`),
    ...Array.from({ length: 60 }, (_, i) => `Person ${i + 12} bought a lamp of model ${i}.`),
  ];

  it('moves none of the text list’s facts: the same top 10 as without it', () => {
    const m = memoryOf(sentences);
    const without = m.facts.search('who enjoys kayaking?', { limit: 10 }).map((h) => h.fact.fact);
    expect(without).toHaveLength(10);
    const lamps = m.facts.search('lamp model', { limit: 40 }).map((h) => h.fact.id);
    const kayaks = m.facts.search('who enjoys kayaking?', { limit: 12 }).map((h) => h.fact.id);
    // Unrelated facts, and the text list's 11th and 12th at its 19th and 20th: a whole vote would lift them to the top.
    const weak = [...lamps.slice(0, 18), ...kayaks.slice(10, 12), ...lamps.slice(18, 28)];
    const withWeak = m.facts.search('who enjoys kayaking?', { limit: 10, extra: { vector: weak } });
    expect(withWeak.map((h) => h.fact.fact)).toEqual(without);
  });

  it('still fills the slots the text lists leave empty, in its own order', () => {
    const m = memoryOf(sentences);
    const lamps = m.facts.search('lamp model', { limit: 5 }).map((h) => h.fact.id);
    const hits = m.facts.search('zorbing', { limit: 5, extra: { vector: lamps } });
    expect(hits.map((h) => h.fact.id)).toEqual(lamps);
  });
});
