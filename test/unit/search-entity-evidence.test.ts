/**
 * Issue 28 items 1 and 5: the entity list brings its own evidence — a named person's facts by how
 * many different question words each holds, the most recently said first among equals; two people
 * named draw from both, what concerns or is shared by both first — and a relation asked for
 * ("where does X work?") is the predicate the memory uses for it, not any sentence holding "work".
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { askedRelations } from '../../electron/memory/text-search/asked-relations';
import { parseQuery } from '../../electron/memory/text-search/query-terms';
import { buildScaleMemory } from '../eval/scale-memory';

type Said = { subject: string; predicate: string; object: string; fact: string; at: string; cardinality?: 'one' | 'many' };

function memoryOf(said: Said[]): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z') });
  for (const s of said) m.facts.observe([{ subject: s.subject, predicate: s.predicate, object: s.object, fact: s.fact, reference_time: s.at, cardinality: s.cardinality ?? 'many' }]);
  return m;
}

const sentences = (m: Memory, ids: string[] | undefined) => (ids ?? []).map((id) => m.facts.get(id)?.fact);
const asked = (question: string, predicates: string[]) => {
  const q = parseQuery(question);
  return [...askedRelations(q.terms, q.grams, predicates).keys()].sort();
};

describe('the relation a question asks for', () => {
  const predicates = ['works_at', 'lives_in', 'manager', 'started_at', 'said', 'likes', 'studies_at', 'employer', '上司'];

  it.each([
    ['Where does Zoe work?', ['employer', 'works_at']],
    ['Where did Zoe work in 2025?', ['employer', 'works_at']],
    ['What is Zoe’s job?', ['employer', 'works_at']],
    ['Where does Zoe live?', ['lives_in']],
    ['Where has Zoe lived?', ['lives_in']],
    ["Who is Zoe's manager?", ['manager', '上司']],
    ["Who's Zoe's boss?", ['manager', '上司']],
    ['When did Zoe start at Acme?', ['started_at']],
    ['佐藤さんはどこで働いていますか？', ['employer', 'works_at']],
    ['佐藤さんの上司は誰ですか？', ['manager', '上司']],
  ])('%s → %j', (question, expected) => {
    expect(asked(question, predicates)).toEqual(expected);
  });

  it('is no relation where the word only begins another word, or names none', () => {
    expect(asked('Has Zoe been to Liverpool?', predicates)).toEqual([]);
    expect(asked('What did Zoe say about the weather?', predicates)).toEqual([]);
  });

  it('is not any question word a predicate holds: "study" is a word to weigh, not a relation asked for', () => {
    expect(asked('Where did Zoe study?', predicates)).toEqual([]);
  });

  it('is only a predicate the memory uses: none in use, none asked', () => {
    expect(asked('Where does Zoe work?', ['said', 'likes'])).toEqual([]);
  });
});

describe('"where does X work?" finds the workplace, not a sentence with "work" in it', () => {
  // Zoe's workplace was said in March; sentences holding "work" were said before and after it, most of them later.
  const noise = Array.from({ length: 14 }, (_, i) => ({
    subject: 'Zoe',
    predicate: i % 2 ? 'said' : 'mentioned',
    object: `remark ${i}`,
    fact: `Zoe said work was tiring in week ${i + 1}.`,
    at: `2026-${String(2 + Math.floor(i / 2)).padStart(2, '0')}-${String(10 + (i % 2)).padStart(2, '0')}T09:00:00Z`,
  }));
  const workplace = { subject: 'Zoe', predicate: 'works_at', object: 'Acme', fact: 'Zoe works at Acme.', at: '2026-03-01T09:00:00Z', cardinality: 'one' as const };

  it('first, in the search and in each list', () => {
    const m = memoryOf([...noise, workplace]);
    expect(m.facts.search('Where does Zoe work?', { limit: 10 })[0]?.fact.fact).toBe('Zoe works at Acme.');
    const lists = m.facts.searchLists('Where does Zoe work?', { limit: 10 });
    expect(sentences(m, lists.text)[0]).toBe('Zoe works at Acme.');
    expect(sentences(m, lists.entity)[0]).toBe('Zoe works at Acme.');
  });

  it('also when the memory says it in other words: employed_by holds no "work"', () => {
    const m = memoryOf([...noise, { ...workplace, predicate: 'employed_by', fact: 'Zoe is employed by Acme.' }]);
    expect(m.facts.search('Where does Zoe work?', { limit: 10 })[0]?.fact.fact).toBe('Zoe is employed by Acme.');
  });
});

describe('a named person’s facts, by their own evidence', () => {
  // "play" and "music" are common (everyone plays music); "geyser" is rare.
  const crowd = Array.from({ length: 20 }, (_, i) => ({ subject: `Person ${i}`, predicate: 'plays', object: `music ${i}`, fact: `Person ${i} likes to play music.`, at: '2026-01-05T09:00:00Z' }));
  const leo = [
    { subject: 'Leo', predicate: 'visited', object: 'Iceland', fact: 'Leo saw a geyser.', at: '2026-02-01T09:00:00Z' },
    { subject: 'Leo', predicate: 'plays', object: 'band', fact: 'Leo likes to play music with friends.', at: '2026-01-01T09:00:00Z' },
    { subject: 'Leo', predicate: 'owns', object: 'cat', fact: 'Leo has a cat.', at: '2026-03-01T09:00:00Z' },
  ];

  it('more different question words first, however common: not the text list’s rarity order', () => {
    const m = memoryOf([...crowd, ...leo]);
    const lists = m.facts.searchLists('Did Leo play music near the geyser?', { limit: 10 });
    expect(sentences(m, lists.text)[0]).toBe('Leo saw a geyser.');
    // A fact with no word of the question but the name is no evidence where others have one.
    const entity = sentences(m, lists.entity);
    expect(entity.slice(0, 2)).toEqual(['Leo likes to play music with friends.', 'Leo saw a geyser.']);
    expect(entity).not.toContain('Leo has a cat.');
  });

  it('no fact holds a word but the name ("Tell me about Leo"): all of them, the most recently said first', () => {
    const m = memoryOf(leo);
    expect(sentences(m, m.facts.searchLists('Tell me about Leo', { limit: 10 }).entity)).toEqual(['Leo has a cat.', 'Leo saw a geyser.', 'Leo likes to play music with friends.']);
  });

  it('equal words: the more recently said first (not the earliest, as before)', () => {
    const m = memoryOf([
      { subject: 'Leo', predicate: 'visited', object: 'Oslo', fact: 'Leo visited Oslo.', at: '2026-01-01T09:00:00Z' },
      { subject: 'Leo', predicate: 'visited', object: 'Bergen', fact: 'Leo visited Bergen.', at: '2026-01-01T09:00:01Z' },
    ]);
    expect(sentences(m, m.facts.searchLists('Where has Leo travelled?', { limit: 10 }).entity)).toEqual(['Leo visited Bergen.', 'Leo visited Oslo.']);
  });
});

describe('a question naming two people', () => {
  const said: Said[] = [
    { subject: 'Mia', predicate: 'likes', object: 'jazz', fact: 'Mia likes jazz.', at: '2026-01-01T09:00:00Z' },
    { subject: 'Leo', predicate: 'likes', object: 'jazz', fact: 'Leo likes jazz.', at: '2026-01-02T09:00:00Z' },
    ...Array.from({ length: 12 }, (_, i) => ({ subject: 'Mia', predicate: 'likes', object: `tea ${i}`, fact: `Mia likes tea number ${i}.`, at: `2026-04-${String(i + 1).padStart(2, '0')}T09:00:00Z` })),
    ...Array.from({ length: 12 }, (_, i) => ({ subject: 'Leo', predicate: 'likes', object: `chess ${i}`, fact: `Leo likes chess opening ${i}.`, at: `2026-05-${String(i + 1).padStart(2, '0')}T09:00:00Z` })),
  ];

  it('ranks what both share first, and draws from both', () => {
    const m = memoryOf(said);
    const entity = sentences(m, m.facts.searchLists('What do Mia and Leo both like?', { limit: 10 }).entity);
    expect(entity.slice(0, 2).sort()).toEqual(['Leo likes jazz.', 'Mia likes jazz.']);
    const top = m.facts.search('What do Mia and Leo both like?', { limit: 10 }).map((h) => h.fact.fact);
    expect(top.slice(0, 2).sort()).toEqual(['Leo likes jazz.', 'Mia likes jazz.']);
    expect(top.some((f) => f.startsWith('Leo likes chess'))).toBe(true);
    expect(top.some((f) => f.startsWith('Mia likes tea'))).toBe(true);
  });

  it('a fact naming both comes before one they share', () => {
    const m = memoryOf([...said, { subject: 'Mia', predicate: 'went_hiking_with', object: 'Leo', fact: 'Mia went hiking with Leo.', at: '2026-02-01T09:00:00Z' }]);
    expect(sentences(m, m.facts.searchLists('What do Mia and Leo both like?', { limit: 10 }).entity)[0]).toBe('Mia went hiking with Leo.');
  });

  it('one person named: nothing is shared, the list is that person’s', () => {
    const m = memoryOf(said);
    const entity = sentences(m, m.facts.searchLists('What does Mia like?', { limit: 10 }).entity);
    expect(entity.every((f) => f?.startsWith('Mia'))).toBe(true);
    expect(entity[0]).toBe('Mia likes tea number 11.');
  });
});

describe('"where does X work?" at 10k facts, each person also tired of work this week', () => {
  it('finds the workplace in the top 10 for 20 of 20 people, first for each', () => {
    const { memory, document } = buildScaleMemory(10_000);
    const live = document.facts.filter((f) => f.expired_at === null);
    const people = [...new Set(live.filter((f) => /^[A-Z][a-z]+ [A-Z]\. [A-Z]/.test(f.subject)).map((f) => f.subject))].sort();
    const asked = people
      .flatMap((name) => {
        const current = live.filter((f) => f.subject === name && f.predicate === 'works_at' && f.invalid_at === null);
        return current.length === 1 ? [{ name, answer: current[0]! }] : [];
      })
      .slice(0, 20);
    expect(asked).toHaveLength(20);
    // Newer than anything the memory holds, three sentences each holding the person's name and "work".
    for (const { name } of asked) {
      for (const [i, at] of ['2026-11-20', '2026-11-25', '2026-11-28'].entries()) {
        memory.facts.observe([{ subject: name, predicate: i === 0 ? 'said' : 'mentioned', object: `remark ${i}`, fact: `${name} said work was tiring this week (${i + 1}).`, reference_time: `${at}T09:00:00Z`, cardinality: 'many' }]);
      }
    }
    const found = asked.filter(({ name, answer }) => memory.facts.search(`Where does ${name} work?`, { limit: 10 }).map((h) => h.fact.id).includes(answer.id));
    const first = asked.filter(({ name, answer }) => memory.facts.search(`Where does ${name} work?`, { limit: 10 })[0]?.fact.id === answer.id);
    expect(found.length).toBe(20);
    expect(first.length).toBe(20);
  });
});
