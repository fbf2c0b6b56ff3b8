/**
 * A predicate as the screens say it (shared/predicate-words.ts): words, lower case, one space apart;
 * Japanese left as it is; never nothing for a name. The words name the same predicate again: the
 * canonical name of what a user reads is the name stored, so typing or pasting it into a filter finds
 * the fact.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizePredicate } from '../../electron/memory/store/normalize';
import { sayPredicate } from '../../shared/predicate-words';

describe('sayPredicate', () => {
  it('says snake_case, kebab-case and camelCase as words', () => {
    expect(sayPredicate('lives_in')).toBe('lives in');
    expect(sayPredicate('has_manager')).toBe('has manager');
    expect(sayPredicate('works_at')).toBe('works at');
    expect(sayPredicate('worksAt')).toBe('works at');
    expect(sayPredicate('WorksAt')).toBe('works at');
    expect(sayPredicate('works-at')).toBe('works at');
    expect(sayPredicate('is_member_of')).toBe('is member of');
    expect(sayPredicate('hasHTMLPage')).toBe('has html page');
    expect(sayPredicate('hasURL')).toBe('has url');
    expect(sayPredicate('note_3')).toBe('note 3');
    expect(sayPredicate('top10Items')).toBe('top10 items');
  });

  it('leaves one word as it is, in lower case', () => {
    expect(sayPredicate('likes')).toBe('likes');
    expect(sayPredicate('manager')).toBe('manager');
    expect(sayPredicate('Likes')).toBe('likes');
    expect(sayPredicate('note3')).toBe('note3');
  });

  it('collapses runs of separators and trims', () => {
    expect(sayPredicate('  lives_in  ')).toBe('lives in');
    expect(sayPredicate('lives__in')).toBe('lives in');
    expect(sayPredicate('_lives_in_')).toBe('lives in');
    expect(sayPredicate('lives _- in')).toBe('lives in');
    expect(sayPredicate('lives in')).toBe('lives in');
  });

  it('leaves Japanese as it is; an underscore between its parts is a space', () => {
    expect(sayPredicate('住んでいる')).toBe('住んでいる');
    expect(sayPredicate('趣味')).toBe('趣味');
    expect(sayPredicate('担当者')).toBe('担当者');
    expect(sayPredicate('好き_な_食べ物')).toBe('好き な 食べ物');
    expect(sayPredicate('勤務先_is')).toBe('勤務先 is');
    expect(sayPredicate('ｗｏｒｋｓ')).toBe('ｗｏｒｋｓ');
  });

  it('never says nothing for a name: separators alone are the name as stored', () => {
    expect(sayPredicate('_')).toBe('_');
    expect(sayPredicate('___')).toBe('___');
    expect(sayPredicate(' - ')).toBe('-');
    expect(sayPredicate('  ')).toBe('  ');
    expect(sayPredicate('')).toBe('');
  });

  it('says every canonical name as words that name it again, one space apart, never empty', () => {
    const part = fc.stringMatching(/^[a-z0-9ぁ-ん一-龯é]{1,6}$/u);
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), fc.constantFrom(' ', '_', '-', '  ', '__'), (parts, separator) => {
        const canonical = normalizePredicate(parts.join(separator));
        const said = sayPredicate(canonical);
        expect(said).not.toBe('');
        expect(said).not.toMatch(/_|\s\s|^\s|\s$/u);
        expect(normalizePredicate(said)).toBe(canonical);
      }),
    );
  });
});
