/**
 * One search meaning (issue #26): the Facts box's words are a ranked search, and an entity or
 * predicate filter narrows that same search — it never switches to "every word must match", so
 * refining a search keeps its hits. Through the API as the faces call it (the contract's validation,
 * dispatchCall), on a real engine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../shared/api-contract';
import type { ObservationInput } from '../../shared/observation-schema';
import { withEngine, type ApiCall } from '../fixtures/engine-calls';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-search-filters-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const at = (day: number) => new Date(Date.UTC(2026, 0, 1 + day, 9)).toISOString();

/** 40 people who like coffee; Alice likes "strong black coffee", and drinks tea in the mornings. */
function observations(): ObservationInput[] {
  const out: ObservationInput[] = [];
  for (let i = 0; i < 40; i++) out.push({ subject: `Person ${i}`, predicate: 'likes', object: 'coffee', fact: `Person ${i} likes coffee.`, reference_time: at(i) });
  out.push({ subject: 'Alice', predicate: 'likes', object: 'strong black coffee', fact: 'Alice likes strong black coffee.', reference_time: at(50) });
  out.push({ subject: 'Alice', predicate: 'drinks', object: 'tea', fact: 'Alice drinks tea in the mornings, never coffee before noon.', reference_time: at(51) });
  out.push({ subject: 'Alice', predicate: 'lives_in', object: 'Berlin', fact: 'Alice lives in Berlin.', reference_time: at(52), cardinality: 'one' });
  return out;
}

async function seeded(fn: (call: ApiCall) => Promise<void>): Promise<void> {
  await withEngine(dir, async (call, engine) => {
    engine.memory.facts.observe(observations(), { where: 'search filters test' });
    await fn(call);
  });
}

const sentences = (r: unknown) => (r as SearchResponse).hits.map((h) => h.fact.fact);

describe('filters narrow the ranked search', () => {
  it('a word that matches loosely still finds the entity’s facts, ranked, when the entity narrows it', async () => {
    await seeded(async (call) => {
      // "coffee morning" has no fact holding both words except Alice's tea; an AND matcher would find only that one.
      const narrowed = sentences(await call('search', { query: 'coffee morning', entity: 'Alice', limit: 10 }));
      expect(narrowed).toContain('Alice likes strong black coffee.');
      expect(narrowed).toContain('Alice drinks tea in the mornings, never coffee before noon.');
      expect(narrowed[0]).toBe('Alice drinks tea in the mornings, never coffee before noon.');
      expect(narrowed).not.toContain('Alice lives in Berlin.');
      expect(narrowed.every((s) => s.startsWith('Alice'))).toBe(true);
    });
  });

  it('narrowing keeps hits the unfiltered top would have cut', async () => {
    await seeded(async (call) => {
      const top = sentences(await call('search', { query: 'coffee', limit: 5 }));
      expect(top).toHaveLength(5);
      const narrowed = sentences(await call('search', { query: 'coffee', entity: 'Person 33', limit: 5 }));
      expect(narrowed).toEqual(['Person 33 likes coffee.']);
    });
  });

  it('a predicate narrows the same search; both filters together', async () => {
    await seeded(async (call) => {
      expect(sentences(await call('search', { query: 'coffee', predicate: 'drinks', limit: 10 }))).toEqual(['Alice drinks tea in the mornings, never coffee before noon.']);
      expect(sentences(await call('search', { query: 'coffee', entity: 'Alice', predicate: 'likes', limit: 10 }))).toEqual(['Alice likes strong black coffee.']);
    });
  });

  it('an entity that does not exist matches nothing, and changes nothing', async () => {
    await seeded(async (call) => {
      expect(sentences(await call('search', { query: 'coffee', entity: 'Nobody here', limit: 10 }))).toEqual([]);
    });
  });

  it('an empty filter is refused in words, naming the field', async () => {
    await seeded(async (call) => {
      await expect(call('search', { query: 'coffee', entity: '' })).rejects.toThrow(/entity/);
    });
  });
});
