/**
 * The timeline's window (temporal/timeline-window.ts): the rows asked for, in order, with the total;
 * each row summarised over all its facts, and whole only the facts that overlap the range; the
 * memory as held at known-at; the row filter; the row list read from an index, never the table.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const at = (day: string): IsoTime => toIsoUtc(`2026-${day}T00:00:00.000Z`);

function memory(): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: at('03-01'), cardinality: 'one' }]);
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: at('06-01'), cardinality: 'one' }]);
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'C', fact: 'My manager changed to C.', reference_time: at('09-01'), cardinality: 'one' }]);
  m.facts.observe([
    { subject: 'Sato', predicate: 'likes', object: 'tea', fact: 'Sato likes tea.', reference_time: at('01-10') },
    { subject: 'Aoki', predicate: 'lives in', object: 'Kyoto', fact: 'Aoki lives in Kyoto.', reference_time: at('02-01'), cardinality: 'one' },
    { subject: 'Aoki', predicate: 'likes', object: 'ramen', fact: 'Aoki likes ramen.', reference_time: at('10-01') },
  ]);
  return m;
}

describe('the timeline window', () => {
  it("pages the rows, the user's first, then by subject and predicate, with their total", () => {
    const m = memory();
    const all = m.facts.timelineWindow({ from: at('01-01'), to: at('12-01'), rowLimit: 10 });
    expect(all.totalRows).toBe(4);
    expect(all.rows.map((r) => `${r.subject} · ${r.predicate}`)).toEqual(['me · manager', 'Aoki · likes', 'Aoki · lives_in', 'Sato · likes']);
    expect([all.first, all.last]).toEqual([at('01-10'), at('10-01')]);
    const second = m.facts.timelineWindow({ from: at('01-01'), to: at('12-01'), rowOffset: 2, rowLimit: 1 });
    expect(second).toMatchObject({ totalRows: 4, totalSlots: 4, collapsedByDefault: false, rows: [{ subject: 'Aoki', predicate: 'lives_in' }] });
    expect(m.facts.timelineWindow({ from: at('01-01'), to: at('12-01'), rowOffset: 10, rowLimit: 5 })).toMatchObject({ totalRows: 4, rows: [], first: at('01-10'), last: at('10-01') });
  });

  it('summarises a row over all its facts and gives only those in the range whole', () => {
    const m = memory();
    const [row] = m.facts.timelineWindow({ from: at('05-01'), to: at('07-01'), rowOffset: 0, rowLimit: 1 }).rows;
    // A (Mar–Jun), B (Jun–Sep), C (Sep–): held now, replaced versions not.
    expect(row).toMatchObject({ count: 3, first: at('03-01'), last: at('09-01'), open: true, changes: 2, before: 0, after: 1 });
    expect(row!.facts.map((f) => [f.object, f.valid_at, f.invalid_at])).toEqual([
      ['A', at('03-01'), at('06-01')],
      ['B', at('06-01'), at('09-01')],
    ]);
    const [late] = m.facts.timelineWindow({ from: at('09-15'), to: at('10-01'), rowOffset: 0, rowLimit: 1 }).rows;
    expect(late).toMatchObject({ before: 2, after: 0 });
    expect(late!.facts.map((f) => f.object)).toEqual(['C']);
  });

  it('shows the memory as held at known-at, and filters the facts', () => {
    const m = memory();
    const b = m.facts.list({ history: true, predicate: 'manager' }).find((f) => f.object === 'B')!;
    const held = m.facts.timelineWindow({ from: at('01-01'), to: at('12-01'), knownAt: b.created_at, rowLimit: 10 });
    expect(held.rows.map((r) => `${r.subject} · ${r.predicate}`)).toEqual(['me · manager']);
    expect(held.rows[0]!.facts.map((f) => [f.object, f.invalid_at])).toEqual([
      ['A', at('06-01')],
      ['B', null],
    ]);
    const kyoto = m.facts.timelineWindow({ from: at('01-01'), to: at('12-01'), filter: 'KYOTO', rowLimit: 10 });
    expect(kyoto).toMatchObject({ totalRows: 1, rows: [{ subject: 'Aoki', predicate: 'lives_in', count: 1 }] });
    expect(m.facts.timelineWindow({ from: at('01-01'), to: at('12-01'), filter: 'likes', rowLimit: 10 }).rows.map((r) => r.subject)).toEqual(['Aoki', 'Sato']);
    expect(m.facts.timelineWindow({ from: at('01-01'), to: at('12-01'), filter: 'nobody', rowLimit: 10 })).toEqual({ totalRows: 0, totalSlots: 0, collapsedByDefault: false, rows: [], first: null, last: null, density: null });
  });

  it('reads the rows from the covering index, and their facts by index', () => {
    // A fresh store: a statement prepared before is cached, and would not be seen.
    const m = memory();
    const db = databaseOf(m);
    const plans = plansOf(db, () => m.facts.timelineWindow({ from: at('01-01'), to: at('12-01'), rowLimit: 10 })).flatMap((p) => p.plan);
    expect(plans.some((line) => /USING COVERING INDEX facts_live_by_slot_time/.test(line)), plans.join('\n')).toBe(true);
    expect(plans.some((line) => /USING (COVERING )?INDEX facts_live_by_slot_time \(subject_id=\? AND predicate=\? AND valid_at<\?\)/.test(line)), plans.join('\n')).toBe(true);
    expect(plans.filter((line) => /^SCAN (f|facts)\b(?! USING COVERING INDEX)/.test(line))).toEqual([]);
  });
});
