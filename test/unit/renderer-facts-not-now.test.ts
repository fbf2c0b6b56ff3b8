/**
 * The Facts screen's words for a search of now that only another time matches (renderer/src/facts/
 * not-now.ts): facts counted by id, "later" only for a version held now that begins after now, and
 * the sentence for each mix — as the command line counts them (electron/engine/search-not-now.ts).
 */
import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../shared/api-contract';
import type { FactRecord } from '../../shared/memory-schema';
import { asksNow, notNow, notNowWords } from '../../renderer/src/facts/not-now';

const NOW = Date.parse('2026-12-01T00:00:00Z');
const fact = (id: string, valid_at: string, expired_at: string | null = null) => ({ id, valid_at, expired_at }) as unknown as FactRecord;
const found = (facts: FactRecord[], extra: Partial<SearchResponse> = {}): SearchResponse => ({ hits: facts.map((f) => ({ fact: f, score: 1, parts: {} })), vectorsUsed: false, note: null, history: true, time: null, ...extra });

describe('not-now: what History holds when nothing true now matches', () => {
  it('counts facts by id: before now, and later (held now, beginning after now)', () => {
    const history = found([fact('a', '2020-01-01T00:00:00Z'), fact('a', '2020-01-01T00:00:00Z'), fact('b', '2027-02-10T00:00:00Z'), fact('c', '2027-02-10T00:00:00Z', '2026-11-01T00:00:00Z')]);
    // c begins later but was replaced: not a fact still to come.
    expect(notNow(history, NOW)).toEqual({ before: 2, later: 1 });
  });

  it('asks only for an empty search of now: no as-of, not History, no time named', () => {
    expect(asksNow(found([], { history: false }), undefined)).toBe(true);
    expect(asksNow(found([], { history: false }), '2020-01-01T00:00:00.000Z')).toBe(false);
    expect(asksNow(found([]), undefined)).toBe(false);
    expect(asksNow(found([fact('a', '2020-01-01T00:00:00Z')], { history: false }), undefined)).toBe(false);
    const time = { phrase: 'last year', at: '2025-01-01T00:00:00.000Z', precision: 'year', unit: 'year', kind: 'period', zone: 'UTC' } as SearchResponse['time'];
    expect(asksNow(found([], { history: false, time }), undefined)).toBe(false);
  });

  it('says each mix, counts in the locale, and nothing when History holds none', () => {
    expect(notNowWords('manager', { before: 1, later: 0 })).toBe('Nothing true now matches “manager”. 1 fact that was true before does.');
    expect(notNowWords('Berlin', { before: 0, later: 1 })).toBe('Nothing true now matches “Berlin”. 1 fact that will be true later does.');
    expect(notNowWords('Berlin', { before: 0, later: 3 })).toBe('Nothing true now matches “Berlin”. 3 facts that will be true later do.');
    expect(notNowWords('x', { before: 1_200, later: 2 })).toBe('Nothing true now matches “x”. 1,200 facts that were true before and 2 that will be true later do.');
    expect(notNowWords('zebra', { before: 0, later: 0 })).toBeNull();
  });
});
