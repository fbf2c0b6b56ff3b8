/**
 * The lexicon bridge (electron/memory/text-search/ja-lexicon.ts) over EDICT's common words: the
 * Japanese words of a question (kana-only words of grammar left out), the Japanese words related to
 * one through its English glosses and WordNet, and English words related through what qualifies a
 * gloss. The search through it, spawned: test/integration/cli-search-paraphrase-ja.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { japaneseWordsIn, relatedJapanese, relatedThroughGlosses, translations } from '../../electron/memory/text-search/ja-lexicon';

describe('the Japanese words of a question', () => {
  it('takes the longest word at each place and leaves kana-only words of grammar out', () => {
    expect(japaneseWordsIn('杏奈が習っている踊りは')).toEqual(['踊り']);
    expect(japaneseWordsIn('走り切った長距離レースは')).toEqual(['走り', '長距離', 'レース']);
    expect(japaneseWordsIn('ってでは')).toEqual([]);
  });
});

describe('related Japanese words', () => {
  it('reads a word back through its glosses: 踊り → dance → サルサ ("salsa (dance)"), ダンス', () => {
    const related = relatedJapanese('踊り');
    expect(related).toEqual(expect.arrayContaining(['サルサ', 'ダンス']));
    expect(related).not.toContain('踊り');
  });

  it('and through the words WordNet relates to a gloss: オーブン → oven → bake → 焼く', () => {
    expect(relatedJapanese('オーブン')).toContain('焼く');
  });

  it('never the word itself or a part of it, at most 24, and nothing for a word it does not hold', () => {
    for (const word of ['踊り', '楽器', '購入', 'レース']) {
      const related = relatedJapanese(word);
      expect(related.length).toBeLessThanOrEqual(24);
      expect(related.filter((w) => word.includes(w))).toEqual([]);
    }
    expect(relatedJapanese('ほげほげ語')).toEqual([]);
  });
});

describe('English words related through a gloss', () => {
  it('dance → salsa; a word no gloss names relates nothing', () => {
    expect(relatedThroughGlosses('dance')).toContain('salsa');
    expect(relatedThroughGlosses('zzyzx')).toEqual([]);
  });
});

describe('one word in the other language', () => {
  it('a Japanese word as the English it is glossed as in one word, and back', () => {
    expect(translations('大阪')).toEqual(['osaka']);
    expect(translations('東京')).toEqual(['tokyo']);
    expect(translations('osaka')).toEqual(['大阪']);
    expect(translations('tokyo')).toEqual(['東京']);
    expect(translations('ピアノ')).toEqual(['piano']);
  });

  it('the Japanese words it is the first sense of, at most four; a Japanese word in its first two senses', () => {
    expect(translations('company')).toContain('会社');
    expect(translations('company')).not.toContain('一座'); // "company" is its second sense
    expect(translations('sister')).toEqual(['シスター']); // not シス ("cis; sister"), which every システム holds
    expect(translations('写真')).toEqual(['photograph', 'photo']);
    expect(translations('work').length).toBeLessThanOrEqual(4);
  });

  it('not through a gloss of several words or a qualifier: "large hill" is not 大阪, "salsa (dance)" not dance', () => {
    expect(translations('hill')).not.toContain('大阪');
    expect(translations('dance')).not.toContain('サルサ');
    // A gloss with nested parentheses is still one word: 犬 "dog (Canis (lupus) familiaris)".
    expect(translations('犬')[0]).toBe('dog');
    // "in one go" is three words, not go.
    expect(translations('go')).not.toContain('一気に');
    expect(translations('zzyzx')).toEqual([]);
  });
});
