/**
 * Paraphrases through WordNet's verb definitions (issue 28): a question noun no fact holds is
 * bridged to the verbs whose definition names it — "oven" to bake ("prepare with dry heat in an
 * oven") — so "What does Noa make in the oven?" finds "Noa bakes sourdough"; a noun no verb
 * definition names bridges nothing, and a fact about something else does not start matching.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { relatedWords } from '../../electron/memory/text-search/word-net';

describe('verbs whose definition names a noun', () => {
  it('"oven" relates bake', () => {
    expect(relatedWords('oven')).toContain('bake');
  });

  it('a word found in no definition relates no verb through one', () => {
    expect(relatedWords('zzzq')).toEqual([]);
  });
});

describe('search bridges a question noun to the verb the fact uses', () => {
  let memory: Memory;
  const at = '2026-03-01T09:00:00Z';
  beforeAll(() => {
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-06-01T00:00:00.000Z') });
    memory.facts.observe([
      { subject: 'Noa', predicate: 'bakes', object: 'sourdough', fact: 'Noa bakes sourdough bread.', reference_time: at },
      { subject: 'Ken', predicate: 'plays', object: 'chess', fact: 'Ken plays chess on Sundays.', reference_time: at },
      { subject: 'Mari', predicate: 'reads', object: 'novels', fact: 'Mari reads crime novels.', reference_time: at },
    ]);
  });
  afterAll(() => memory.close());

  it('"What is made in the oven?" finds the baking, through the text list', () => {
    const hit = memory.facts.search('What is made in the oven?', { limit: 5 }).find((h) => h.fact.fact === 'Noa bakes sourdough bread.');
    expect(hit?.parts.text).toBeDefined();
  });

  it('"oven" does not make the chess fact a text match', () => {
    const hits = memory.facts.search('What is made in the oven?', { limit: 5 });
    expect(hits.find((h) => h.fact.fact === 'Ken plays chess on Sundays.')?.parts.text).toBeUndefined();
    expect(hits.find((h) => h.fact.fact === 'Mari reads crime novels.')?.parts.text).toBeUndefined();
  });
});
