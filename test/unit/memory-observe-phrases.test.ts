import { describe, expect, it } from 'vitest';
import { MemoryInputError, openMemory, steppingClock } from '../../electron/memory/index';

const base = { subject: 'me', predicate: 'works_in', object: 'Tokyo', fact: 'I work in Tokyo.', cardinality: 'one' as const };
const open = () => openMemory({ dataDir: ':memory:', clock: steppingClock('2026-11-01T00:00:00.000Z') });

describe('observe: valid_at / invalid_at written as phrases', () => {
  it("resolves a phrase against the line's reference_time in that time's own offset", () => {
    const m = open();
    m.facts.observe([
      { ...base, reference_time: '2026-09-01T08:00:00+09:00', valid_at: '9月1日' },
      { ...base, predicate: 'studies', object: 'piano', object_type: 'literal', reference_time: '2026-09-15T12:00:00Z', valid_at: 'last March', invalid_at: 'yesterday' },
      { ...base, predicate: 'lives_in', object: 'Berlin', reference_time: '2026-10-26T10:00:00+01:00', valid_at: '先週' },
    ]);
    const facts = m.facts.list({ history: true });
    const of = (object: string) => facts.find((f) => f.object === object)!;
    expect(of('Tokyo').valid_at).toBe('2026-08-31T15:00:00.000Z');
    expect([of('piano').valid_at, of('piano').invalid_at]).toEqual(['2026-03-01T00:00:00.000Z', '2026-09-14T00:00:00.000Z']);
    // Monday 19 October, midnight at +01:00 (a fixed offset: the one written)
    expect(of('Berlin').valid_at).toBe('2026-10-18T23:00:00.000Z');
  });

  it('reads a date or wall time without a zone in the zone of the line (a date: that day, precision day)', () => {
    const m = open();
    m.facts.observe([{ ...base, reference_time: '2026-09-01T08:00:00+09:00', valid_at: '2026-09-01' }]);
    expect(m.facts.list()[0]).toMatchObject({ valid_at: '2026-08-31T15:00:00.000Z', valid_at_precision: 'day' });
    const n = open();
    n.facts.observe([{ ...base, reference_time: '2026-09-01T08:00:00+09:00', valid_at: '2026-09-01T07:30' }]);
    expect(n.facts.list()[0]).toMatchObject({ valid_at: '2026-08-31T22:30:00.000Z', valid_at_precision: 'instant' });
    const utc = open();
    utc.facts.observe([{ ...base, reference_time: '2026-09-01T08:00:00Z', valid_at: '2026-09-01' }]);
    expect(utc.facts.list()[0]).toMatchObject({ valid_at: '2026-09-01T00:00:00.000Z', valid_at_precision: 'day' });
  });

  it('keeps an ISO time with its zone as that instant', () => {
    const m = open();
    m.facts.observe([{ ...base, reference_time: '2026-09-01T08:00:00+09:00', valid_at: '2026-09-01T00:00:00Z' }]);
    expect(m.facts.list()[0]).toMatchObject({ valid_at: '2026-09-01T00:00:00.000Z', valid_at_precision: 'instant' });
  });

  it('refuses a phrase it cannot read, naming the file, line and field', () => {
    const m = open();
    const lines = [
      { ...base, reference_time: '2026-09-01T08:00:00+09:00' },
      { ...base, reference_time: '2026-09-01T08:00:00+09:00', invalid_at: 'when pigs fly' },
    ];
    expect(() => m.facts.observe(lines, { where: 'facts.jsonl' })).toThrow(MemoryInputError);
    expect(() => m.facts.observe(lines, { where: 'facts.jsonl' })).toThrow(/^facts\.jsonl:2: invalid_at: not a time: "when pigs fly"/);
    expect(m.facts.list()).toEqual([]);
  });

  it('reads an end phrase as still to come where the past one is not after the start', () => {
    const m = open();
    m.facts.observe([
      // written in June: last November would end before it began, so this November; last March does not
      { ...base, reference_time: '2026-06-15T10:00:00+09:00', invalid_at: 'November' },
      { ...base, predicate: 'studies', object: 'piano', object_type: 'literal', reference_time: '2026-06-15T10:00:00+09:00', valid_at: '2025-01-01', invalid_at: '3月' },
      { ...base, predicate: 'rents', object: 'flat', object_type: 'literal', reference_time: '2026-06-15T10:00:00+09:00', valid_at: '6月1日', invalid_at: '金曜日' },
      // the year said, still to come; and "this month", under way
      { ...base, predicate: 'plays', object: 'tennis', object_type: 'literal', reference_time: '2026-06-15T10:00:00+09:00', invalid_at: '2027年3月まで' },
      { ...base, predicate: 'visits', object: 'Osaka', reference_time: '2026-06-15T10:00:00+09:00', invalid_at: '今月まで' },
    ]);
    const facts = m.facts.list({ history: true });
    const of = (object: string) => facts.find((f) => f.object === object)!;
    // still to come: held through the period it names, to its last instant in Tokyo (read as "November")
    expect([of('Tokyo').invalid_at, of('Tokyo').invalid_at_precision]).toEqual(['2026-11-30T14:59:59.999Z', 'month']);
    expect([of('tennis').invalid_at, of('tennis').invalid_at_precision]).toEqual(['2027-03-31T14:59:59.999Z', 'month']);
    expect([of('Osaka').invalid_at, of('Osaka').invalid_at_precision]).toEqual(['2026-06-30T14:59:59.999Z', 'month']);
    // over: at the start of the period, as read
    expect(of('piano').invalid_at).toBe('2026-02-28T15:00:00.000Z');
    // Friday 12 June is after the start (1 June): said of the past, it stays last Friday
    expect(of('flat').invalid_at).toBe('2026-06-11T15:00:00.000Z');
  });

  it('checks the interval once the phrases are resolved', () => {
    const m = open();
    const line = { ...base, reference_time: '2026-09-15T12:00:00Z', valid_at: 'yesterday', invalid_at: 'last week' };
    expect(() => m.facts.observe([line], { where: 'facts.jsonl' })).toThrow(/^facts\.jsonl:1: invalid_at: must be after valid_at \(14 Sept 2026, in UTC\)$/);
    expect(() => m.facts.observe([{ ...base, reference_time: '2026-09-15T12:00:00Z', invalid_at: '先月' }], { where: 'f.jsonl' })).toThrow(/^f\.jsonl:1: invalid_at: must be after valid_at \(15 Sept 2026, 12:00, in UTC, taken from reference_time\)$/);
  });
});

describe('observe: names and sentences that show as nothing', () => {
  it('refuses a subject, predicate, object or fact of only invisible characters, naming the line and field', () => {
    const m = open();
    const line = { ...base, reference_time: '2026-09-01T08:00:00+09:00' };
    expect(() => m.facts.observe([line, { ...line, subject: '\u200B' }], { where: 'facts.jsonl' })).toThrow(/^facts\.jsonl:2: subject: holds only invisible characters/);
    expect(() => m.facts.observe([{ ...line, object: '\u0000' }], { where: 'facts.jsonl' })).toThrow(/^facts\.jsonl:1: object: holds only invisible characters/);
    expect(() => m.facts.observe([{ ...line, fact: '\u2060\uFEFF\u200D' }], { where: 'facts.jsonl' })).toThrow(/fact: holds only invisible characters/);
    expect(m.facts.list({ history: true })).toEqual([]);
    // A name with a joiner inside it is a name (👩‍💻, Persian with U+200C).
    m.facts.observe([{ ...line, object: 'کتاب\u200Cها' }]);
    expect(m.facts.list()).toHaveLength(1);
  });
});
