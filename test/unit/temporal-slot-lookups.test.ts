/**
 * Writes whose cost does not grow with the slot (issue 14): a claim on a `many` slot reads only the
 * claims about its own object, by index, and the same answers come out as when the slot is read whole.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { databaseOf, storeOf } from '../../electron/memory/memory';

const fresh = () => openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') });
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
    m.facts.observe(Array.from({ length: 50 }, (_, i) => like(`thing ${i}`, 1 + (i % 20))));
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
    m.facts.observe([like('Thing 7', 25)]); // the same literal, written differently
    expect(read).toEqual([1]);
    expect(wholeReads).toBe(0);
    expect(m.facts.list({ predicate: 'likes' }).filter((f) => f.object.toLowerCase() === 'thing 7')).toHaveLength(1);
  });

  it('a one-valued claim in the slot makes it one slot again: the whole slot is read', () => {
    const m = fresh();
    m.facts.observe([like('tea', 1), like('coffee', 2)]);
    m.facts.observe([like('cake', 3, { cardinality: 'one' })]);
    expect(m.facts.list({ predicate: 'likes' }).map((f) => f.object)).toEqual(['cake']);
    m.facts.observe([like('juice', 4)]);
    expect(m.facts.list({ predicate: 'likes' }).map((f) => f.object)).toEqual(['juice']);
  });
});

describe('a one-valued slot told something later than all it holds', () => {
  const status = (object: string, day: number, extra: Record<string, unknown> = {}) => ({
    subject: 'me', predicate: 'status', object, object_type: 'literal', cardinality: 'one', fact: `Status ${object}.`, reference_time: `2026-09-${String(day).padStart(2, '0')}T00:00:00Z`, ...extra,
  });
  const live = (m: ReturnType<typeof fresh>) =>
    m.facts.list({ history: true }).filter((f) => f.expired_at === null).map((f) => [f.object, f.valid_at.slice(0, 10), f.invalid_at?.slice(0, 10) ?? null, f.invalidated_by === null ? null : m.facts.get(f.invalidated_by)!.object]);

  it('reads only its latest facts, and answers as a reading of the whole slot does', () => {
    // Two values said for the 5th (the earlier-said one is [5, 5)), a stated end, a gap, a merge.
    const lines = [status('A', 1), status('B', 5, { reference_time: '2026-09-05T01:00:00Z', valid_at: '2026-09-05T00:00:00Z' }), status('C', 5, { reference_time: '2026-09-05T02:00:00Z', valid_at: '2026-09-05T00:00:00Z' }), status('D', 8, { invalid_at: '2026-09-10T00:00:00Z' }), status('D', 12), status('E', 20)];
    const stepwise = fresh();
    const reads: number[] = [];
    const claims = storeOf(stepwise).claims;
    const whole = claims.inSlot.bind(claims);
    claims.inSlot = (s, p) => {
      const rows = whole(s, p);
      reads.push(rows.length);
      return rows;
    };
    for (const l of lines) stepwise.facts.observe([l]);
    // Out of order: every line before the last is said after a later one, so the whole slot is read.
    const reference = fresh();
    for (const l of [...lines].reverse()) reference.facts.observe([l]);
    const sorted = (m: ReturnType<typeof fresh>) => live(m).sort((a, b) => `${a[1]}${a[2]}`.localeCompare(`${b[1]}${b[2]}`));
    expect(sorted(stepwise)).toEqual(sorted(reference));
    expect(sorted(stepwise)).toEqual([
      ['A', '2026-09-01', '2026-09-05', 'B'],
      ['B', '2026-09-05', '2026-09-05', 'C'],
      ['C', '2026-09-05', '2026-09-08', 'D'],
      ['D', '2026-09-08', '2026-09-10', null],
      ['D', '2026-09-12', '2026-09-20', 'E'],
      ['E', '2026-09-20', null, null],
    ]);
    // Only the first line (an empty slot, not yet one-valued) reads the whole slot; the tie at the
    // 5th (C said for the same valid_at as B) reads from the latest claim before it (A) on.
    expect(reads).toEqual([0]);
  });
});

describe('a one-valued slot told something late', () => {
  const status = (object: string, day: number) => ({
    subject: 'me', predicate: 'status', object, object_type: 'literal', cardinality: 'one', fact: `Status ${object}.`, reference_time: new Date(Date.UTC(2026, 0, day)).toISOString(),
  });
  const live = (m: ReturnType<typeof fresh>) =>
    m.facts.list({ history: true }).filter((f) => f.expired_at === null).map((f) => [f.object, f.valid_at, f.invalid_at, f.invalidated_by === null ? null : m.facts.get(f.invalidated_by)!.object]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  it('reads the facts from the latest claim before it on, and answers as a reading of the whole slot does', () => {
    const lines = Array.from({ length: 40 }, (_, i) => status(`v${i % 3}`, 1 + i * 2));
    const late = [status('late', 60), status('v1', 62), status('v0', 1), status('v2', 79)];
    const stepwise = fresh();
    const claims = storeOf(stepwise).claims;
    const whole = claims.inSlot.bind(claims);
    const window = claims.fromLatestBefore.bind(claims);
    const reads: number[] = [];
    const windows: number[] = [];
    claims.inSlot = (s, p) => {
      const rows = whole(s, p);
      reads.push(rows.length);
      return rows;
    };
    claims.fromLatestBefore = (s, p, t) => {
      const rows = window(s, p, t);
      windows.push(rows?.length ?? -1);
      return rows;
    };
    for (const l of lines) stepwise.facts.observe([l]);
    for (const l of late) stepwise.facts.observe([l]);
    // One policy for every one-valued write: each line after the first (said later than all) meets
    // the latest fact's one claim. Each value is its own fact (the next one differs): a late claim on
    // the 60th meets the claims from the 59th on (11), one on the 62nd those from the 61st (10), one
    // on the 1st, before everything, the whole slot (42), one on the 79th (the latest's time) those
    // from the 77th (2).
    expect(windows).toEqual([...Array<number>(39).fill(1), 11, 10, -1, 2]);
    expect(reads).toEqual([0, 42]);
    // The same writes with every late one reading the whole slot.
    const reference = fresh();
    storeOf(reference).claims.fromLatestBefore = () => undefined;
    for (const l of [...lines, ...late]) reference.facts.observe([l]);
    expect(live(stepwise)).toEqual(live(reference));
    expect(live(stepwise).find((f) => f[0] === 'late')).toEqual(['late', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z', 'v0']);
  });
});
