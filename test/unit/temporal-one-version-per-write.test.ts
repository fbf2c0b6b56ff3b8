/**
 * One version per fact per write (issue 12): a write that resolves a slot many times (the lines of
 * one observe file, the contradictions of one message) records only the difference between the
 * memory before it and after it. No version is both created and expired by the same write, and
 * every pointer (supersedes, invalidated_by, lineage, judged ends) names a version that exists.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';

const fresh = (): Memory => openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') });

const line = (object: string, day: string, extra: Record<string, unknown> = {}) => ({
  subject: 'me',
  predicate: 'manager',
  object,
  fact: `My manager is ${object}.`,
  reference_time: `2026-09-${day}T00:00:00Z`,
  cardinality: 'one',
  ...extra,
});

interface Row {
  id: string;
  lineage_id: string;
  supersedes: string | null;
  invalidated_by: string | null;
  expired_at: string | null;
}

const rows = (m: Memory) => databaseOf(m).prepare<[], Row>('SELECT id, lineage_id, supersedes, invalidated_by, expired_at FROM facts').all();

/** Every pointer names a stored version; a chain's lineage is the id of one of its versions. */
function expectPointersHold(m: Memory): void {
  const all = rows(m);
  const ids = new Set(all.map((r) => r.id));
  for (const r of all) {
    if (r.supersedes !== null) expect(ids.has(r.supersedes), `${r.id} supersedes ${r.supersedes}`).toBe(true);
    if (r.invalidated_by !== null) expect(ids.has(r.invalidated_by), `${r.id} invalidated_by ${r.invalidated_by}`).toBe(true);
    expect(ids.has(r.lineage_id), `${r.id} lineage ${r.lineage_id}`).toBe(true);
  }
  const ends = databaseOf(m).prepare<[], { end_by: string }>("SELECT end_by FROM claims WHERE end_by IS NOT NULL AND end_kind = 'judged'").all();
  for (const e of ends) expect(ids.has(e.end_by)).toBe(true);
  const claimHolders = databaseOf(m).prepare<[], { fact_id: string }>('SELECT fact_id FROM claims').all();
  for (const c of claimHolders) expect(ids.has(c.fact_id)).toBe(true);
  // Every version the memory holds cites the messages it came from (a closing keeps its sources).
  const unsourced = databaseOf(m).prepare<[], { id: string }>('SELECT id FROM facts WHERE expired_at IS NULL AND id NOT IN (SELECT fact_id FROM fact_episodes)').all();
  expect(unsourced).toEqual([]);
}

describe('one version per fact per write', () => {
  it('an observe file of four managers writes four facts and expires none', () => {
    const m = fresh();
    const summary = m.facts.observe([line('A', '01'), line('B', '10'), line('C', '15'), line('D', '20')]);
    expect(rows(m)).toHaveLength(4);
    expect(rows(m).every((r) => r.expired_at === null)).toBe(true);
    expect(summary).toMatchObject({ factsAdded: 4, factsClosed: 0 });
    const facts = m.facts.list({ history: true });
    expect(facts.map((f) => [f.object, f.valid_at.slice(0, 10), f.invalid_at?.slice(0, 10) ?? null])).toEqual([
      ['A', '2026-09-01', '2026-09-10'],
      ['B', '2026-09-10', '2026-09-15'],
      ['C', '2026-09-15', '2026-09-20'],
      ['D', '2026-09-20', null],
    ]);
    // Each closed fact names the fact that closed it, and that fact exists.
    const byObject = new Map(facts.map((f) => [f.object, f]));
    expect(byObject.get('A')!.invalidated_by).toBe(byObject.get('B')!.id);
    expectPointersHold(m);
  });

  it('a later write closes what an earlier one held: one new version, the old one kept as history', () => {
    const m = fresh();
    m.facts.observe([line('A', '01')]);
    const a = m.facts.list()[0]!;
    const summary = m.facts.observe([line('B', '10'), line('B', '12', { fact: 'B manages me.' }), line('C', '20')]);
    expect(summary).toMatchObject({ factsAdded: 2, factsClosed: 1, factsConfirmed: 0 });
    const all = rows(m);
    // A open (history), A closed, B, C: the intermediate states of the write are not stored.
    expect(all).toHaveLength(4);
    expect(all.filter((r) => r.expired_at !== null).map((r) => r.id)).toEqual([a.id]);
    const closedA = all.find((r) => r.supersedes === a.id)!;
    expect(closedA.lineage_id).toBe(a.id);
    expect(m.facts.get(closedA.id)!.episode_ids).toEqual(a.episode_ids);
    expectPointersHold(m);
  });

  it('a fact created and then merged into another in the same write leaves no trace of its own', () => {
    const m = fresh();
    // B from the 10th until the 12th, then B again from the 12th: touching, so one span; the
    // first write of the file made a fact for the first line that the second merged away.
    m.facts.observe([line('B', '10', { invalid_at: '2026-09-12T00:00:00Z' }), line('B', '12'), line('A', '01')]);
    const all = rows(m);
    expect(all.every((r) => r.expired_at === null)).toBe(true);
    expect(m.facts.list({ history: true }).map((f) => f.object)).toEqual(['A', 'B']);
    expectPointersHold(m);
  });

  it('any split of the same lines into writes: no write expires a version it created, pointers hold', () => {
    const objects = ['A', 'B', 'C'];
    const lineArb = fc.record({ object: fc.constantFrom(...objects), day: fc.integer({ min: 1, max: 23 }), lasts: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }) });
    fc.assert(
      fc.property(fc.array(fc.array(lineArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }), (writes) => {
        const m = fresh();
        try {
          for (const write of writes) {
            const before = new Set(rows(m).map((r) => r.id));
            const observations = write.map((l) => {
              const day = String(l.day).padStart(2, '0');
              const end = l.lasts === null ? {} : { invalid_at: `2026-09-${String(l.day + l.lasts).padStart(2, '0')}T00:00:00Z` };
              return line(l.object, day, end);
            });
            m.facts.observe(observations);
            const after = rows(m);
            for (const r of after) {
              // A version this write created is live after it.
              if (!before.has(r.id)) expect(r.expired_at).toBeNull();
            }
            expectPointersHold(m);
          }
        } finally {
          m.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('a memory whose clock is behind its data', () => {
  it('never expires a version before it was recorded, so its export still imports', () => {
    const ahead = openMemory({ dataDir: ':memory:', clock: steppingClock('2030-01-01T00:00:00.000Z') });
    ahead.facts.observe([line('A', '01')]);
    const doc = ahead.transfer.export();
    const behind = fresh(); // its clock says 2027
    behind.transfer.import(doc);
    behind.facts.observe([line('B', '10')]);
    const versions = behind.transfer.export().facts;
    for (const v of versions) if (v.expired_at !== null) expect(v.expired_at >= v.created_at).toBe(true);
    expect(versions.find((v) => v.object === 'A' && v.expired_at !== null)!.expired_at! >= '2030-01-01').toBe(true);
    const copy = fresh();
    copy.transfer.import(behind.transfer.export());
    expect(copy.facts.list().map((f) => f.object)).toEqual(['B']);
  });
});
