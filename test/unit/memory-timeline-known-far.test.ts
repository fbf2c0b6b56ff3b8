/**
 * The timeline known at a time far back, read from the lives kept in system time
 * (temporal/timeline-known-far.ts, store/timeline-lives.ts): after any mix of writes — observed,
 * edited, closed, forgotten (deleted), written out of order — the lives the triggers keep are what
 * counting the versions again gives (a life may be marked gapped where the count finds none: then it is
 * checked against its versions), and every window the app asks known at a version's created_at, 1 ms
 * before it, or at an expired_at is the one the pass over the versions held then answers, density included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';
import { recountTimelineLives } from '../../electron/memory/store/timeline-lives';
import { keptTimelineWindow } from '../../electron/memory/temporal/timeline-kept-window';
import { keptRowsKnownFar } from '../../electron/memory/temporal/timeline-known-far';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';
import type { TimelineWindowQuery } from '../../electron/memory/temporal/timeline-window-shape';
import { isoFromMs, type IsoTime } from '../../shared/time';

const SUBJECTS = ['me', 'Aoki', 'aoki', 'Zed', '佐藤', 'Person 10', 'Person 2'];
const PREDICATES = ['likes', 'manager', 'lives in'];
const ONE_VALUED = new Set(['manager', 'lives in']);
const OBJECTS = ['A', 'B', 'tea'];
const DAY = 86_400_000;
const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const iso = (ms: number): IsoTime => isoFromMs(ms);
const ALL = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' } as const;

type Step =
  | { kind: 'observe'; subject: number; predicate: number; object: number; at: number; ends: number | null }
  | { kind: 'edit' | 'close' | 'forget' | 'backdate'; pick: number; at: number };

const step = (span: number): fc.Arbitrary<Step> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('observe' as const), subject: fc.nat(SUBJECTS.length - 1), predicate: fc.nat(PREDICATES.length - 1), object: fc.nat(OBJECTS.length - 1), at: fc.nat(span), ends: fc.option(fc.integer({ min: 1, max: span }), { nil: null }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('edit' as const, 'close' as const, 'forget' as const, 'backdate' as const), pick: fc.nat(), at: fc.nat(span) }) },
  );

/** `unit`: what one step of `at` is (a day, or an hour: a grid narrower than a day). */
function apply(m: Memory, s: Step, unit: number): void {
  if (s.kind === 'observe') {
    const predicate = PREDICATES[s.predicate]!;
    const start = T0 + s.at * unit;
    m.facts.observe([
      {
        subject: SUBJECTS[s.subject]!,
        predicate,
        object: OBJECTS[s.object]!,
        fact: `${SUBJECTS[s.subject]} ${predicate} ${OBJECTS[s.object]}.`,
        reference_time: iso(start),
        ...(s.ends === null ? {} : { invalid_at: iso(start + s.ends * unit) }),
        cardinality: ONE_VALUED.has(predicate) ? 'one' : 'many',
      },
    ]);
    return;
  }
  const live = m.facts.list({});
  if (live.length === 0) return;
  const fact = live[s.pick % live.length]!;
  try {
    if (s.kind === 'edit') m.facts.edit(fact.id, { valid_at: iso(T0 + s.at * unit) });
    else if (s.kind === 'close') m.facts.close(fact.id, iso(Date.parse(fact.valid_at) + s.at * unit + unit));
    else if (s.kind === 'forget') m.facts.forget(fact.id);
    // Recorded earlier than it was (as a sync or an import may write): out of system-time order.
    else databaseOf(m).prepare('UPDATE facts SET created_at = ? WHERE id = ?').run(iso(Date.parse(fact.created_at) - (s.at + 1) * 3 * DAY), fact.id);
  } catch {
    // An edit the rules refuse changes nothing.
  }
}

const RETIRE = "UPDATE facts SET expired_at = strftime('%Y-%m-%dT%H:%M:%fZ', (SELECT max(max(created_at), COALESCE(max(expired_at), '')) FROM facts), '+1 second') WHERE id = ?";
const LIVES = ['timeline_subject_lives', 'timeline_slot_lives'];
type Life = Record<string, unknown> & { subject_id: string; predicate?: string; held: number; gapped: number };
const keyOf = (l: Life) => `${l.subject_id}\u0000${l.predicate ?? ''}`;

