/**
 * Issue #25: the timeline's groups in natural order (store/natural-order.ts: Person 2 before
 * Person 10, the user first), the same from the kept rows and from the one pass, kept by an index
 * after adds, renames and an upgrade from the schema before; and a group's marks
 * (temporal/timeline-marks.ts): where its facts begin and end, in at most 64 spans of the part of
 * the range it spans, read by index.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations } from '../../electron/memory/store/database/migrations';
import { naturalKey, registerNaturalOrder } from '../../electron/memory/store/natural-order';
import { groupMarks, MARK_BUCKETS } from '../../electron/memory/temporal/timeline-marks';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';
import { plansOf } from '../fixtures/query-plans';
import { isoFromMs, type IsoTime } from '../../shared/time';

const DAY = 86_400_000;
const T0 = Date.parse('2023-01-01T00:00:00.000Z');
const iso = (ms: number): IsoTime => isoFromMs(ms);
const ALL = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' } as const;
const PEOPLE = ['Person 1000', 'Person 10', 'person 2', 'Person 1', 'Person 100', 'Bea', 'Person 02', 'Room 3b', 'Room 3a'];
const NATURAL = ['me', 'Bea', 'Person 1', 'Person 02', 'person 2', 'Person 10', 'Person 100', 'Person 1000', 'Room 3a', 'Room 3b'];

describe('natural order of the timeline’s groups', () => {
  it('compares digit runs by value and letters without case', () => {
    const sorted = [...PEOPLE].sort((a, b) => (naturalKey(a) < naturalKey(b) ? -1 : naturalKey(a) > naturalKey(b) ? 1 : 0));
    expect(sorted).toEqual(['Bea', 'Person 1', 'person 2', 'Person 02', 'Person 10', 'Person 100', 'Person 1000', 'Room 3a', 'Room 3b']);
    expect(naturalKey('Person 2') < naturalKey('Person 10')).toBe(true);
    expect(naturalKey('v1.9') < naturalKey('v1.10')).toBe(true);
  });

  it('puts the user first, then people in natural order, from the kept rows and the one pass, by index', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    const db = databaseOf(m);
    for (const [i, subject] of [...PEOPLE, 'me'].entries()) {
      m.facts.observe([{ subject, predicate: 'likes', object: 'tea', fact: `${subject} likes tea.`, reference_time: iso(T0 + i * DAY) }]);
    }
    const q = { ...ALL, rowLimit: 50, groups: { collapseAbove: 1 } };
    let kept: ReturnType<typeof timelineWindow> | undefined;
    const planned = plansOf(db, () => (kept = timelineWindow(db, q)));
    const pass = timelineWindow(db, q, { kept: false });
    // 'Person 02' and 'person 2' have the same key: by name then ("P" before "p"). The user's own
    // group is open (its header and its row), the others collapsed.
    expect(kept!.rows.map((r) => r.subject)).toEqual(['me', ...NATURAL]);
    expect(pass.rows.map((r) => r.subject)).toEqual(['me', ...NATURAL]);
    expect(planned.filter((p) => /FROM timeline_subjects ORDER BY/.test(p.sql)).flatMap((p) => p.plan)).toEqual(['SCAN timeline_subjects USING INDEX timeline_subjects_in_order']);
    // A page from the middle, and with a group opened: the offsets count in the same order.
    const bea = kept!.rows[2]!.subject_id;
    for (const window of [{ rowOffset: 3, rowLimit: 4 }, { rowOffset: 2, rowLimit: 5, groups: { collapseAbove: 1, expanded: [bea] } }]) {
      const w = { ...q, ...window };
      expect(timelineWindow(db, w).rows.map((r) => `${r.subject}·${r.predicate}`)).toEqual(timelineWindow(db, w, { kept: false }).rows.map((r) => `${r.subject}·${r.predicate}`));
    }
    // Renamed: the key follows the name.
    db.prepare("UPDATE entities SET name = 'Person 3' WHERE name = 'Person 1000'").run();
    expect(timelineWindow(db, q).rows.map((r) => r.subject)).toEqual(['me', 'me', 'Bea', 'Person 1', 'Person 02', 'person 2', 'Person 3', 'Person 10', 'Person 100', 'Room 3a', 'Room 3b']);
    m.close();
  });

  it('is kept for the subjects of a store upgraded from the schema before', () => {
    const db = new Database(':memory:');
    const before = migrations.findIndex((s) => s.name === '0022_timeline_natural_order');
    expect(before).toBeGreaterThan(0);
    migrate(db, migrations.slice(0, before));
    db.exec(`INSERT INTO entities (id, name, normalized_name, type, created_at) VALUES ('ent_a', 'Person 10', 'person 10', 'person', '2026-01-01T00:00:00.000Z'), ('ent_b', 'Person 9', 'person 9', 'person', '2026-01-01T00:00:00.000Z')`);
    const insert = db.prepare(`INSERT INTO facts (id, lineage_id, subject_id, predicate, object_literal, fact, cardinality, valid_at, end_kind, reference_time, created_at, origin)
      VALUES (?, ?, ?, 'likes', 'tea', 'likes tea.', 'many', '2026-01-01T00:00:00.000Z', 'open', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 'observed')`);
    insert.run('fct_a', 'fct_a', 'ent_a');
    insert.run('fct_b', 'fct_b', 'ent_b');
    registerNaturalOrder(db);
    migrate(db);
    expect(db.prepare('SELECT name FROM timeline_subjects ORDER BY mine DESC, sort_key, name, subject_id').all()).toEqual([{ name: 'Person 9' }, { name: 'Person 10' }]);
    db.close();
  });
});

describe('a group’s marks', () => {
  it('count its starts and ends where they fall in the range it spans, the same from the kept rows and the one pass', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    const db = databaseOf(m);
    // The user's manager changed twice over 2025–26; a friend with one fact.
    const changes = [0, 100, 400].map((d) => T0 + 730 * DAY + d * DAY);
    for (const [i, at] of changes.entries()) {
      m.facts.observe([{ subject: 'me', predicate: 'manager', object: `M${i}`, fact: `My manager is M${i}.`, reference_time: iso(at), cardinality: 'one' }]);
    }
    m.facts.observe([{ subject: 'Aoki', predicate: 'likes', object: 'tea', fact: 'Aoki likes tea.', reference_time: iso(T0) }]);
    m.facts.observe([{ subject: 'Aoki', predicate: 'likes', object: 'ramen', fact: 'Aoki likes ramen.', reference_time: iso(T0 + 10 * DAY) }]);
    const q = { ...ALL, rowLimit: 10, groups: { collapseAbove: 1 } };
    let kept: ReturnType<typeof timelineWindow> | undefined;
    const planned = plansOf(db, () => (kept = timelineWindow(db, q)));
    expect(kept!.rows).toEqual(timelineWindow(db, q, { kept: false }).rows);
    const me = kept!.rows[0]!;
    expect(me.subject).toBe('me');
    // Over [first start, last change]: the first start in bucket 0; the change at day 100 (an end and a start) at 100/400 of the way; the last in the last bucket.
    expect(me.marks).toMatchObject({ from: iso(changes[0]!), to: iso(changes[2]!) });
    const counts = me.marks!.counts;
    expect(counts).toHaveLength(MARK_BUCKETS);
    expect(counts[0]).toBe(1);
    expect(counts[Math.floor((100 / 400) * MARK_BUCKETS)]).toBe(2);
    expect(counts[MARK_BUCKETS - 1]).toBe(2);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    // Zoomed to a range around the first change only: the marks cover that part.
    const part = { ...q, from: iso(changes[0]! + 50 * DAY), to: iso(changes[0]! + 150 * DAY) };
    const zoomed = timelineWindow(db, part);
    expect(zoomed.rows[0]!.marks).toMatchObject({ from: part.from, to: part.to });
    expect(zoomed.rows[0]!.marks!.counts.reduce((a, b) => a + b, 0)).toBe(2);
    expect(zoomed.rows).toEqual(timelineWindow(db, part, { kept: false }).rows);
    // A group with nothing in the range has no marks; an opened group's header keeps its own.
    expect(zoomed.rows[1]!.marks).toBeUndefined();
    const opened = { ...q, groups: { collapseAbove: 1, expanded: [me.subject_id] } };
    expect(timelineWindow(db, opened).rows[0]!.marks).toEqual(me.marks);
    expect(timelineWindow(db, opened).rows).toEqual(timelineWindow(db, opened, { kept: false }).rows);
    // Read by the subject's covering indexes, never a walk of every fact.
    const marksPlan = planned.filter((p) => /julianday\(t\) - @j0/.test(p.sql) && /f.subject_id = @subject/.test(p.sql)).flatMap((p) => p.plan);
    expect(marksPlan.filter((line) => /^SEARCH f/.test(line))).toEqual(Array(2).fill('SEARCH f USING COVERING INDEX facts_live_by_slot_time (subject_id=?)'));
    expect(marksPlan.filter((line) => /^SCAN (f|facts)\b/.test(line))).toEqual([]);
    m.close();
  });

  it('of a large group are probed per span by index, at the same places, whatever its size', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    const db = databaseOf(m);
    const day = (n: number) => iso(T0 + n * DAY);
    for (const [i, d] of [0, 100, 400].entries()) m.facts.observe([{ subject: 'me', predicate: 'manager', object: `M${i}`, fact: `My manager is M${i}.`, reference_time: day(d), cardinality: 'one' }]);
    // A trip with a stated end: an end that no successor's start marks.
    m.facts.observe([{ subject: 'me', predicate: 'visits', object: 'Nara', fact: 'I visit Nara.', reference_time: day(200), invalid_at: day(250) }]);
    const me = timelineWindow(db, { ...ALL, rowLimit: 1, groups: { collapseAbove: 1 } }).rows[0]!;
    const counted = groupMarks(db, 'f.expired_at IS NULL', '', '', {}, ALL, [me]).get(me.subject_id)!;
    let probed: ReturnType<typeof groupMarks> | undefined;
    const plans = plansOf(db, () => (probed = groupMarks(db, 'f.expired_at IS NULL', '', '', {}, ALL, [me], 0)));
    const marks = probed!.get(me.subject_id)!;
    expect(marks).toMatchObject({ from: counted.from, to: counted.to });
    const at = (counts: readonly number[]) => counts.flatMap((n, i) => (n > 0 ? [i] : []));
    expect(at(marks.counts)).toEqual(at(counted.counts));
    // A start counts one, a stated end one more; an end by the successor's start is that start.
    expect(marks.counts[Math.floor((250 / 400) * MARK_BUCKETS)]).toBe(1);
    expect(marks.counts[Math.floor((100 / 400) * MARK_BUCKETS)]).toBe(1);
    // Two seeks a span, each stopping at its first entry (one row read at most): never the group's every fact.
    expect(plans.flatMap((p) => p.plan).filter((line) => /facts/.test(line))).toEqual([
      'SEARCH f USING INDEX facts_live_by_subject_valid_at (subject_id=? AND valid_at>? AND valid_at<?)',
      'SEARCH f USING INDEX facts_live_stated_ends_by_subject (subject_id=? AND invalid_at>? AND invalid_at<?)',
    ]);
    m.close();
  });
});
