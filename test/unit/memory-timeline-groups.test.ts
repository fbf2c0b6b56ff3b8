/**
 * The timeline window's groups (temporal/timeline-window.ts): a header row per subject, the user's
 * first; a collapsed group is its header only, and the offsets count only the rows shown, so pages
 * put together are the whole list whatever is collapsed. Also the density Fit reads
 * (temporal/timeline-density.ts): every start and end counted once, in its bucket.
 */
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';
import { DENSITY_BUCKETS } from '../../electron/memory/temporal/timeline-density';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const at = (day: string): IsoTime => toIsoUtc(`2026-${day}T00:00:00.000Z`);
const ALL = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' } as const;

function memory(): Memory {
  const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
  m.facts.observe([
    { subject: 'Aoki', predicate: 'likes', object: 'ramen', fact: 'Aoki likes ramen.', reference_time: at('02-01') },
    { subject: 'Aoki', predicate: 'lives in', object: 'Kyoto', fact: 'Aoki lives in Kyoto.', reference_time: at('02-01'), cardinality: 'one' },
    { subject: 'Zed', predicate: 'likes', object: 'tea', fact: 'Zed likes tea.', reference_time: at('03-01') },
    { subject: 'me', predicate: 'likes', object: 'coffee', fact: 'I like coffee.', reference_time: at('01-10') },
    { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: at('03-01'), cardinality: 'one' },
  ]);
  m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: at('06-01'), cardinality: 'one' }]);
  return m;
}

const label = (r: { subject: string; predicate: string; group?: { collapsed: boolean } }) => (r.group ? `[${r.subject}${r.group.collapsed ? ' +' : ' −'}]` : `${r.subject} · ${r.predicate}`);

describe("the timeline window's groups", () => {
  it('puts a header before each subject, the user first, and expands small memories', () => {
    const m = memory();
    const all = m.facts.timelineWindow({ ...ALL, rowLimit: 50, groups: { collapseAbove: 30 } });
    expect(all.rows.map(label)).toEqual(['[me −]', 'me · likes', 'me · manager', '[Aoki −]', 'Aoki · likes', 'Aoki · lives_in', '[Zed −]', 'Zed · likes']);
    expect(all).toMatchObject({ totalRows: 8, totalSlots: 5, collapsedByDefault: false });
    // The header sums its rows: 3 facts, one ended.
    expect(all.rows[0]).toMatchObject({ count: 3, changes: 1, open: true, first: at('01-10'), facts: [], group: { rows: 2, collapsed: false } });
  });

  it('collapses every group above the threshold but the user’s own, except those the user opened or closed', () => {
    const m = memory();
    const collapsed = m.facts.timelineWindow({ ...ALL, rowLimit: 50, groups: { collapseAbove: 3 } });
    // The user's own facts are in the first view (design: "open on the user"), whatever the memory's size.
    expect(collapsed.rows.map(label)).toEqual(['[me −]', 'me · likes', 'me · manager', '[Aoki +]', '[Zed +]']);
    expect(collapsed).toMatchObject({ totalRows: 5, totalSlots: 5, collapsedByDefault: true });
    const me = collapsed.rows[0]!.subject_id;
    const aoki = collapsed.rows[3]!.subject_id;
    // The user closes their own group: it stays closed, as any choice.
    expect(m.facts.timelineWindow({ ...ALL, rowLimit: 50, groups: { collapseAbove: 3, collapsed: [me] } }).rows.map(label)).toEqual(['[me +]', '[Aoki +]', '[Zed +]']);
    const opened = m.facts.timelineWindow({ ...ALL, rowLimit: 50, groups: { collapseAbove: 3, expanded: [aoki], collapsed: [me] } });
    expect(opened.rows.map(label)).toEqual(['[me +]', '[Aoki −]', 'Aoki · likes', 'Aoki · lives_in', '[Zed +]']);
    expect(opened.rows[2]!.facts.map((f) => f.object)).toEqual(['ramen']);
    // A choice stands whatever the default: opened stays open in a small memory, closed stays closed.
    expect(m.facts.timelineWindow({ ...ALL, rowLimit: 50, groups: { collapseAbove: 30, expanded: [aoki] } }).rows.map(label)).toHaveLength(8);
    const shut = m.facts.timelineWindow({ ...ALL, rowLimit: 50, groups: { collapseAbove: 30, collapsed: [aoki] } });
    expect(shut.rows.map(label)).toEqual(['[me −]', 'me · likes', 'me · manager', '[Aoki +]', '[Zed −]', 'Zed · likes']);
  });

  it('pages over the rows shown: the pages put together are the whole list', () => {
    const m = memory();
    const groups = { collapseAbove: 3, expanded: [m.facts.timelineWindow({ ...ALL, rowLimit: 1, groups: { collapseAbove: 3 } }).rows[0]!.subject_id] };
    const whole = m.facts.timelineWindow({ ...ALL, rowLimit: 50, groups });
    const paged = [0, 2, 4].flatMap((rowOffset) => m.facts.timelineWindow({ ...ALL, rowOffset, rowLimit: 2, groups }).rows);
    expect(paged.map(label)).toEqual(whole.rows.map(label));
    expect(whole.rows.map(label)).toEqual(['[me −]', 'me · likes', 'me · manager', '[Aoki +]', '[Zed +]']);
    expect(m.facts.timelineWindow({ ...ALL, rowOffset: 9, rowLimit: 2, groups })).toMatchObject({ totalRows: 5, totalSlots: 5, rows: [] });
  });

  it('counts every start and end once, each in its bucket of one width chosen from [first, last]', () => {
    const m = memory();
    const { density, first, last } = m.facts.timelineWindow({ ...ALL, rowLimit: 1 });
    // 142 days: two-day buckets (one-day ones would be 143), edges on whole two-day steps since 1970.
    const width = 2 * 86_400_000;
    expect((Date.parse(density!.to) - Date.parse(density!.from)) / density!.counts.length).toBe(width);
    expect(Date.parse(density!.from) % width).toBe(0);
    expect(density!.from <= first! && last! < density!.to).toBe(true);
    expect(density!.counts.length).toBeLessThanOrEqual(DENSITY_BUCKETS);
    // 6 facts start; A ended when B began.
    expect(density!.counts.reduce((a, b) => a + b, 0)).toBe(7);
    expect(density!.counts[0]).toBe(1); // 01-10: I like coffee
    expect(density!.counts.at(-1)).toBe(2); // 06-01: B began, A ended
    // With a filter, only the facts it keeps.
    expect(m.facts.timelineWindow({ ...ALL, rowLimit: 1, filter: 'ramen' }).density!.counts.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('reads the grouped rows and the density from the covering index, never the table (groups open by default)', () => {
    const m = memory();
    const db = databaseOf(m);
    const plans = plansOf(db, () => m.facts.timelineWindow({ ...ALL, rowLimit: 10, groups: { collapseAbove: 30, expanded: ['x'], collapsed: ['y'] } })).flatMap((p) => p.plan);
    expect(plans.some((line) => /USING COVERING INDEX facts_live_by_slot_time/.test(line)), plans.join('\n')).toBe(true);
    expect(plans.filter((line) => /^SCAN (f|facts)\b(?! USING COVERING INDEX)/.test(line)), plans.join('\n')).toEqual([]);
  });
});
