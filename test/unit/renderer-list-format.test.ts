/** How lists write counts and triples: counts in the user's locale, a note's sentence once. */
import { describe, expect, it } from 'vitest';
import { formatCount, objectRepeatsSentence, plural, tripleOf } from '../../renderer/src/common/format';

describe('counts in the locale', () => {
  it('writes thousands as the locale does', () => {
    expect(formatCount(45_412, 'en-US')).toBe('45,412');
    expect(formatCount(45_412, 'de-DE')).toBe('45.412');
    expect(formatCount(1_000_000, 'ja-JP')).toBe('1,000,000');
    expect(formatCount(7, 'en-GB')).toBe('7');
  });

  it('plural counts in the default locale', () => {
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(45_412, 'row')).toBe(`${formatCount(45_412)} rows`);
    expect(plural(2, 'entity', 'entities')).toBe('2 entities');
  });
});

describe('a triple', () => {
  it('says the predicate in words, the subject and object as they are', () => {
    expect(tripleOf({ subject: 'Mia', predicate: 'lives_in', object: 'Lima' })).toBe('Mia · lives in · Lima');
    expect(tripleOf({ subject: 'me', predicate: 'has_manager', object: 'Aoki_san' })).toBe('me · has manager · Aoki_san');
    expect(tripleOf({ subject: '私', predicate: '趣味', object: '盆栽' })).toBe('私 · 趣味 · 盆栽');
  });
});

describe('a fact whose object is its sentence', () => {
  const fact = (object: string, sentence: string) => ({ object, fact: sentence });
  it('is seen whatever the final stop, case or width of the characters', () => {
    expect(objectRepeatsSentence(fact('Sam keeps bees on the roof', 'Sam keeps bees on the roof.'))).toBe(true);
    expect(objectRepeatsSentence(fact('東京に住んでいます', '東京に住んでいます。'))).toBe(true);
    expect(objectRepeatsSentence(fact('ＡＢＣ', 'abc'))).toBe(true);
  });

  it('is not a short object inside a sentence', () => {
    expect(objectRepeatsSentence(fact('Berlin', 'Alice lives in Berlin.'))).toBe(false);
    expect(objectRepeatsSentence(fact('東京', '私は東京に住んでいます。'))).toBe(false);
  });
});
