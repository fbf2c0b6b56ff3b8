/**
 * The same question over the same memory gives the same top 10 — also over a second store built
 * the same way, whose facts got other (random) ids. Equal scores are broken by valid time (newest
 * first), then the sentence, never by id. Real SQLite, stores built through observe.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { retrieve, type VectorRanker } from '../../electron/assistant/retrieval/retrieve';
import { compareTieKeys } from '../../electron/memory/text-search/stable-order';
import { contentRanker } from '../eval/repeatability';
import { toIsoUtc } from '../../shared/time';

const PEOPLE = Array.from({ length: 60 }, (_, i) => `Member${String.fromCharCode(65 + (i % 26))}${Math.floor(i / 26)}`);

/** Sixty people who like tea, told in three batches (three valid times), plus a few who like coffee. */
function build(): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-06-01T00:00:00.000Z') });
  PEOPLE.forEach((p, i) => {
    const at = ['2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z', '2026-05-01T00:00:00Z'][i % 3]!;
    m.facts.observe([
      { subject: p, predicate: 'likes', object: 'tea', fact: `${p} likes tea.`, reference_time: at, cardinality: 'many' },
      ...(i % 10 === 0 ? [{ subject: p, predicate: 'likes', object: 'coffee', fact: `${p} likes coffee.`, reference_time: at, cardinality: 'many' as const }] : []),
    ]);
  });
  return m;
}

const texts = async (m: Memory, query: string, vectors: VectorRanker | null = null) => (await retrieve(m, query, { limit: 10, vectors })).hits.map((h) => h.fact.fact);

describe('stable ranking', () => {
  it('gives the same top 10 on two stores built alike, whose ids differ', async () => {
    const a = build();
    const b = build();
    expect(a.facts.list({}).map((f) => f.id).sort()).not.toEqual(b.facts.list({}).map((f) => f.id).sort());
    for (const query of ['Who likes tea?', 'who likes tea or coffee', 'MemberA0', 'Tell me about MemberC1.']) {
      const first = await texts(a, query);
      expect(first.length, query).toBeGreaterThan(0);
      expect(await texts(a, query), `${query} twice`).toEqual(first);
      expect(await texts(b, query), `${query} on the other store`).toEqual(first);
    }
    a.close();
    b.close();
  });

  it('fuses a vector list without id-dependent ties (hybrid)', async () => {
    const a = build();
    const b = build();
    for (const query of ['Who likes tea?', 'who likes coffee']) {
      expect(await texts(b, query, contentRanker(b)), query).toEqual(await texts(a, query, contentRanker(a)));
    }
    a.close();
    b.close();
  });

  it('orders equally good facts newest first, then by sentence', async () => {
    const m = build();
    const hits = (await retrieve(m, 'Who likes tea?', { limit: 10 })).hits.filter((h) => h.fact.fact.endsWith('likes tea.'));
    expect(hits.length).toBeGreaterThan(3);
    const keys = hits.map((h) => ({ id: h.fact.id, valid_at: h.fact.valid_at, fact: h.fact.fact, score: h.score }));
    for (let i = 1; i < keys.length; i++) {
      if (keys[i]!.score === keys[i - 1]!.score) expect(compareTieKeys(keys[i - 1]!, keys[i]!), `${keys[i - 1]!.fact} before ${keys[i]!.fact}`).toBeLessThan(0);
    }
    expect(keys[0]!.valid_at.startsWith('2026-05-01')).toBe(true);
    m.close();
  });

  it('compares tie keys: valid time descending, then sentence, then id', () => {
    const k = (day: string, fact: string, id: string) => ({ valid_at: toIsoUtc(day), fact, id });
    expect(compareTieKeys(k('2026-02-01', 'b', 'x'), k('2026-01-01', 'a', 'a'))).toBeLessThan(0);
    expect(compareTieKeys(k('2026-01-01', 'a', 'z'), k('2026-01-01', 'b', 'a'))).toBeLessThan(0);
    expect(compareTieKeys(k('2026-01-01', 'a', 'a'), k('2026-01-01', 'a', 'b'))).toBeLessThan(0);
    expect(compareTieKeys(k('2026-01-01', 'a', 'a'), k('2026-01-01', 'a', 'a'))).toBe(0);
  });
});
