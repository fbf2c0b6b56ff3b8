/**
 * When the memory first recorded a fact (Memory.firstRecordedAt, for the Timeline's "Nothing was
 * recorded yet on … — the first facts were recorded on …"): the earliest created_at of any version,
 * one step down each of the indexes of live and of replaced versions by created_at.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';

let m: Memory | undefined;
afterEach(() => m?.close());

const line = (object: string, reference_time: string) => ({ subject: 'me', predicate: 'lives_in', object, fact: `I live in ${object}.`, reference_time, cardinality: 'one' as const });

describe('firstRecordedAt', () => {
  it('is null for an empty memory, then the earliest system time of any version', () => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-02T00:00:00.000Z', 1000) });
    expect(m.facts.firstRecordedAt()).toBeNull();
    m.facts.observe([line('Tokyo', '2020-01-01T00:00:00Z')]);
    const first = m.facts.firstRecordedAt();
    expect(first).toBe(m.facts.list({ history: true })[0]!.created_at);
    m.facts.observe([line('Osaka', '2021-01-01T00:00:00Z')]);
    // A later write (a new version, the old one expired) does not move it.
    expect(m.facts.firstRecordedAt()).toBe(first);
    expect(first! < m.facts.list({ history: true }).find((f) => f.object === 'Osaka')!.created_at).toBe(true);
  });

  it('is the earlier of the live and the replaced versions\' firsts', () => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-02T00:00:00.000Z', 1000) });
    m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: '2019-01-01T00:00:00Z' }]);
    const live = m.facts.list()[0]!.created_at;
    m.facts.observe([line('Tokyo', '2020-01-01T00:00:00Z')]);
    m.facts.observe([line('Osaka', '2021-01-01T00:00:00Z')]);
    // The first version recorded is still live; the replaced ones were recorded after it.
    expect(m.facts.firstRecordedAt()).toBe(live);
  });

  it('is one step down each of the two created_at indexes, no scan', () => {
    m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-02T00:00:00.000Z', 1000) });
    const db = databaseOf(m);
    const plan = plansOf(db, () => m!.facts.firstRecordedAt()).flatMap((p) => p.plan).join('\n');
    expect(plan).toMatch(/SEARCH facts USING (COVERING )?INDEX facts_live_by_created_at/);
    expect(plan).toMatch(/SEARCH facts USING (COVERING )?INDEX facts_replaced_by_created_at/);
    expect(plan).not.toMatch(/SCAN facts/);
  });
});
