/**
 * The as-of panel's count, one sentence in every state (renderer/src/timeline/asof-count.ts): how
 * many facts were true at the moment and how many the panel shows, or, with a filter, how many of
 * them match; "true now" while the cursor follows the clock, "were true then" before it, "will be
 * true then" after it; every number in the locale's one format. While the moment's answer is on
 * its way, no figure at all: that it is being counted.
 */
import { describe, expect, it } from 'vitest';
import { asOfCountingWords, asOfCountWords, tenseOf, type AsOfCount } from '../../renderer/src/timeline/asof-count';

const words = (count: Partial<AsOfCount>, locale = 'en-US') => asOfCountWords({ total: 0, loaded: 0, hasMore: false, shown: 0, filter: '', tense: 'past', ...count }, locale);

describe('the as-of count without a filter', () => {
  it('says when no fact was true', () => {
    expect(words({ tense: 'now' })).toBe('No facts are true now');
    expect(words({ tense: 'past' })).toBe('No facts were true then');
    expect(words({ tense: 'future' })).toBe('No facts will be true then');
  });

  it('says how many were true when every one is shown', () => {
    expect(words({ total: 134, loaded: 134, shown: 134, tense: 'now' })).toBe('134 facts are true now');
    expect(words({ total: 1, loaded: 1, shown: 1, tense: 'now' })).toBe('1 fact is true now');
    expect(words({ total: 1, loaded: 1, shown: 1 })).toBe('1 fact was true then');
    expect(words({ total: 1, loaded: 1, shown: 1, tense: 'future' })).toBe('1 fact will be true then');
    expect(words({ total: 1_202, loaded: 100, shown: 1_202, hasMore: true, tense: 'now' }), 'pages to load, but every fact already listed from the chart').toBe('1,202 facts are true now');
  });

  it('says how many it shows while pages are still to load', () => {
    expect(words({ total: 107, loaded: 100, shown: 100, hasMore: true })).toBe('107 facts were true then · showing the first 100');
    expect(words({ total: 45_412, loaded: 100, shown: 100, hasMore: true, tense: 'future' })).toBe('45,412 facts will be true then · showing the first 100');
    expect(words({ total: 45_412, loaded: 1_000, shown: 1_000, hasMore: true, tense: 'now' }, 'de-DE')).toBe('45.412 facts are true now · showing the first 1.000');
    // More listed than the pages hold (the chart's rows add some): both parts named.
    expect(words({ total: 500, loaded: 100, shown: 130, hasMore: true })).toBe('500 facts were true then · showing the first 100 and 30 from the chart’s rows');
    expect(words({ total: 500, loaded: 100, shown: 101, hasMore: true })).toBe('500 facts were true then · showing the first 100 and 1 from the chart’s rows');
  });
});

describe('the as-of count with a filter', () => {
  it('says how many of the facts true then match, once every one is loaded', () => {
    expect(words({ total: 107, loaded: 107, shown: 12, filter: 'tokyo' })).toBe('107 facts were true then · 12 match “tokyo”');
    expect(words({ total: 107, loaded: 107, shown: 1, filter: 'tokyo', tense: 'now' })).toBe('107 facts are true now · 1 matches “tokyo”');
    expect(words({ total: 107, loaded: 107, shown: 0, filter: 'tokyo' })).toBe('107 facts were true then · none match “tokyo”');
    expect(words({ total: 1, loaded: 1, shown: 1, filter: 'tokyo' })).toBe('1 fact was true then · it matches “tokyo”');
    expect(words({ total: 1, loaded: 1, shown: 0, filter: 'tokyo' })).toBe('1 fact was true then · it does not match “tokyo”');
  });

  it('says how many of those loaded match while pages are still to load', () => {
    expect(words({ total: 817, loaded: 400, shown: 16, hasMore: true, filter: 'harbour' })).toBe('817 facts were true then · 16 of the first 400 match “harbour”');
    expect(words({ total: 817, loaded: 400, shown: 1, hasMore: true, filter: 'harbour' })).toBe('817 facts were true then · 1 of the first 400 matches “harbour”');
    expect(words({ total: 817, loaded: 400, shown: 0, hasMore: true, filter: 'harbour' })).toBe('817 facts were true then · none of the first 400 match “harbour”');
    expect(words({ total: 1_202, loaded: 100, shown: 1_200, hasMore: true, filter: 'read', tense: 'now' }), 'more matches listed than loaded').toBe('1,202 facts are true now · showing 1,200 that match “read”');
  });

  it('says nothing of the filter when no fact was true', () => {
    expect(words({ filter: 'tokyo' })).toBe('No facts were true then');
  });
});

describe('the moment, as the count says it', () => {
  const now = Date.parse('2026-09-10T00:00:00Z');
  it('is now while the cursor follows the clock, else before or after it', () => {
    expect(tenseOf(now, now, true)).toBe('now');
    expect(tenseOf(now - 60_000, now, false)).toBe('past');
    expect(tenseOf(now, now, false)).toBe('past');
    expect(tenseOf(now + 60_000, now, false)).toBe('future');
  });
});

describe('the as-of count while the moment is being counted', () => {
  it('says so, with no figure (the one on screen would be another moment’s)', () => {
    expect(asOfCountingWords('now')).toBe('Counting the facts true now…');
    expect(asOfCountingWords('past')).toBe('Counting the facts true then…');
    expect(asOfCountingWords('future')).toBe('Counting the facts true then…');
    for (const tense of ['now', 'past', 'future'] as const) expect(asOfCountingWords(tense)).not.toMatch(/\d/);
  });
});
