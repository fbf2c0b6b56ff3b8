/**
 * How alike two names are, for entity resolution (assistant/ingestion/entity-resolution.ts): the Dice
 * coefficient over character bigrams, honorifics stripped. Characters are code points, so a name
 * written with a character outside the Basic Multilingual Plane (𠮷, 𩸽) counts it once.
 */
import { describe, expect, it } from 'vitest';
import { nameSimilarity } from '../../electron/assistant/ingestion/entity-resolution';

describe('name similarity', () => {
  it('is 1 for the same name without honorifics, and a bigram share otherwise', () => {
    expect(nameSimilarity('佐藤さん', '佐藤')).toBe(1);
    expect(nameSimilarity('花子', '山田花子')).toBe(0.5);
    expect(nameSimilarity('Sato', 'Kato')).toBeCloseTo(2 * 2 / 6);
  });

  it('is 0, never NaN, for two different names of one character, astral ones too', () => {
    expect(nameSimilarity('母', '父')).toBe(0);
    expect(nameSimilarity('𠮷', '𩸽')).toBe(0);
    expect(nameSimilarity('𠮷', '𠮷')).toBe(1);
    expect(nameSimilarity('𠮷野', '𠮷田')).toBe(0);
    expect(nameSimilarity('𠮷野家', '𠮷野')).toBeCloseTo(2 / 3);
  });
});
