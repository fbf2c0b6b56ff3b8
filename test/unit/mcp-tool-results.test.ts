/**
 * The small parts of the MCP face: `current` on a fact, tool errors that name the argument, the
 * retry of a write that met another process's (SQLITE_BUSY), and times in the user's zone.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api-error';
import type { FactRecord } from '../../shared/memory-schema';
import { MemoryInputError } from '../../electron/memory/index';
import { readTime } from '../../electron/mcp/mcp-times';
import { withOffsetIn } from '../../shared/time-zone';
import { guarded, ok, retryBusy, toolError, withCurrent } from '../../electron/mcp/tool-results';

const fact: FactRecord = {
  id: 'fct_1',
  subject_id: 'ent_me',
  subject: 'me',
  predicate: 'manager',
  object_id: 'ent_a',
  object: 'A',
  fact: 'My manager is A.',
  cardinality: 'one',
  valid_at: '2026-09-01T00:00:00.000Z',
  valid_at_precision: 'day',
  invalid_at: '2026-09-15T00:00:00.000Z',
  invalid_at_precision: 'day',
  created_at: '2026-09-01T00:00:00.000Z',
  expired_at: null,
  episode_ids: [],
  invalidated_by: null,
  supersedes: null,
  origin: 'observed',
};

const text = (result: { content: unknown }) => (result.content as { text: string }[])[0]!.text;

describe('withCurrent', () => {
  it('is true only while the version is held and the fact is true', () => {
    expect(withCurrent(fact, '2026-09-10T00:00:00.000Z').current).toBe(true);
    expect(withCurrent(fact, '2026-09-15T00:00:00.000Z').current).toBe(false); // ends at invalid_at
    expect(withCurrent(fact, '2026-08-31T23:59:59.999Z').current).toBe(false); // not yet true
    expect(withCurrent({ ...fact, expired_at: '2026-09-05T00:00:00.000Z' }, '2026-09-10T00:00:00.000Z').current).toBe(false);
    expect(withCurrent({ ...fact, invalid_at: null, invalid_at_precision: null }, '2030-01-01T00:00:00.000Z').current).toBe(true);
  });
});

describe('tool errors', () => {
  it('name the argument, once', () => {
    expect(toolError(new MemoryInputError('as_of: not a time: "x"', 'as_of'))).toEqual({ content: [{ type: 'text', text: 'as_of: not a time: "x"' }], isError: true });
    expect(text(toolError(new MemoryInputError('must be after valid_at', 'invalid_at')))).toBe('invalid_at: must be after valid_at');
    expect(text(toolError(new MemoryInputError('no fact with id fct_x', 'fact_id', 'not_found')))).toBe('id: no fact with id fct_x');
    expect(text(toolError(new ApiError('invalid_request', 'too long', { field: 'query' })))).toBe('query: too long');
  });

  it('say a busy memory in words, and anything else as a failure', () => {
    expect(text(toolError(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })))).toMatch(/busy with another Tempora process/);
    expect(text(toolError(new Error('boom')))).toBe('Tempora failed: boom');
  });

  it('guarded turns a throw into a tool error and passes a result through', async () => {
    expect((await guarded(() => ok({ n: 1 }, 'one'))).structuredContent).toEqual({ n: 1 });
    expect((await guarded(() => Promise.reject(new MemoryInputError('bad', 'limit')))).isError).toBe(true);
  });
});

describe('retryBusy', () => {
  it('retries a write that met SQLITE_BUSY, and not other errors', async () => {
    let tries = 0;
    const value = await retryBusy(() => {
      if (++tries < 3) throw Object.assign(new Error('database is locked'), { code: tries === 1 ? 'SQLITE_BUSY' : 'SQLITE_BUSY_SNAPSHOT' });
      return 'written';
    });
    expect({ value, tries }).toEqual({ value: 'written', tries: 3 });
    let other = 0;
    await expect(
      retryBusy(() => {
        other++;
        throw new Error('constraint');
      }),
    ).rejects.toThrow('constraint');
    expect(other).toBe(1);
  });
});

describe('times', () => {
  it('reads ISO and phrases for an argument, in the user zone', () => {
    expect(readTime(undefined, 'as_of', '2026-09-10T00:00:00.000Z', 'Asia/Tokyo')).toBeUndefined();
    expect(readTime('2026-09-10T09:00:00+09:00', 'as_of', '2026-09-10T00:00:00.000Z', 'Asia/Tokyo')?.at).toBe('2026-09-10T00:00:00.000Z');
    expect(() => readTime('whenever', 'known_at', '2026-09-10T00:00:00.000Z', 'Asia/Tokyo')).toThrow(/^known_at: not a time/);
  });

  it('writes an instant with the zone offset it had there', () => {
    expect(withOffsetIn('2026-09-01T01:00:00.000Z', 'Asia/Tokyo')).toBe('2026-09-01T10:00:00.000+09:00');
    expect(withOffsetIn('2026-01-15T12:00:00.000Z', 'America/New_York')).toBe('2026-01-15T07:00:00.000-05:00');
  });
});
