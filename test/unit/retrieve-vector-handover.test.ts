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

/** Records, in order, what the ranker and the text retrievers did. */
function traced(m: Memory, events: string[]) {
  const searchLists = m.facts.searchLists.bind(m.facts);
  m.facts.searchLists = (...args) => (events.push('text'), searchLists(...args));
}

describe('retrieve with vectors', () => {
  it('runs the text retrievers once the vector search is handed over, not before', async () => {
    const m = seeded();
    const events: string[] = [];
    traced(m, events);
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
    const m = seeded();
    const events: string[] = [];
    traced(m, events);
    const found = await retrieve(m, 'manager', { vectors: { rank: async () => (events.push('rank'), null) } });
    expect(events).toEqual(['rank', 'text']);
    expect(found.vectorsUsed).toBe(false);
    expect(found.note).toMatch(/no embedding model/);
  });

  it('runs them while the question is being embedded, once the ranker says it has handed it over', async () => {
    const m = seeded();
    const events: string[] = [];
    traced(m, events);
    let embedded!: () => void;
    const embedding = new Promise<void>((resolve) => (embedded = resolve));
    const ranker: VectorRanker = {
      async rank(_query, _limit, _signal, onAway) {
        events.push('embedding');
        onAway?.();
        await embedding; // released only once the text side has run
        events.push('embedded');
        return [];
      },
    };
    const answer = retrieve(m, 'manager', { vectors: ranker });
    await expect.poll(() => events).toEqual(['embedding', 'text']);
    embedded();
    const found = await answer;
    expect(events).toEqual(['embedding', 'text', 'embedded']);
    expect(found.hits[0]!.fact.object).toBe('A');
  });

  it('does not wait long for a ranker that never says: the text side runs anyway', async () => {
    const m = seeded();
    const events: string[] = [];
    traced(m, events);
    let released!: () => void;
    const never = new Promise<void>((resolve) => (released = resolve));
    const answer = retrieve(m, 'manager', { vectors: { rank: async () => (events.push('rank'), await never, events.push('ranked'), []) } });
    await expect.poll(() => events).toEqual(['rank', 'text']);
    released();
    expect((await answer).hits[0]!.fact.object).toBe('A');
    expect(events).toEqual(['rank', 'text', 'ranked']);
  });
});
