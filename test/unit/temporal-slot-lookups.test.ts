/**
 * Writes whose cost does not grow with the slot (issue 14): a claim on a `many` slot reads only the
 * claims about its own object, by index, and the same answers come out as when the slot is read whole.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { databaseOf, storeOf } from '../../electron/memory/memory';

const fresh = () => openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00Z') });
const like = (object: string, day: number, extra: Record<string, unknown> = {}) => ({
  subject: 'me', predicate: 'likes', object, object_type: 'literal', fact: `I like ${object}.`, reference_time: `2026-09-${String(day).padStart(2, '0')}T00:00:00Z`, ...extra,
});

describe('claims by object', () => {
  it('the lookups a many-slot write makes are index searches, not scans', () => {
    const db = databaseOf(fresh());
    const plan = (sql: string) => db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all().map((r) => (r as { detail: string }).detail).join(' | ');
    expect(plan("SELECT id FROM claims WHERE subject_id = 's' AND predicate = 'p' AND object_key = 'k'")).toMatch(/SEARCH claims USING (COVERING )?INDEX claims_by_object \(subject_id=\? AND predicate=\? AND object_key=\?\)/);
    expect(plan("SELECT 1 FROM claims WHERE subject_id = 's' AND predicate = 'p' AND cardinality = 'one' LIMIT 1")).toMatch(/INDEX claims_one_by_slot/);
    expect(plan("SELECT id FROM facts WHERE id IN (SELECT value FROM json_each('[]'))")).toMatch(/SEARCH facts USING (COVERING )?INDEX sqlite_autoindex_facts_1 \(id=\?\)/);
  });

  it('a write reads the claims of its own object only', () => {
    const m = fresh();
    m.observe(Array.from({ length: 50 }, (_, i) => like(`thing ${i}`, 1 + (i % 20))));
    const claims = storeOf(m).claims;
    const read: number[] = [];
    const original = claims.inSlotAbout.bind(claims);
    claims.inSlotAbout = (s, p, keys) => {
      const rows = original(s, p, keys);
      read.push(rows.length);
      return rows;
    };
    const whole = claims.inSlot.bind(claims);
    let wholeReads = 0;
    claims.inSlot = (s, p) => (wholeReads++, whole(s, p));
    m.observe([like('Thing 7', 25)]); // the same literal, written differently
    expect(read).toEqual([1]);
    expect(wholeReads).toBe(0);
    expect(m.listFacts({ predicate: 'likes' }).filter((f) => f.object.toLowerCase() === 'thing 7')).toHaveLength(1);
  });

  it('a one-valued claim in the slot makes it one slot again: the whole slot is read', () => {
    const m = fresh();
    m.observe([like('tea', 1), like('coffee', 2)]);
    m.observe([like('cake', 3, { cardinality: 'one' })]);
    expect(m.listFacts({ predicate: 'likes' }).map((f) => f.object)).toEqual(['cake']);
    m.observe([like('juice', 4)]);
    expect(m.listFacts({ predicate: 'likes' }).map((f) => f.object)).toEqual(['juice']);
  });
});
