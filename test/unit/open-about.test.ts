/**
 * A subject's open facts, the candidates every learned message's judgement reads: the live versions
 * not yet ended, latest first, with their object's name — and read from the index that holds each
 * version's end, so a long life's closed facts cost no table row.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';
import { toIsoUtc } from '../../shared/time';

const day = (d: number) => toIsoUtc(`2026-${String(1 + Math.floor(d / 28)).padStart(2, '0')}-${String(1 + (d % 28)).padStart(2, '0')}T00:00:00.000Z`);

function lifeOfChanges() {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z', 1000) });
  // Twenty homes, one after another: nineteen closed by the next, the last open.
  for (let i = 0; i < 20; i++) m.facts.observe([{ subject: 'me', predicate: 'lives in', object: `Town ${i}`, object_type: 'literal', fact: `I live in Town ${i}.`, reference_time: day(i * 3), cardinality: 'one' }]);
  // Things liked (a many slot, all open), two said on the same day, and one ended by a stated end.
  m.facts.observe([
    { subject: 'me', predicate: 'likes', object: 'Tea', object_type: 'entity', fact: 'I like tea.', reference_time: day(10) },
    { subject: 'me', predicate: 'likes', object: 'cycling', object_type: 'literal', fact: 'I like cycling.', reference_time: day(70) },
    { subject: 'me', predicate: 'likes', object: 'chess', object_type: 'literal', fact: 'I like chess.', reference_time: day(70) },
    { subject: 'me', predicate: 'likes', object: 'opera', object_type: 'literal', fact: 'I liked opera until spring.', reference_time: day(5), invalid_at: day(40) },
  ]);
  // Another subject's open fact, never among mine.
  m.facts.observe([{ subject: 'Sato', predicate: 'likes', object: 'golf', object_type: 'literal', fact: 'Sato likes golf.', reference_time: day(80) }]);
  // A correction replaces a version: the replaced one is not live.
  const tea = m.facts.list({ predicate: 'likes' }).find((f) => f.object === 'Tea')!;
  m.facts.edit(tea.id, { valid_at: day(12) });
  return m;
}

describe('a subject’s open facts', () => {
  it('are the live versions not ended, latest first (ties newest written first), with their objects’ names', () => {
    const m = lifeOfChanges();
    const me = m.facts.list({ predicate: 'lives in' })[0]!.subject_id;
    const open = m.facts.openAbout(me);
    expect(open.map((f) => [f.predicate, f.object, f.valid_at.slice(0, 10)])).toEqual([
      ['likes', 'chess', '2026-03-15'],
      ['likes', 'cycling', '2026-03-15'],
      ['lives_in', 'Town 19', '2026-03-02'],
      ['likes', 'Tea', '2026-01-13'],
    ]);
    expect(open.every((f) => f.expired_at === null && f.invalid_at === null)).toBe(true);
    // The limit takes the latest.
    expect(m.facts.openAbout(me, 2).map((f) => f.object)).toEqual(['chess', 'cycling']);
    expect(m.facts.openAbout(me, 0)).toEqual([]);
  });

  it('are chosen inside the index that holds each version’s end: only the rows returned are read', () => {
    const m = lifeOfChanges();
    const me = m.facts.list({ predicate: 'lives in' })[0]!.subject_id;
    const plans = plansOf(databaseOf(m), () => m.facts.openAbout(me));
    const lines = plans.flatMap((p) => p.plan);
    expect(lines).toContain('SEARCH facts USING COVERING INDEX facts_live_by_slot_time (subject_id=?)');
    expect(lines).toContain('SEARCH f USING INTEGER PRIMARY KEY (rowid=?)');
  });
});
