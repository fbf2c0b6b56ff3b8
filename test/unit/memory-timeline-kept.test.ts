/**
 * The timeline's rows kept by triggers (store/timeline-rows.ts) and the window read from them
 * (temporal/timeline-kept-window.ts): after any mix of writes — observed, edited, closed, forgotten,
 * imported — the kept rows are what counting the facts again gives, and every window the app can ask
 * (groups collapsed by default, some opened, any offset, limit and range) is the one the pass over
 * every held fact answers, the density too; and so do the kept rows known at a past time
 * (temporal/timeline-known-at.ts: the change since undone) and those a row filter keeps whole
 * (temporal/timeline-kept-filter.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';
import { recountTimelineRows } from '../../electron/memory/store/timeline-rows';
import { countFacts, TRUE_AT_COUNT_SQL } from '../../electron/memory/temporal/fact-query';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';
import type { TimelineWindowQuery } from '../../electron/memory/temporal/timeline-window-shape';
import { isoFromMs, type IsoTime } from '../../shared/time';

const SUBJECTS = ['me', 'Aoki', 'aoki', 'Zed', '佐藤', 'Bea', 'Person 10', 'Person 2'];
const PREDICATES = ['likes', 'manager', 'lives in', 'note'];
const ONE_VALUED = new Set(['manager', 'lives in']);
const OBJECTS = ['A', 'B', 'C', 'tea'];
/** Row filters: a subject's name or part of one, predicates, objects (a part of a row), several at once. */
const FILTERS = ['likes', 'LIKES', 'lives', 'li', 'note', 'aoki', 'Person 1', 'person', '佐藤', 'zed', 'tea', 'a', 'e', ' ', 'x'];
const DAY = 86_400_000;
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const iso = (ms: number): IsoTime => isoFromMs(ms);

type Step =
  | { kind: 'observe'; subject: number; predicate: number; object: number; day: number; hour: number; ends: number | null }
  | { kind: 'edit'; pick: number; day: number }
  | { kind: 'close'; pick: number; days: number }
  | { kind: 'forget'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('observe' as const), subject: fc.oneof(fc.constant(0), fc.constant(1), fc.nat(SUBJECTS.length - 1)), predicate: fc.nat(PREDICATES.length - 1), object: fc.nat(OBJECTS.length - 1), day: fc.nat(900), hour: fc.nat(23), ends: fc.option(fc.integer({ min: 1, max: 400 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), day: fc.nat(900) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), pick: fc.nat(), days: fc.integer({ min: 1, max: 300 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const), pick: fc.nat() }) },
);

function apply(m: Memory, s: Step): void {
  const live = m.facts.list({});
  if (s.kind === 'observe') {
    const predicate = PREDICATES[s.predicate]!;
    const start = T0 + s.day * DAY + s.hour * 3_600_000;
    m.facts.observe([
      {
        subject: SUBJECTS[s.subject]!,
        predicate,
        object: OBJECTS[s.object]!,
        fact: `${SUBJECTS[s.subject]} ${predicate} ${OBJECTS[s.object]}.`,
        reference_time: iso(start),
        ...(s.ends === null ? {} : { invalid_at: iso(start + s.ends * DAY) }),
        cardinality: ONE_VALUED.has(predicate) ? 'one' : 'many',
      },
    ]);
    return;
  }
  if (live.length === 0) return;
  const fact = live[s.pick % live.length]!;
  try {
    if (s.kind === 'edit') m.facts.edit(fact.id, { valid_at: iso(T0 + s.day * DAY) });
    else if (s.kind === 'close') m.facts.close(fact.id, iso(Date.parse(fact.valid_at) + s.days * DAY));
    else m.facts.forget(fact.id);
  } catch {
    // An edit the rules refuse (an end before its start, a fact already closed) changes nothing.
  }
}

function keptTables(m: Memory): unknown[] {
  const db = databaseOf(m);
  return ['timeline_slots', 'timeline_subjects', 'timeline_hours', 'timeline_totals'].map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all());
}

