/**
 * Times that reach memory are a checked type (issue 26, item 3): IsoTime is a template literal, so
 * the compiler refuses plain text, a date-only string, a time without milliseconds and a string of
 * unknown origin at memory's doors; a time is made by a checked producer or written out in full.
 *
 * The `@ts-expect-error` lines are the test at compile time (`npm run typecheck`, part of
 * `npm test`): were IsoTime any string again, each would be an unused directive and fail the check.
 * The runtime half pins the producers' refusals in words.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { isIsoUtc, isoFromDate, isoFromMs, isoTimeOf, MAX_ISO_TIME, MIN_ISO_TIME, nowIso, toIsoUtc, type IsoTime } from '../../shared/time';

let memory: Memory | null = null;
afterEach(() => {
  memory?.close();
  memory = null;
});

function fresh(): Memory {
  memory = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z', 1000) });
  memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'Aiko', fact: 'My manager is Aiko.', reference_time: '2026-09-01T00:00:00.000Z', cardinality: 'one' }]);
  return memory;
}

describe('IsoTime at compile time', () => {
  it('accepts a canonical literal and what the producers make', () => {
    const written: IsoTime = '2026-09-01T00:00:00.000Z';
    const made: IsoTime[] = [toIsoUtc('2026-09-01'), isoFromMs(0), isoFromDate(new Date(0)), nowIso(), isoTimeOf('2026-09-01T00:00:00.000Z'), MIN_ISO_TIME, MAX_ISO_TIME];
    const text: string = '2026-09-01T00:00:00.000Z';
    const guarded: IsoTime | null = isIsoUtc(text) ? text : null;
    expect([written, ...made, guarded].every((t) => t !== null && isIsoUtc(t))).toBe(true);
  });

  it("refuses plain text at memory's doors", () => {
    const m = fresh();
    const fact = m.facts.list()[0]!;
    const typed: string = '2026-09-10T00:00:00.000Z';
    // Memory trusts its types (the faces check what arrives with zod): these calls are the test at
    // compile time and are never made.
    const refused = () => [
      // @ts-expect-error: a string of unknown origin is not a time
      m.facts.list({ asOf: typed }),
      // @ts-expect-error: date-only text is not a stored time
      m.facts.close(fact.id, '2026-09-20'),
      // @ts-expect-error: a time without milliseconds sorts after every millisecond of its second
      m.facts.list({ knownAt: '2026-10-02T00:00:00Z' }),
      // @ts-expect-error: words are read by the time resolver, never taken as a time
      m.facts.page({ asOf: 'yesterday' }),
      // @ts-expect-error: Date#toISOString is not a checked producer (it writes signed six-digit years)
      m.facts.list({ overlapping: { from: new Date(0).toISOString(), to: '9999-12-31T23:59:59.999Z' } }),
    ];
    expect(refused).toBeTypeOf('function');
    // The same times through a producer are taken.
    expect(m.facts.list({ asOf: isoTimeOf(typed) }).map((f) => f.object)).toEqual(['Aiko']);
    expect(m.facts.list({ knownAt: toIsoUtc('2026-10-02T00:00:00Z') }).map((f) => f.object)).toEqual(['Aiko']);
    expect(m.facts.list({ knownAt: toIsoUtc('2026-09-30') })).toEqual([]);
  });

  it('refuses a variable typed as any string, however it was made', () => {
    const at = (day: string) => `2026-09-${day}T00:00:00.000Z`;
    // @ts-expect-error: built from parts without a producer
    const time: IsoTime = at('10');
    expect(isIsoUtc(time)).toBe(true);
  });
});

describe('the producers at run time', () => {
  it('isoTimeOf takes stored text as it is and refuses anything else in words', () => {
    expect(isoTimeOf('2026-09-01T00:00:00.000Z')).toBe('2026-09-01T00:00:00.000Z');
    expect(() => isoTimeOf('2026-09-01T00:00:00Z', 'last sync')).toThrow('last sync: "2026-09-01T00:00:00Z" is not a stored time (like 2026-09-01T01:00:00.000Z)');
    expect(() => isoTimeOf('2026-02-30T00:00:00.000Z')).toThrow(/^time: "2026-02-30T00:00:00.000Z" is not a stored time/);
    expect(() => isoTimeOf('')).toThrow(/is not a stored time/);
  });

  it('toIsoUtc and isoFromMs write the canonical form or refuse', () => {
    expect(toIsoUtc('2026-09-01T09:00:00+09:00')).toBe('2026-09-01T00:00:00.000Z');
    expect(isoFromMs(Date.UTC(2026, 8, 1))).toBe('2026-09-01T00:00:00.000Z');
    expect(() => isoFromMs(Date.UTC(10_000, 0, 1))).toThrow(/out of range/);
    expect(() => toIsoUtc('yesterday')).toThrow(/not an ISO-8601 date or time/);
  });
});
