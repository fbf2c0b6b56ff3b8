/** Show more's number (asof-count.ts): a page, or what is left to show when less — never more than are left. */
import { describe, expect, it } from 'vitest';
import { asOfMoreCount } from '../../renderer/src/timeline/asof-count';

describe('asOfMoreCount', () => {
  it('is a page when a page or more is left', () => {
    expect(asOfMoreCount({ total: 1_000, loaded: 100, shown: 100, filter: '' }, 100)).toBe(100);
  });
  it('is what is left when the list shows more than the pages loaded (the chart’s rows)', () => {
    expect(asOfMoreCount({ total: 150, loaded: 100, shown: 122, filter: '' }, 50)).toBe(28);
    expect(asOfMoreCount({ total: 170, loaded: 100, shown: 120, filter: '' }, 100)).toBe(50);
  });
  it('with a filter, counts the facts left to read for matches', () => {
    expect(asOfMoreCount({ total: 817, loaded: 400, shown: 16, filter: 'harbour' }, 100)).toBe(100);
    expect(asOfMoreCount({ total: 450, loaded: 400, shown: 16, filter: 'harbour' }, 100)).toBe(50);
  });
  it('is never below nothing', () => {
    expect(asOfMoreCount({ total: 100, loaded: 100, shown: 120, filter: '' }, 100)).toBe(0);
  });
});
