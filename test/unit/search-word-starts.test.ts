/**
 * Words match where words start (issue 28 item 2, and the inflections of item 4): a question word
 * or its stem counts where a word of the fact begins with it — never inside another word ("long"
 * in "belonging", "made" in "homemade"), nor in the adverb made from it ("current" in
 * "currently"). Irregular verbs match by their forms
 * ("buy" / "bought"), regular inflections through the stemmer ("live" / "lives", "hiking" / "hiked").
 * Japanese has no word boundaries and keeps matching inside a run. Pinned on the word functions
 * and through a real in-memory store's search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { parseQuery } from '../../electron/memory/text-search/query-terms';
import { holdsWord, stem, termsOfWord } from '../../electron/memory/text-search/word-forms';

describe('a term counts at the start of a word, never inside one', () => {
  it.each([
    // [text, question word, holds]
    ['how long ago', 'long', true],
    ['a sense of belonging', 'long', false],
    ['longboard', 'long', true],
    ['made by hand', 'made', true],
    ['homemade bread', 'made', false],
    ['her current bike', 'current', true],
    ['she is currently away', 'current', false],
    ['the current-ish one', 'current', true],
    ['two friends', 'friend', true],
    ['befriended her', 'friend', false],
    ['a friendly dog', 'friend', false],
    ['went hiking', 'hiking', true],
    ['hiked up', 'hiking', true],
    ['a hike', 'hiking', true],
    ['shiking', 'hiking', false],
    ['lives_in', 'live', true],
    ['living in lima', 'lives', true],
    ['olive oil', 'live', false],
    ['i study japanese', 'studies', true],
    ['a student', 'studies', false],
    ['uses ai daily', 'ai', true],
    ['air travel', 'ai', false],
    ['東京のaiラボ', 'ai', true],
  ] as const)('%j holds %j: %s', (text, word, holds) => {
    expect(holdsWord(text, stem(word))).toBe(holds);
  });

  it('drops stop words of the question ("long", "made"), and keeps what facts are about ("like", "work", "name")', () => {
    expect(parseQuery('How long has Mia liked salsa?').terms).toEqual(['mia', 'like', 'salsa']);
    expect(parseQuery('What has Mia made?').terms).toEqual(['mia']);
    expect(parseQuery('Where does Zoe work? What is my name?').terms).toEqual(expect.arrayContaining(['work', 'name']));
  });

  it('searches a query of common words alone by them (any text searches); with one content word, only that', () => {
    expect(parseQuery('clear').terms).toEqual(['clear']);
    expect(parseQuery('How long?').terms).toEqual(['how', 'long']);
    expect(parseQuery('I clear').terms).toEqual(['clear']);
    expect(parseQuery('clear salsa').terms).toEqual(['salsa']);
  });

  it('reads an irregular verb in every form: buy / bought, go / went', () => {
    expect(parseQuery('What did I buy?').terms).toEqual(['buy', 'bought']);
    expect(parseQuery('What have I bought?').terms).toEqual(['buy', 'bought']);
    expect(termsOfWord('lives')).toEqual(['live']);
  });

  it('keeps Japanese pairs matching inside a run', () => {
    expect(parseQuery('大阪に住んでいますか').grams).toEqual(expect.arrayContaining(['大阪', '住ん']));
  });
});

describe('search ranks the fact that holds the words, not the one that holds them inside others', () => {
  let memory: Memory;
  const at = '2026-03-01T09:00:00Z';
  const fact = (subject: string, predicate: string, object: string, sentence: string) => ({ subject, predicate, object, fact: sentence, reference_time: at });

  beforeAll(() => {
    memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-06-01T00:00:00.000Z') });
    memory.facts.observe([
      fact('Mia', 'feels', 'belonging', 'Mia currently feels a real sense of belonging at the climbing gym.'),
      fact('Mia', 'volunteers_at', 'shelter', 'Mia is currently volunteering at the animal shelter, where she feels she belongs.'),
      fact('Mia', 'bakes', 'bread', 'Mia made homemade bread for the long weekend.'),
      fact('Mia', 'owns', 'bike', 'Mia has had her bike since 2021.'),
      fact('Tom', 'owns', 'bike', 'Tom keeps his bike in the hallway.'),
      fact('Ana', 'owns', 'bike', 'Ana rides her bike to work.'),
      fact('Leo', 'sold', 'bike', 'Leo sold his old bike.'),
      fact('me', 'bought', 'lamp', 'I bought a lamp from Kenji.'),
      fact('me', 'likes', 'Kenji', 'I like Kenji a lot.'),
      fact('Zoe', 'lives_in', 'Lima', 'Zoe lives in Lima.'),
      fact('Zoe', 'likes', 'olive', 'Zoe likes olive oil on everything.'),
    ]);
  });
  afterAll(() => memory.close());

  const top = (q: string) => memory.facts.search(q, { limit: 3 }).map((h) => h.fact.fact);

  it('"How long has Mia had her current bike?" finds the bike first', () => {
    expect(top('How long has Mia had her current bike?')[0]).toBe('Mia has had her bike since 2021.');
  });

  it('"What did I buy from Kenji?": the text list puts what was bought first', () => {
    const bought = memory.facts.search('What did I buy from Kenji?', { limit: 3 }).find((h) => h.fact.fact === 'I bought a lamp from Kenji.');
    expect(bought?.parts.text).toBe(1);
  });

  it('"Where does Zoe live?" finds "lives", not "olive"', () => {
    expect(top('Where does Zoe live?')[0]).toBe('Zoe lives in Lima.');
  });
});
