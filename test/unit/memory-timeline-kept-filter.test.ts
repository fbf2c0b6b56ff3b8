/**
 * A row filter that keeps rows whole (a subject's name, a predicate) is answered from the kept rows
 * (temporal/timeline-kept-filter.ts) — the same window as the pass over the facts it keeps, its
 * density at the edges of its buckets included, at every offset however the page of subjects is
 * found (walked in order or sorted) — by index, no fact table read whole; the facts it keeps by
 * their object alone (parts of rows) are summed by row, up to a limit, past which the pass answers.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';
import { keptRowsFiltered } from '../../electron/memory/temporal/timeline-kept-filter';
import { likePattern } from '../../electron/memory/temporal/timeline-source';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';
import type { TimelineWindowQuery } from '../../electron/memory/temporal/timeline-window-shape';
import { isoFromMs, type IsoTime } from '../../shared/time';

const DAY = 86_400_000;
const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const ALL = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' } as const;
const iso = (ms: number): IsoTime => isoFromMs(ms);

function fresh(): Memory {
  return openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
}

const kept = (m: Memory, text: string) => keptRowsFiltered(databaseOf(m), text, likePattern(text));
const same = (m: Memory, q: TimelineWindowQuery) => expect(timelineWindow(databaseOf(m), q)).toEqual(timelineWindow(databaseOf(m), q, { kept: false }));

describe('a row filter from the kept rows', () => {
  it('keeps whole rows by subject or predicate, parts of rows by object, and leaves too many parts to the pass', () => {
    const m = fresh();
    m.facts.observe([{ subject: 'Aoki', predicate: 'likes', object: 'tea', fact: 'Aoki likes tea.', reference_time: iso(T0) }]);
    m.facts.observe([{ subject: 'Bea', predicate: 'manager', object: 'Aoki', object_type: 'entity', fact: "Bea's manager is Aoki.", reference_time: iso(T0 + DAY), cardinality: 'one' }]);
    m.facts.observe([{ subject: 'Cy', predicate: 'note', object: 'green tea', fact: 'Cy notes green tea.', reference_time: iso(T0 + 2 * DAY) }]);
    // A row kept in part by three facts, one ended, and not by a fourth.
    m.facts.observe([{ subject: 'Cy', predicate: 'note', object: 'black tea', fact: 'Cy notes black tea.', reference_time: iso(T0 + 3 * DAY), invalid_at: iso(T0 + 5 * DAY) }]);
    m.facts.observe([{ subject: 'Cy', predicate: 'note', object: 'oolong tea', fact: 'Cy notes oolong tea.', reference_time: iso(T0 + 4 * DAY) }]);
    m.facts.observe([{ subject: 'Cy', predicate: 'note', object: 'coffee', fact: 'Cy notes coffee.', reference_time: iso(T0 + 6 * DAY) }]);
    expect(kept(m, 'likes')?.totals()).toEqual({ subjects: 1, slots: 1 });
    expect(kept(m, 'bea')?.totals()).toEqual({ subjects: 1, slots: 1 });
    // Aoki is Bea's manager (an object: part of Bea's rows); "tea" Aoki's like and Cy's note (literals).
    expect(kept(m, 'aoki')?.totals()).toEqual({ subjects: 2, slots: 2 });
    expect(kept(m, 'tea')?.totals()).toEqual({ subjects: 2, slots: 2 });
    // "e" names every predicate here (and Bea): its objects keep nothing more.
    expect(kept(m, 'e')?.totals()).toEqual({ subjects: 3, slots: 3 });
    // Up to so many facts kept by their object alone are summed here; more, the pass answers.
    const db = databaseOf(m);
    expect(keptRowsFiltered(db, 'tea', likePattern('tea'), 4)).not.toBeNull();
    expect(keptRowsFiltered(db, 'tea', likePattern('tea'), 3)).toBeNull();
    const cy = m.facts.list({ subject: 'Cy' })[0]!.subject_id;
    for (const filter of ['likes', 'bea', 'aoki', 'tea', 'e']) {
      same(m, { ...ALL, filter, rowLimit: 10, groups: { collapseAbove: 0, expanded: [cy] } });
      same(m, { from: iso(T0 + 4 * DAY), to: iso(T0 + 5 * DAY), filter, rowLimit: 10, groups: { collapseAbove: 0, expanded: [cy] } });
    }
    const tea = timelineWindow(databaseOf(m), { ...ALL, filter: 'tea', rowLimit: 10, groups: { collapseAbove: 0, expanded: [cy] } });
    expect(tea.rows.filter((r) => r.subject === 'Cy').map((r) => [r.predicate, r.count, r.changes, r.open])).toEqual([
      ['', 3, 1, true],
      ['note', 3, 1, true],
    ]);
    m.close();
  });

  it('counts a start or end exactly on a bucket edge in the bucket that begins there, as the pass does', () => {
    const m = fresh();
    const first = Date.parse('2026-01-01T00:00:00.000Z');
    const edge = Date.parse('2026-02-01T00:00:00.000Z'); // 90 days: one-day buckets; the edge of bucket 31
    m.facts.observe([{ subject: 'Aoki', predicate: 'likes', object: 'ramen', fact: 'Aoki likes ramen.', reference_time: iso(first) }]);
    m.facts.observe([{ subject: 'Aoki', predicate: 'likes', object: 'udon', fact: 'Aoki likes udon.', reference_time: iso(edge), invalid_at: iso(edge + 30 * DAY - 1) }]);
    m.facts.observe([{ subject: 'Zed', predicate: 'likes', object: 'tea', fact: 'Zed likes tea.', reference_time: iso(edge - 1) }]);
    m.facts.observe([{ subject: 'Zed', predicate: 'visited', object: 'Kyoto', fact: 'Zed visited Kyoto.', reference_time: iso(first + 90 * DAY) }]);
    const q: TimelineWindowQuery = { ...ALL, filter: 'likes', rowLimit: 10, groups: { collapseAbove: 0 } };
    const density = timelineWindow(databaseOf(m), q).density!;
    expect(density).toEqual(timelineWindow(databaseOf(m), q, { kept: false }).density);
    // Only the likes: from the first start to the last end, 61 one-day buckets.
    expect(density).toMatchObject({ from: '2026-01-01T00:00:00.000Z', to: '2026-03-03T00:00:00.000Z' });
    expect([density.counts[0], density.counts[30], density.counts[31], density.counts[60]]).toEqual([1, 1, 1, 1]);
    expect(density.counts.reduce((a, b) => a + b, 0)).toBe(4);
    m.close();
  });

  it('pages subjects in order at every offset, walked or sorted, the opened ones with their rows', () => {
    const m = fresh();
    // 30 subjects like tea; every fifth also visited Nara.
    for (let i = 1; i <= 30; i++) {
      m.facts.observe([{ subject: `Person ${i}`, predicate: 'likes', object: 'tea', fact: `Person ${i} likes tea.`, reference_time: iso(T0 + i * DAY) }]);
      if (i % 5 === 0) m.facts.observe([{ subject: `Person ${i}`, predicate: 'visited', object: 'Nara', fact: `Person ${i} visited Nara.`, reference_time: iso(T0 + i * DAY), invalid_at: iso(T0 + (i + 3) * DAY) }]);
    }
    const ids = new Map(m.facts.list({}).map((f) => [f.subject, f.subject_id]));
    const opened = [ids.get('Person 10')!, ids.get('Person 3')!];
    // Whole rows (predicates, names), parts of rows (objects), and both in one subject ("te": visited, tea).
    for (const filter of ['likes', 'visited', 'person 1', 'i', 'nara', 'a', 'te']) {
      for (const rowOffset of [0, 1, 2, 5, 6, 7, 29, 30, 31, 33, 40]) {
        for (const rowLimit of [1, 3, 50]) {
          same(m, { from: iso(T0 + 4 * DAY), to: iso(T0 + 12 * DAY), filter, rowOffset, rowLimit, groups: { collapseAbove: 2, expanded: opened } });
        }
      }
    }
    m.close();
  });

  it('reads by index: no fact table read whole, the subjects walked in order', () => {
    const m = fresh();
    for (const [i, subject] of ['me', 'Aoki', 'Bea', 'Zed', 'Person 2', 'Person 10'].entries()) {
      m.facts.observe([{ subject, predicate: 'likes', object: 'tea', fact: `${subject} likes tea.`, reference_time: iso(T0 + i * DAY) }]);
      m.facts.observe([{ subject, predicate: 'manager', object: 'A', fact: `${subject}'s manager is A.`, reference_time: iso(T0 + i * DAY), invalid_at: iso(T0 + (i + 9) * DAY), cardinality: 'one' }]);
    }
    const db = databaseOf(m);
    const aoki = m.facts.list({ subject: 'Aoki' })[0]!.subject_id;
    const q: TimelineWindowQuery = { from: iso(T0), to: iso(T0 + 3 * DAY), filter: 'manager', rowOffset: 1, rowLimit: 4, groups: { collapseAbove: 3, expanded: [aoki] } };
    let window: ReturnType<typeof timelineWindow> | undefined;
    const planned = plansOf(db, () => (window = timelineWindow(db, q)));
    const plans = planned.flatMap((p) => p.plan);
    expect(window).toEqual(timelineWindow(db, q, { kept: false }));
    // The user's own group is open too (timeline-own-group.ts): its row comes first.
    expect(window!.rows.map((r) => `${r.subject} ${r.predicate}`.trim())).toEqual(['me manager', 'Aoki', 'Aoki manager', 'Bea']);
    expect(plans.filter((line) => /^SCAN (f|facts)\b/.test(line)), plans.join('\n')).toEqual([]);
    expect(plans).toContain('SCAN t USING COVERING INDEX timeline_subjects_in_order');
    m.close();
  });
});