/** Counting again gives what the triggers kept (inside a transaction rolled back). */
function recounted(m: Memory): unknown[] {
  const db = databaseOf(m);
  let tables: unknown[] = [];
  try {
    db.transaction(() => {
      recountTimelineRows(db);
      tables = keptTables(m);
      throw new Error('roll back');
    })();
  } catch {
    // rolled back
  }
  return tables;
}

function expectSameWindow(m: Memory, q: TimelineWindowQuery): void {
  const db = databaseOf(m);
  // The same answer, the density included (one meaning: timeline-density.ts).
  expect(timelineWindow(db, q)).toEqual(timelineWindow(db, q, { kept: false }));
}

describe("the timeline's kept rows", () => {
  it('are what counting the facts again gives, and answer every window as the pass over the facts does', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 50 }),
        fc.array(fc.record({ offset: fc.nat(30), limit: fc.integer({ min: 1, max: 12 }), from: fc.nat(1300), span: fc.integer({ min: 1, max: 1300 }), open: fc.array(fc.nat(SUBJECTS.length - 1), { maxLength: 3 }), collapseAbove: fc.nat(3), known: fc.nat(), filter: fc.constantFrom(...FILTERS) }), { minLength: 1, maxLength: 4 }),
        (steps, windows) => {
          const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2027-06-01T00:00:00.000Z', 1000) });
          try {
            for (const s of steps) apply(m, s);
            expect(keptTables(m)).toEqual(recounted(m));
            // How many are true at a time (the Facts list as it opens, the as-of panel), from the kept open count.
            for (const w of windows) {
              const now = iso(T0 + (w.from - 200) * DAY);
              const asOf = iso(T0 + (w.span - 200) * DAY);
              expect(countFacts(databaseOf(m), {}, now), now).toBe(countFacts(databaseOf(m), {}, now, { kept: false }));
              expect(countFacts(databaseOf(m), { asOf }, now), asOf).toBe(countFacts(databaseOf(m), { asOf }, now, { kept: false }));
            }
            const ids = new Map(m.facts.list({ history: true }).map((f) => [f.subject, f.subject_id]));
            const instants = (databaseOf(m).prepare('SELECT created_at AS t FROM facts UNION SELECT expired_at FROM facts WHERE expired_at IS NOT NULL').all() as { t: IsoTime }[]).map((r) => r.t);
            for (const w of windows) {
              const from = T0 + (w.from - 200) * DAY;
              const expanded = w.open.map((i) => ids.get(SUBJECTS[i]!) ?? 'ent_nobody');
              expectSameWindow(m, { from: iso(from), to: iso(from + w.span * DAY), rowOffset: w.offset, rowLimit: w.limit, groups: { collapseAbove: w.collapseAbove, expanded } });
              expectSameWindow(m, { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z', rowOffset: w.offset, rowLimit: w.limit, groups: { collapseAbove: w.collapseAbove, expanded } });
              // A row filter: from the kept rows when it keeps whole rows (a subject's name, a predicate), else the pass.
              const range: Pick<TimelineWindowQuery, 'from' | 'to'> = w.span % 2 === 0 ? { from: iso(from), to: iso(from + w.span * DAY) } : { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' };
              expectSameWindow(m, { ...range, filter: w.filter, rowOffset: w.offset, rowLimit: w.limit, groups: { collapseAbove: w.collapseAbove, expanded } });
              // Known at an instant a version was recorded or replaced, or just before: the kept rows with the change since undone.
              if (instants.length === 0) continue;
              const instant = instants[w.known % instants.length]!;
              const knownAt = w.known % 3 === 2 ? iso(Date.parse(instant) - 1) : instant;
              expectSameWindow(m, { from: iso(from), to: iso(from + w.span * DAY), knownAt, rowOffset: w.offset, rowLimit: w.limit, groups: { collapseAbove: w.collapseAbove, expanded } });
            }
          } finally {
            m.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("look a row's first and last up again when the fact that held them goes", () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    const day = (n: number) => iso(T0 + n * DAY);
    m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: day(1) }]);
    m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'coffee', fact: 'I like coffee.', reference_time: day(5), invalid_at: day(30) }]);
    m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: day(8), cardinality: 'one' }]);
    const db = databaseOf(m);
    const slot = (predicate: string) => db.prepare('SELECT n, open_n, first, last FROM timeline_slots WHERE predicate = ?').get(predicate);
    const subject = () => db.prepare('SELECT slots, n, open_n, first, last FROM timeline_subjects').get();
    expect(slot('likes')).toEqual({ n: 2, open_n: 1, first: day(1), last: day(30) });
    expect(subject()).toEqual({ slots: 2, n: 3, open_n: 2, first: day(1), last: day(30) });
    const byObject = (object: string) => m.facts.list({ history: false }).find((f) => f.object === object)!.id;
    // The first start moves on: edited later, then forgotten.
    m.facts.edit(byObject('tea'), { valid_at: day(3) });
    expect(slot('likes')).toMatchObject({ first: day(3) });
    expect(subject()).toMatchObject({ first: day(3) });
    m.facts.forget(byObject('tea'));
    expect(slot('likes')).toEqual({ n: 1, open_n: 0, first: day(5), last: day(30) });
    expect(subject()).toEqual({ slots: 2, n: 2, open_n: 1, first: day(5), last: day(30) });
    // The last end goes back: closed earlier, then its row goes and the subject keeps the other.
    m.facts.close(m.facts.list({ history: true }).find((f) => f.object === 'coffee' && f.expired_at === null)!.id, day(20));
    expect(slot('likes')).toMatchObject({ last: day(20) });
    m.facts.forget(m.facts.list({ history: true }).find((f) => f.object === 'coffee' && f.expired_at === null)!.id);
    expect(slot('likes')).toBeUndefined();
    expect(subject()).toEqual({ slots: 1, n: 1, open_n: 1, first: day(8), last: day(8) });
    expect(keptTables(m)).toEqual(recounted(m));
    m.close();
  });

  it('follow a held row rewritten in place (as a migration may) and an expired one brought back', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: iso(T0 + DAY) }]);
    m.facts.observe([{ subject: 'Aoki', predicate: 'manager', object: 'A', fact: "Aoki's manager is A.", reference_time: iso(T0 + 2 * DAY), cardinality: 'one' }]);
    m.facts.observe([{ subject: 'Aoki', predicate: 'manager', object: 'B', fact: "Aoki's manager is B.", reference_time: iso(T0 + 9 * DAY), cardinality: 'one' }]);
    const db = databaseOf(m);
    db.prepare("UPDATE facts SET predicate = 'enjoys', valid_at = ?, invalid_at = ? WHERE predicate = 'likes' AND expired_at IS NULL").run(iso(T0 + 3 * DAY), iso(T0 + 40 * DAY));
    expect(keptTables(m)).toEqual(recounted(m));
    expect(db.prepare("SELECT predicate, first, last FROM timeline_slots WHERE predicate IN ('likes', 'enjoys')").all()).toEqual([{ predicate: 'enjoys', first: iso(T0 + 3 * DAY), last: iso(T0 + 40 * DAY) }]);
    db.prepare("UPDATE facts SET expired_at = NULL WHERE predicate = 'manager' AND expired_at IS NOT NULL").run();
    expect(keptTables(m)).toEqual(recounted(m));
    m.close();
  });

  it('are counted again after a bulk import, and follow a renamed subject', () => {
    const source = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    for (const [subject, object, day] of [['Aoki', 'tea', 1], ['me', 'coffee', 2], ['Zed', 'ramen', 3], ['Bea', 'tea', 4]] as const) {
      source.facts.observe([{ subject, predicate: 'likes', object, fact: `${subject} likes ${object}.`, reference_time: iso(T0 + day * DAY) }]);
    }
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-02T00:00:00.000Z', 1000) });
    m.transfer.import(source.transfer.export());
    expect(keptTables(m)).toEqual(recounted(m));
    const q: TimelineWindowQuery = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z', rowLimit: 10, groups: { collapseAbove: 1 } };
    // The user's own group open (its header and its row), the others collapsed.
    expect(m.facts.timelineWindow(q).rows.map((r) => r.subject)).toEqual(['me', 'me', 'Aoki', 'Bea', 'Zed']);
    // An entity renamed (here by the store itself, as an import with replace does) moves its row.
    databaseOf(m).prepare("UPDATE entities SET name = 'Yoko' WHERE name = 'Zed'").run();
    expect(m.facts.timelineWindow(q).rows.map((r) => r.subject)).toEqual(['me', 'me', 'Aoki', 'Bea', 'Yoko']);
    expect(keptTables(m)).toEqual(recounted(m));
    source.close();
    m.close();
  });
});

