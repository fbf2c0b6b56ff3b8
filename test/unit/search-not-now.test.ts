/**
 * What a search of now that only another time matches says (shared/search-not-now.ts, counted once
 * for every face): facts counted by id, "later" only for a version held now that begins after now,
 * and the sentence for each mix — the Facts screen's (renderer/src/facts/not-now.ts) and the
 * command line's and agents'.
 */
import { describe, expect, it } from 'vitest';
import type { SearchResponse } from '../../shared/api-contract';
import type { FactRecord } from '../../shared/memory-schema';
import { asksNow, notNow, notNowWords as cliWords } from '../../shared/search-not-now';
import { notNowWords } from '../../renderer/src/facts/not-now';

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
    expect(asksNow(found([], { history: false }), {})).toBe(true);
    expect(asksNow(found([], { history: false }), { asOf: '2020-01-01T00:00:00.000Z' })).toBe(false);
    expect(asksNow(found([]), {})).toBe(false);
    expect(asksNow(found([fact('a', '2020-01-01T00:00:00Z')], { history: false }), {})).toBe(false);
    const time = { phrase: 'last year', at: '2025-01-01T00:00:00.000Z', precision: 'year', unit: 'year', kind: 'period', zone: 'UTC' } as SearchResponse['time'];
    expect(asksNow(found([], { history: false, time }), {})).toBe(false);
  });

  it('says each mix, counts in the locale, and nothing when History holds none', () => {
    expect(notNowWords('manager', { before: 1, later: 0 })).toBe('Nothing true now matches “manager”. 1 fact that was true before does.');
    expect(notNowWords('Berlin', { before: 0, later: 1 })).toBe('Nothing true now matches “Berlin”. 1 fact that will be true later does.');
    expect(notNowWords('Berlin', { before: 0, later: 3 })).toBe('Nothing true now matches “Berlin”. 3 facts that will be true later do.');
    expect(notNowWords('x', { before: 1_200, later: 2 })).toBe('Nothing true now matches “x”. 1,200 facts that were true before and 2 that will be true later do.');
    expect(notNowWords('zebra', { before: 0, later: 0 })).toBeNull();
    expect(asksNow(found([], { history: false }), { knownAt: '2020-01-01T00:00:00.000Z' })).toBe(false);
    // The command line's and agents' sentence, from the same count.
    expect(cliWords('Berlin 大阪', { before: 1, later: 1 }, 'add --history')).toBe('No facts true now match "Berlin 大阪"; 1 fact that was true before and 1 that will be true later do: add --history to see them.');
    expect(cliWords('zebra', { before: 0, later: 0 }, 'add --history')).toBeNull();
  });
});
