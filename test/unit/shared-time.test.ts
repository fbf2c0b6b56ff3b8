import { describe, expect, it } from 'vitest';
import { intervalContains, intervalsOverlap, isIsoUtc, toIsoUtc } from '../../shared/time';

describe('time', () => {
  it('canonicalises ISO input to UTC with milliseconds, reading a missing zone as UTC', () => {
    expect(toIsoUtc('2026-09-01T10:00:00+09:00')).toBe('2026-09-01T01:00:00.000Z');
    expect(toIsoUtc('2026-09-01')).toBe('2026-09-01T00:00:00.000Z');
    expect(toIsoUtc('2026-09-01T10:00')).toBe('2026-09-01T10:00:00.000Z');
    expect(() => toIsoUtc('2026-02-30')).toThrow(/impossible date/);
    expect(() => toIsoUtc('yesterday')).toThrow(/not an ISO-8601/);
  });

  it('accepts only canonical UTC instants that exist', () => {
    expect(isIsoUtc('2026-09-01T01:00:00.000Z')).toBe(true);
    expect(isIsoUtc('2024-02-29T00:00:00.000Z')).toBe(true);
    expect(isIsoUtc('2026-02-29T00:00:00.000Z')).toBe(false);
    expect(isIsoUtc('2026-02-30T01:00:00.000Z')).toBe(false);
    expect(isIsoUtc('2026-04-31T01:00:00.000Z')).toBe(false);
    expect(isIsoUtc('2026-09-01T24:00:00.000Z')).toBe(false);
    expect(isIsoUtc('2026-09-01T01:00:00Z')).toBe(false);
    expect(isIsoUtc('2026-09-01')).toBe(false);
  });

  it('treats intervals as half-open', () => {
    const i = { from: '2026-09-01T00:00:00.000Z', until: '2026-09-15T00:00:00.000Z' };
    expect(intervalContains(i, '2026-09-01T00:00:00.000Z')).toBe(true);
    expect(intervalContains(i, '2026-09-15T00:00:00.000Z')).toBe(false);
    expect(intervalsOverlap(i, { from: '2026-09-15T00:00:00.000Z', until: null })).toBe(false);
    expect(intervalsOverlap(i, { from: '2026-09-14T00:00:00.000Z', until: null })).toBe(true);
  });
});