describe("the Facts list's total as it opens", () => {
  it('reads the kept count and the facts that start or end after now by index, not every fact', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    m.facts.observe([{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: iso(T0) }]);
    m.facts.observe([{ subject: 'me', predicate: 'plans', object: 'a trip', fact: 'I plan a trip.', reference_time: iso(T0), invalid_at: '2027-03-01T00:00:00.000Z' }]);
    m.facts.observe([{ subject: 'me', predicate: 'starts', object: 'a job', fact: 'I start a job in 2027.', reference_time: iso(T0), valid_at: '2027-01-01T00:00:00.000Z' }]);
    m.facts.observe([{ subject: 'me', predicate: 'visited', object: 'Nara', fact: 'I visited Nara.', reference_time: iso(T0), invalid_at: iso(T0 + DAY) }]);
    const db = databaseOf(m);
    const now = '2026-12-01T00:00:00.000Z';
    expect(countFacts(db, {}, now)).toBe(2);
    expect(countFacts(db, {}, now, { kept: false })).toBe(2);
    expect(m.facts.page({ limit: 10 }).total).toBe(2);
    expect(countFacts(db, { asOf: iso(T0 + 2 * DAY) }, now)).toBe(2);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${TRUE_AT_COUNT_SQL}`).all({ at: now }) as { detail: string }[]).map((r) => r.detail);
    // Ranges of covering indexes after the time, never a walk of every fact before it.
    expect(plan.filter((line) => /facts/.test(line))).toEqual([
      'SEARCH facts USING COVERING INDEX facts_by_valid_at (valid_at>?)',
      'SEARCH facts USING COVERING INDEX facts_live_by_invalid_at (invalid_at>?)',
    ]);
    m.close();
  });
});

describe("the kept window's plan", () => {
  it('reads the subjects in order by index and no fact table whole, whatever the memory', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
    for (const [i, subject] of SUBJECTS.entries()) {
      m.facts.observe([{ subject, predicate: 'likes', object: 'tea', fact: `${subject} likes tea.`, reference_time: iso(T0 + i * DAY) }]);
      m.facts.observe([{ subject, predicate: 'manager', object: 'A', fact: `${subject}'s manager is A.`, reference_time: iso(T0 + i * DAY), cardinality: 'one' }]);
    }
    const db = databaseOf(m);
    const aoki = m.facts.list({ subject: 'Aoki' })[0]!.subject_id;
    let window: ReturnType<Memory['facts']['timelineWindow']> | undefined;
    const planned = plansOf(db, () => (window = m.facts.timelineWindow({ from: iso(T0), to: iso(T0 + 3 * DAY), rowOffset: 1, rowLimit: 4, groups: { collapseAbove: 3, expanded: [aoki] } })));
    const plans = planned.flatMap((p) => p.plan);
    const pagePlan = planned.filter((p) => /FROM timeline_subjects ORDER BY/.test(p.sql)).flatMap((p) => p.plan);
    expect(window!.collapsedByDefault).toBe(true);
    // The page of subjects walks the order's index: no sort of every subject.
    expect(pagePlan).toEqual(['SCAN timeline_subjects USING INDEX timeline_subjects_in_order']);
    expect(plans.filter((line) => /^SCAN (f|facts)\b/.test(line)), plans.join('\n')).toEqual([]);
    m.close();
  });
});