function lives(m: Memory): { lives: Life[][]; days: unknown[] } {
  const db = databaseOf(m);
  return {
    lives: LIVES.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all() as Life[]),
    days: db.prepare('SELECT * FROM timeline_recorded_days WHERE n <> 0 ORDER BY 1, 2').all(),
  };
}

/** What counting again gives (inside a transaction rolled back). */
function recounted(m: Memory): ReturnType<typeof lives> {
  const db = databaseOf(m);
  let found: ReturnType<typeof lives> = { lives: [], days: [] };
  try {
    db.transaction(() => {
      recountTimelineLives(db);
      found = lives(m);
      throw new Error('roll back');
    })();
  } catch {
    // rolled back
  }
  return found;
}

/** Kept and counted again agree: the same months; every life counted again is kept, the same unless kept gapped; one it does not find, gapped. */
function expectKeptAsCounted(m: Memory): void {
  const kept = lives(m);
  const counted = recounted(m);
  expect(kept.days).toEqual(counted.days);
  for (const [t, rows] of counted.lives.entries()) {
    const byKey = new Map(kept.lives[t]!.map((l) => [keyOf(l), l]));
    const found = new Set(rows.map(keyOf));
    for (const [key, life] of byKey) if (!found.has(key)) expect(life.gapped, JSON.stringify(life)).toBe(1);
    for (const life of rows) {
      const held = byKey.get(keyOf(life));
      expect(held, JSON.stringify(life)).toBeDefined();
      if (held!.gapped === 0) expect(held, LIVES[t]).toEqual(life);
      else expect(held!.held).toBe(life.held);
    }
  }
}

/** The window known at `knownAt` from the lives, when it answers, is the pass's. */
function expectSameWindow(m: Memory, q: TimelineWindowQuery): void {
  const db = databaseOf(m);
  const far = db.transaction(() => keptTimelineWindow(db, q, keptRowsKnownFar))();
  if (far !== null) expect(far, JSON.stringify(q)).toEqual(timelineWindow(db, q, { kept: false }));
}

/** At every instant, 1 ms before and after: the totals, the first and last time and the density, from the lives as from the pass. */
function expectEveryInstantAsThePass(m: Memory, instants: IsoTime[]): void {
  const db = databaseOf(m);
  for (const knownAt of instants.flatMap((i) => [-1, 0, 1].map((d) => iso(Date.parse(i) + d)))) {
    const q = { ...ALL, knownAt, rowLimit: 1, groups: { collapseAbove: 0 } };
    const far = db.transaction(() => keptTimelineWindow(db, q, keptRowsKnownFar))();
    const pass = timelineWindow(db, q, { kept: false });
    if (far === null) expect(pass.totalSlots, knownAt).toBe(0);
    else expect(far, knownAt).toEqual(pass);
  }
}

function instantsOf(m: Memory): IsoTime[] {
  return (databaseOf(m).prepare('SELECT created_at AS t FROM facts UNION SELECT expired_at FROM facts WHERE expired_at IS NOT NULL ORDER BY 1').all() as { t: IsoTime }[]).map((r) => r.t);
}

