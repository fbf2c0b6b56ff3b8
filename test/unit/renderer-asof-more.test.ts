/** Show more's number (asof-count.ts): a page, or what is left to read when less — never more than are left. */
import { describe, expect, it } from 'vitest';
import { asOfMoreCount } from '../../renderer/src/timeline/asof-count';

describe('asOfMoreCount', () => {
  it('is a page when a page or more is left', () => {
    expect(asOfMoreCount({ total: 1_000, loaded: 100 }, 100)).toBe(100);
  });
  it('is what is left to read when less than a page is', () => {
    expect(asOfMoreCount({ total: 170, loaded: 100 }, 100)).toBe(70);
  });
  it('with a filter too, counts the facts left to read for matches', () => {
    expect(asOfMoreCount({ total: 817, loaded: 400 }, 100)).toBe(100);
    expect(asOfMoreCount({ total: 450, loaded: 400 }, 100)).toBe(50);
  });
  it('is never below nothing', () => {
    expect(asOfMoreCount({ total: 100, loaded: 120 }, 100)).toBe(0);
  });
});
