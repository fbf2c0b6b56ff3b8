/**
 * The text retrievers and the vector side of one question overlap: the text side runs once the
 * ranker's work has left this thread — the question handed to an embedding model, or the search to
 * the index's threads (retrieve.ts) — and a ranker that never says so delays it only a moment.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { retrieve, type VectorRanker } from '../../electron/assistant/retrieval/retrieve';

function seeded(): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z') });
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' }]);
  m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'green tea', object_type: 'literal', fact: 'I like green tea.', reference_time: '2026-09-02T10:00:00+09:00' }]);
  return m;
}

/** A seeded memory whose text retrievers write 'text' into `events` when they run; the ranker's events go there too. */
function traced(): { m: Memory; events: string[] } {
  const m = seeded();
  const events: string[] = [];
  const searchLists = m.facts.searchLists.bind(m.facts);
  m.facts.searchLists = (...args) => (events.push('text'), searchLists(...args));
  return { m, events };
}

/** A promise that settles only when released. */
function gate(): { wait: Promise<void>; release: () => void } {
  let release!: () => void;
  const wait = new Promise<void>((resolve) => (release = resolve));
  return { wait, release };
}

describe('retrieve with vectors', () => {
  it('runs the text retrievers once the vector search is handed over, not before', async () => {
    const { m, events } = traced();
    const tea = m.facts.list({ predicate: 'likes' })[0]!;
    const ranker: VectorRanker = {
      async rank(_query, _limit, _signal, onAway) {
        events.push('rank');
        await Promise.resolve(); // the index's own first step
        await Promise.resolve();
        events.push('handed over');
        onAway?.();
        await new Promise((resolve) => setImmediate(resolve));
        events.push('vector hits');
        return [tea.id];
      },
    };
    const found = await retrieve(m, 'what do I like to drink?', { vectors: ranker });
    expect(events).toEqual(['rank', 'handed over', 'text', 'vector hits']);
    expect(found.vectorsUsed).toBe(true);
    expect(found.hits.map((h) => h.fact.id)).toContain(tea.id);
  });

  it('runs them at once when the ranker is done before it hands anything over (no model: null)', async () => {
    const { m, events } = traced();
    const found = await retrieve(m, 'manager', { vectors: { rank: async () => (events.push('rank'), null) } });
    expect(events).toEqual(['rank', 'text']);
    expect(found.vectorsUsed).toBe(false);
    expect(found.note).toMatch(/no embedding model/);
  });

  it('runs them while the question is being embedded, once the ranker says it has handed it over', async () => {
    const { m, events } = traced();
    const embedding = gate();
    const ranker: VectorRanker = {
      async rank(_query, _limit, _signal, onAway) {
        events.push('embedding');
        onAway?.();
        await embedding.wait; // released only once the text side has run
        events.push('embedded');
        return [];
      },
    };
    const answer = retrieve(m, 'manager', { vectors: ranker });
    await expect.poll(() => events).toEqual(['embedding', 'text']);
    embedding.release();
    const found = await answer;
    expect(events).toEqual(['embedding', 'text', 'embedded']);
    expect(found.hits[0]!.fact.object).toBe('A');
  });

  it('does not wait long for a ranker that never says: the text side runs anyway', async () => {
    const { m, events } = traced();
    const silent = gate();
    const answer = retrieve(m, 'manager', { vectors: { rank: async () => (events.push('rank'), await silent.wait, events.push('ranked'), []) } });
    await expect.poll(() => events).toEqual(['rank', 'text']);
    silent.release();
    expect((await answer).hits[0]!.fact.object).toBe('A');
    expect(events).toEqual(['rank', 'text', 'ranked']);
  });
});
