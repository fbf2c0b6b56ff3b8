/**
 * The lexicon bridge (electron/memory/text-search/ja-lexicon.ts) over EDICT's common words: the
 * Japanese words of a question (kana-only words of grammar left out), the Japanese words related to
 * one through its English glosses and WordNet, and English words related through what qualifies a
 * gloss. The search through it, spawned: test/integration/cli-search-paraphrase-ja.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { japaneseWordsIn, relatedJapanese, relatedThroughGlosses } from '../../electron/memory/text-search/ja-lexicon';

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