describe('the timeline known at a time far back', () => {
  it('keeps lives that counting again gives, and answers every window known at a time as the pass does', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(DAY, 3_600_000),
        fc.constantFrom(1000, 5 * DAY, 41 * DAY),
        fc.array(step(600), { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        fc.array(fc.record({ offset: fc.nat(12), limit: fc.integer({ min: 1, max: 10 }), from: fc.nat(700), span: fc.integer({ min: 1, max: 700 }), open: fc.array(fc.nat(SUBJECTS.length - 1), { maxLength: 3 }), collapseAbove: fc.nat(3), known: fc.nat(), shift: fc.constantFrom(0, -1, 1) }), { minLength: 1, maxLength: 4 }),
        (unit, clockStep, steps, retired, windows) => {
          const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2025-03-30T00:00:00.000Z', clockStep) });
          try {
            for (const s of steps) apply(m, s, unit);
            // Last, versions replaced after everything else with nothing in their place (as a sync may
            // write; the app's own writes would not expect it): a row's or a subject's life may end.
            for (const pick of retired) {
              const live = m.facts.list({});
              if (live.length > 0) databaseOf(m).prepare(RETIRE).run(live[pick % live.length]!.id);
            }
            expectKeptAsCounted(m);
            const ids = new Map(m.facts.list({ history: true }).map((f) => [f.subject, f.subject_id]));
            const instants = instantsOf(m);
            expectEveryInstantAsThePass(m, instants);
            // The lives counted again (as after a bulk load), not kept: every instant the same.
            databaseOf(m).transaction(() => recountTimelineLives(databaseOf(m)))();
            expectEveryInstantAsThePass(m, instants);
            for (const w of windows) {
              // At an instant a version was recorded or replaced, 1 ms before it or 1 ms after.
              const knownAt = instants.length === 0 ? '2025-01-01T00:00:00.000Z' : iso(Date.parse(instants[w.known % instants.length]!) + w.shift);
              const expanded = w.open.map((i) => ids.get(SUBJECTS[i]!) ?? 'ent_nobody');
              const from = T0 + (w.from - 100) * unit;
              const groups = { collapseAbove: w.collapseAbove, expanded };
              expectSameWindow(m, { from: iso(from), to: iso(from + w.span * unit), knownAt, rowOffset: w.offset, rowLimit: w.limit, groups });
              expectSameWindow(m, { ...ALL, knownAt, rowOffset: w.offset, rowLimit: w.limit, groups });
            }
          } finally {
            m.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads lives, months and the shown subjects by index: no fact table and no life table read whole', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2025-03-01T00:00:00.000Z', 9 * DAY) });
    for (const [i, subject] of SUBJECTS.entries()) {
      m.facts.observe([{ subject, predicate: 'likes', object: 'tea', fact: `${subject} likes tea.`, reference_time: iso(T0 + i * DAY), invalid_at: iso(T0 + (i + 3) * DAY) }]);
      m.facts.observe([{ subject, predicate: 'manager', object: 'A', fact: `${subject}'s manager is A.`, reference_time: iso(T0 + i * DAY), cardinality: 'one' }]);
      m.facts.observe([{ subject, predicate: 'manager', object: 'B', fact: `${subject}'s manager is B.`, reference_time: iso(T0 + (i + 1) * DAY), cardinality: 'one' }]);
    }
    const db = databaseOf(m);
    const aoki = m.facts.list({ subject: 'Aoki' })[0]!.subject_id;
    const instants = instantsOf(m);
    // Early in its month (read forward from its start) and late (back from the next month's).
    for (const knownAt of [instants[3]!, iso(Date.parse(instants[3]!) + 25 * DAY)]) {
      const q = { ...ALL, knownAt, rowOffset: 1, rowLimit: 4, groups: { collapseAbove: 2, expanded: [aoki] } };
      let window: ReturnType<typeof keptTimelineWindow> = null;
      const plans = plansOf(db, () => (window = db.transaction(() => keptTimelineWindow(db, q, keptRowsKnownFar))())).flatMap((p) => p.plan);
      expect(window).toEqual(timelineWindow(db, q, { kept: false }));
      expect(plans.filter((line) => /^SCAN (f|facts|l|timeline_\w+_lives)\b/.test(line) && !/USING (COVERING )?INDEX timeline_subject_lives_in_order/.test(line)), plans.join('\n')).toEqual([]);
    }
    m.close();
  });

  it('are counted again after a bulk import, which keeps the times of every version', () => {
    const source = openMemory({ dataDir: ':memory:', clock: steppingClock('2025-03-01T00:00:00.000Z', 11 * DAY) });
    for (const [subject, object, day] of [['Aoki', 'A', 1], ['Bea', 'tea', 2], ['Aoki', 'B', 5], ['Zed', 'ramen', 3], ['Aoki', 'C', 9]] as const) {
      source.facts.observe([{ subject, predicate: 'manager', object, fact: `${subject}'s manager is ${object}.`, reference_time: iso(T0 + day * DAY), cardinality: 'one' }]);
    }
    source.facts.forget(source.facts.list({ subject: 'Zed' })[0]!.id);
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-02T00:00:00.000Z', 1000) });
    m.transfer.import(source.transfer.export());
    expectKeptAsCounted(m);
    const instants = instantsOf(m);
    expect(instants.length).toBeGreaterThan(3);
    for (const knownAt of instants.flatMap((i) => [iso(Date.parse(i) - 1), i])) expectSameWindow(m, { ...ALL, knownAt, rowLimit: 10, groups: { collapseAbove: 0 } });
    source.close();
    m.close();
  });

  it('holds a version from its created_at to just before its expired_at, and answers as the pass at every instant, a row forgotten and said again included', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2025-03-01T00:00:00.000Z', 10 * DAY) });
    const db = databaseOf(m);
    const lastRecorded = () => (db.prepare('SELECT max(created_at) AS t FROM facts').get() as { t: IsoTime }).t;
    const say = (object: string, day: number) => {
      m.facts.observe([{ subject: 'Aoki', predicate: 'manager', object, fact: `Aoki's manager is ${object}.`, reference_time: iso(T0 + day * DAY), cardinality: 'one' }]);
      return lastRecorded();
    };
    const at = (t: IsoTime) => keptTimelineWindow(db, { ...ALL, knownAt: t, rowLimit: 10, groups: { collapseAbove: 0 } }, keptRowsKnownFar);
    // Nothing held: no window from the lives (null), and the pass's is empty.
    const names = (t: IsoTime) => (at(t)?.rows ?? []).map((r) => `${r.subject} ${r.count}`);
    const a = say('A', 1);
    m.facts.observe([{ subject: 'Bea', predicate: 'likes', object: 'tea', fact: 'Bea likes tea.', reference_time: iso(T0) }]);
    const b = say('B', 9); // A's version replaced when B was recorded
    expect(names(iso(Date.parse(a) - 1))).toEqual([]);
    expect(names(a)).toEqual(['Aoki 1']);
    expect(at(iso(Date.parse(b) - 1))!.rows[0]).toMatchObject({ subject: 'Aoki', count: 1, first: iso(T0 + DAY) });
    // From b: A closed at B's start (a new version of A) and B.
    expect(at(b)!.rows[0]).toMatchObject({ subject: 'Aoki', count: 2, changes: 1, first: iso(T0 + DAY), last: iso(T0 + 9 * DAY) });
    m.facts.forget(m.facts.list({ subject: 'Aoki' })[0]!.id); // the row forgotten (deleted: the lives marked gapped)
    say('C', 20); // and said again
    expect(db.prepare('SELECT gapped FROM timeline_slot_lives WHERE predicate = ?').get('manager')).toEqual({ gapped: 1 });
    for (const t of instantsOf(m).flatMap((i) => [iso(Date.parse(i) - 1), i])) {
      // Bea is held from her recording on: the lives answer at every instant from a.
      if (t >= a) expect(at(t), t).not.toBeNull();
      expectSameWindow(m, { ...ALL, knownAt: t, rowLimit: 10, groups: { collapseAbove: 0 } });
    }
    expectKeptAsCounted(m);
    m.close();
  });

  it('counts as gapped a row recorded again after all its versions were replaced (as a sync may write), and answers between as the pass does', () => {
    const m = openMemory({ dataDir: ':memory:', clock: steppingClock('2025-03-01T00:00:00.000Z', 10 * DAY) });
    const db = databaseOf(m);
    const say = (object: string, day: number) => m.facts.observe([{ subject: 'Aoki', predicate: 'manager', object, fact: `Aoki's manager is ${object}.`, reference_time: iso(T0 + day * DAY), cardinality: 'one' }]);
    say('A', 1);
    m.facts.observe([{ subject: 'Bea', predicate: 'likes', object: 'tea', fact: 'Bea likes tea.', reference_time: iso(T0) }]);
    say('B', 9);
    const held = (object: string) => db.prepare('SELECT id, created_at FROM facts WHERE expired_at IS NULL AND fact = ?').get(`Aoki's manager is ${object}.`) as { id: string; created_at: IsoTime };
    const [a, b] = [held('A'), held('B')];
    // A replaced with nothing in its place, and B recorded 20 days after it was.
    db.prepare(RETIRE).run(a.id);
    db.prepare('UPDATE facts SET created_at = ? WHERE id = ?').run(iso(Date.parse(b.created_at) + 20 * DAY), b.id);
    db.transaction(() => recountTimelineLives(db))();
    expect(db.prepare('SELECT gapped FROM timeline_slot_lives WHERE predicate = ?').get('manager')).toEqual({ gapped: 1 });
    expect(db.prepare("SELECT gapped FROM timeline_subject_lives WHERE name = 'Aoki'").get()).toEqual({ gapped: 1 });
    expect(db.prepare("SELECT gapped FROM timeline_subject_lives WHERE name = 'Bea'").get()).toEqual({ gapped: 0 });
    for (const t of instantsOf(m).flatMap((i) => [iso(Date.parse(i) - 1), i, iso(Date.parse(i) + 1)])) expectSameWindow(m, { ...ALL, knownAt: t, rowLimit: 10, groups: { collapseAbove: 0 } });
    m.close();
  });
});
