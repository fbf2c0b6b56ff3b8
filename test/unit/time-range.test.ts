/**
 * No time outside 0000-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z (UTC) is ever stored: every
 * edge refuses it with an error that names the value, and writes nothing. Inside the range, any store
 * exports a document that imports into an empty store giving the same facts (a backup restores).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { apiCalls } from '../../shared/api-contract';
import { isExportDocument } from '../../shared/export-check';
import { readTimeInput } from '../../electron/assistant/time-input';
import { isoTime, memoryExport, type MemoryExport } from '../../shared/memory-schema';
import { isIsoUtc, MAX_ISO_TIME, MIN_ISO_TIME, toIsoUtc, type IsoTime } from '../../shared/time';

const BEFORE = '0000-01-01T00:00:00+01:00'; // 23:00 UTC on 31 December of year -1
const AFTER = '9999-12-31T23:30:00-01:00'; // 00:30 UTC on 1 January 10000
const STORED_BEFORE = '-000001-12-31T23:00:00.000Z';
const STORED_AFTER = '+010000-01-01T00:30:00.000Z';

function fresh(start: IsoTime = '2026-10-01T00:00:00.000Z'): Memory {
  return openMemory({ dataDir: ':memory:', clock: steppingClock(start, 1000) });
}

/** What a memory holds, as its export says, without the export time. */
function content(m: Memory): Omit<MemoryExport, 'exported_at'> {
  const { exported_at: _, ...rest } = m.transfer.export();
  return rest;
}

const observation = (fields: Record<string, unknown>) => ({ subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-01T00:00:00Z', cardinality: 'one', ...fields });

describe('toIsoUtc refuses a time whose UTC instant is outside years 0000–9999', () => {
  it('names the value and the limit', () => {
    expect(() => toIsoUtc(BEFORE)).toThrow(`out of range: "${BEFORE}" is before 0000-01-01T00:00:00.000Z UTC`);
    expect(() => toIsoUtc(AFTER)).toThrow(`out of range: "${AFTER}" is after 9999-12-31T23:59:59.999Z UTC`);
    expect(() => toIsoUtc('0000-01-01T00:59:59.999+01:00')).toThrow(RangeError);
    expect(() => toIsoUtc('9999-12-31T23:59:59-00:01')).toThrow(/out of range/);
  });

  it('keeps the limits themselves, however they are written', () => {
    expect(toIsoUtc('0000-01-01')).toBe(MIN_ISO_TIME);
    expect(toIsoUtc('0000-01-01T01:00:00+01:00')).toBe(MIN_ISO_TIME);
    expect(toIsoUtc('9999-12-31T23:59:59.999Z')).toBe(MAX_ISO_TIME);
    expect(toIsoUtc('9999-12-31T22:59:59.999-01:00')).toBe(MAX_ISO_TIME);
  });

  it('never returns what isIsoUtc refuses', () => {
    const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
    const zone = fc.oneof(fc.constant('Z'), fc.constant(''), fc.tuple(fc.constantFrom('+', '-'), two(14), two(59)).map(([s, h, m]) => `${s}${h}:${m}`));
    const year = fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1, 9998, 9999));
    const input = fc.tuple(year, two(12), two(31), two(23), two(59), two(59), zone).map(([y, mo, d, h, mi, s, z]) => `${String(y).padStart(4, '0')}-${mo}-${d}T${h}:${mi}:${s}${z}`);
    fc.assert(
      fc.property(input, (text) => {
        let out: string;
        try {
          out = toIsoUtc(text);
        } catch {
          return true;
        }
        return isIsoUtc(out) && out >= MIN_ISO_TIME && out <= MAX_ISO_TIME;
      }),
      { numRuns: 3000 },
    );
  });
});

