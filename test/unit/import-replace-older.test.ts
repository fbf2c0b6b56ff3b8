/**
 * An older export imported with `replace` into the memory it came from, after the memory moved on:
 * the file's versions go in place of the store's, and each slot they touch is resolved again from all
 * the claims it then holds, the store's later ones included. Before, the file's version of an edited
 * fact came back current beside the edit's version that had replaced it: one fact, two current
 * versions (found trying the Export / Import screen, 2026-12-07).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import type { FactRecord } from '../../shared/memory-schema';

let m: Memory;
afterEach(() => m.close());

/** No current version is superseded by another current one, and one lineage has one current version. */
function expectOneCurrentEach(facts: FactRecord[]): void {
  const live = facts.filter((f) => f.expired_at === null);
  const liveIds = new Set(live.map((f) => f.id));
  expect(live.filter((f) => f.supersedes !== null && liveIds.has(f.supersedes)).map((f) => f.fact)).toEqual([]);
}

describe('an older export imported with replace', () => {
  it('keeps one current version of a fact edited since, with the edit’s end', () => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-07T10:00:00.000Z', 1000) });
    m.facts.observe([
      { subject: 'me', predicate: 'plans', object: 'trip to Okinawa', object_type: 'literal', fact: 'I plan a trip to Okinawa.', reference_time: '2026-12-07T19:00:00+09:00', valid_at: '2027-01-16T00:00:00+09:00' },
      { subject: 'me', predicate: 'manager', object: 'Mei', fact: 'My manager is Mei.', cardinality: 'one', reference_time: '2026-12-07T19:00:00+09:00' },
    ]);
    const backup = m.transfer.export();
    const trip = m.facts.list({ history: true }).find((f) => f.object === 'trip to Okinawa')!;
    m.facts.edit(trip.id, { invalid_at: '2027-01-20T15:00:00.000Z', invalid_at_precision: 'day' });

    const summary = m.transfer.import(backup, { replace: true });
    expect(summary.replaced).toBeGreaterThan(0);
    const facts = m.facts.list({ history: true });
    expectOneCurrentEach(facts);
    const current = facts.filter((f) => f.expired_at === null && f.object === 'trip to Okinawa');
    expect(current.map((f) => [f.valid_at, f.invalid_at])).toEqual([['2027-01-15T15:00:00.000Z', '2027-01-20T15:00:00.000Z']]);
    // the slot the file alone fills is as it was
    expect(facts.filter((f) => f.expired_at === null && f.predicate === 'manager').map((f) => [f.object, f.invalid_at])).toEqual([['Mei', null]]);
  });

  it('is the file itself when nothing changed since: the same export, versions and all', () => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-07T10:00:00.000Z', 1000) });
    m.facts.observe([
      { subject: 'me', predicate: 'manager', object: 'Kenji', fact: 'My manager is Kenji.', cardinality: 'one', reference_time: '2026-10-01T19:00:00+09:00' },
      { subject: 'me', predicate: 'manager', object: 'Mei', fact: 'My manager is Mei.', cardinality: 'one', reference_time: '2026-12-01T19:00:00+09:00' },
    ]);
    const before = m.transfer.export();
    m.transfer.import(before, { replace: true });
    const after = m.transfer.export();
    expect(after.facts).toEqual(before.facts);
    expect(after.claims).toEqual(before.claims);
  });
});