describe('every edge refuses an out-of-range time and writes nothing', () => {
  it('observe: reference_time, valid_at and invalid_at', () => {
    const m = fresh();
    try {
      m.facts.observe([observation({})]);
      const before = content(m);
      expect(() => m.facts.observe([observation({ object: 'Osaka', reference_time: BEFORE })])).toThrow(`input:1: reference_time: out of range: "${BEFORE}" is before ${MIN_ISO_TIME} UTC`);
      expect(() => m.facts.observe([observation({ object: 'Osaka', valid_at: BEFORE })])).toThrow(/^input:1: valid_at: out of range: "0000-01-01T00:00:00\+01:00" is before/);
      expect(() => m.facts.observe([observation({ object: 'Osaka' }), observation({ object: 'Nara', invalid_at: AFTER })])).toThrow(`input:2: invalid_at: out of range: "${AFTER}" is after ${MAX_ISO_TIME} UTC`);
      expect(content(m)).toEqual(before);
    } finally {
      m.close();
    }
  });

  it('appendMessage: the message time', () => {
    const m = fresh();
    try {
      const before = content(m);
      expect(() => m.messages.append({ role: 'user', content: 'hello', time: BEFORE, learn: false })).toThrow(`time: out of range: "${BEFORE}" is before ${MIN_ISO_TIME} UTC`);
      expect(() => m.messages.append({ role: 'user', content: 'hello', time: AFTER, learn: false })).toThrow(/^time: out of range: .* is after/);
      expect(content(m)).toEqual(before);
    } finally {
      m.close();
    }
  });

  it('import: a document holding a six-digit year (what such a time was stored as) is refused, naming it', () => {
    const source = fresh();
    const doc = (() => {
      try {
        source.facts.observe([observation({})]);
        return JSON.parse(JSON.stringify(source.transfer.export())) as MemoryExport;
      } finally {
        source.close();
      }
    })();
    for (const [field, value] of [['valid_at', STORED_BEFORE], ['invalid_at', STORED_AFTER], ['created_at', STORED_BEFORE]] as const) {
      const bad = structuredClone(doc);
      (bad.facts[0] as Record<string, unknown>)[field] = value;
      expect(isExportDocument(bad)).toBe(false);
      expect(memoryExport.safeParse(bad).success).toBe(false);
      for (const target of [fresh(), (() => { const used = fresh(); used.facts.observe([observation({ subject: 'Q', object: 'Osaka' })]); return used; })()]) {
        try {
          const before = content(target);
          expect(() => target.transfer.import(bad)).toThrow(`not a valid Tempora export: facts.0.${field}: must be an ISO-8601 UTC time with milliseconds from ${MIN_ISO_TIME} to ${MAX_ISO_TIME}: ${JSON.stringify(value)} is out of range`);
          expect(content(target)).toEqual(before);
        } finally {
          target.close();
        }
      }
    }
    const badEpisode = structuredClone(doc);
    badEpisode.episodes[0]!.reference_time = STORED_AFTER;
    const target = fresh();
    try {
      expect(() => target.transfer.import(badEpisode)).toThrow(/episodes\.0\.reference_time: .* is out of range/);
      expect(content(target).facts).toEqual([]);
    } finally {
      target.close();
    }
  });

  it('the API: every time in a request is an isoTime, which refuses six-digit years with a message naming them', () => {
    for (const value of [STORED_BEFORE, STORED_AFTER]) {
      const parsed = isoTime.safeParse(value);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(`must be an ISO-8601 UTC time with milliseconds from ${MIN_ISO_TIME} to ${MAX_ISO_TIME}: ${JSON.stringify(value)} is out of range`);
      expect(apiCalls.listFacts.request.safeParse({ asOf: value }).success).toBe(false);
      expect(apiCalls.search.request.safeParse({ query: 'x', knownAt: value }).success).toBe(false);
      // The forms take what a person types (a phrase or ISO): the engine reads it, and refuses these.
      expect(() => readTimeInput(value, 'valid_at', '2026-09-01T00:00:00.000Z', 'UTC')).toThrow(/^valid_at: not a time: /);
    }
    expect(isoTime.safeParse(MIN_ISO_TIME).success).toBe(true);
    expect(isoTime.safeParse(MAX_ISO_TIME).success).toBe(true);
    // The old wording stays for what is not a time at all.
    expect(isoTime.safeParse('yesterday').error?.issues[0]?.message).toMatch(/^must be an ISO-8601 UTC time with milliseconds, like /);
  });
});

// ---------- the property: an in-range store's export re-imports to the same facts ----------

const MIN_MS = Date.parse(MIN_ISO_TIME);
const MAX_MS = Date.parse(MAX_ISO_TIME);

/** An accepted time: any instant of the range (the limits often), written with a zone offset when it can be. */
const inRangeTime = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: fc.integer({ min: MIN_MS, max: MAX_MS }) }, { weight: 1, arbitrary: fc.constantFrom(MIN_MS, MAX_MS, MIN_MS + 3_600_000, MAX_MS - 3_600_000, Date.parse('2026-09-01T00:00:00Z')) }),
    fc.integer({ min: -14 * 60, max: 14 * 60 }),
  )
  .map(([ms, offset]) => {
    const wall = ms + offset * 60_000;
    if (wall < MIN_MS || wall > MAX_MS || offset === 0) return new Date(ms).toISOString();
    const sign = offset > 0 ? '+' : '-';
    const abs = Math.abs(offset);
    return `${new Date(wall).toISOString().slice(0, -1)}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  });

const observationArb = fc.record({
  subject: fc.constantFrom('me', 'Aさん', 'Bob'),
  predicate: fc.constantFrom('manager', 'likes'),
  object: fc.constantFrom('X', 'Y', 'Z'),
  object_type: fc.constantFrom('entity', 'literal'),
  reference_time: inRangeTime,
  valid_at: fc.option(inRangeTime, { nil: undefined }),
  invalid_at: fc.option(inRangeTime, { nil: undefined }),
  cardinality: fc.constantFrom('one', 'many'),
});

describe('a store built from in-range inputs', () => {
  it('exports a document that imports into an empty store giving the same facts', () => {
    fc.assert(
      fc.property(fc.array(observationArb, { minLength: 1, maxLength: 12 }), (inputs) => {
        const source = fresh();
        const target = fresh('2027-01-01T00:00:00.000Z');
        try {
          for (const input of inputs) {
            try {
              source.facts.observe([{ ...input, fact: `${input.subject} ${input.predicate} ${input.object}.` }]);
            } catch {
              // refused whole (an end not after its start): nothing was written
            }
          }
          const doc = JSON.parse(JSON.stringify(source.transfer.export())) as MemoryExport;
          expect(isExportDocument(doc)).toBe(true);
          target.transfer.import(doc);
          expect(content(target)).toEqual(content(source));
        } finally {
          source.close();
          target.close();
        }
      }),
      { numRuns: 80 },
    );
  });
});
