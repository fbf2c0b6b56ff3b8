/**
 * The timeline's one query (issue 26: temporal/timeline-window.ts): its density has one meaning at
 * the edges of its buckets, whoever counts it (the kept hours, the pass, the filter's indexed
 * source); known-at holds a version from the instant it was recorded until the instant it was
 * replaced, not at it; and after any mix of writes every window with known-at and a row filter is
 * what a brute-force reading of every version gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { plansOf } from '../fixtures/query-plans';
import { densityGrid } from '../../electron/memory/temporal/timeline-density';
import { keptRowsKnownAt } from '../../electron/memory/temporal/timeline-known-at';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';
import type { TimelineWindow, TimelineWindowQuery } from '../../electron/memory/temporal/timeline-window-shape';
import { isoFromMs, type IsoTime } from '../../shared/time';
import { sayPredicate } from '../../shared/predicate-words';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const ALL = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' } as const;
const iso = (ms: number): IsoTime => isoFromMs(ms);

function fresh(): Memory {
  return openMemory({ dataDir: ':memory:', clock: steppingClock('2026-12-01T00:00:00.000Z', 1000) });
}

/** Two open facts a span apart and one that ends at `end`: the density's buckets, from every way of counting. */
function densities(first: number, last: number, end: number): TimelineWindow['density'][] {
  const m = fresh();
  m.facts.observe([
    { subject: 'Aoki', predicate: 'likes', object: 'ramen', fact: 'Aoki likes ramen.', reference_time: iso(first) },
    { subject: 'Aoki', predicate: 'visited', object: 'Kyoto', fact: 'Aoki visited Kyoto.', reference_time: iso(first + HOUR), invalid_at: iso(end) },
    { subject: 'Zed', predicate: 'likes', object: 'tea', fact: 'Zed likes tea.', reference_time: iso(last) },
  ]);
  const db = databaseOf(m);
  const grouped: TimelineWindowQuery = { ...ALL, rowLimit: 10, groups: { collapseAbove: 0 } };
  const out = [
    timelineWindow(db, grouped).density, // the kept rows: the hours kept by triggers
    timelineWindow(db, grouped, { kept: false }).density, // the pass over every held fact
    timelineWindow(db, { ...grouped, filter: 'e' }).density, // the filter's source by index (every fact has an e)
    timelineWindow(db, { ...grouped, knownAt: '2027-01-01T00:00:00.000Z' }).density, // known-at
  ];
  m.close();
  return out;
}

describe("the timeline's density", () => {
  it('counts an end exactly on a bucket edge in the bucket that begins there, however it is counted', () => {
    const first = Date.parse('2026-01-01T00:00:00.000Z');
    const last = Date.parse('2026-04-01T00:00:00.000Z');
    // 90 days: one-day buckets (half-days would be 181), from 2026-01-01; 2026-02-01 is the edge of bucket 31.
    for (const density of densities(first, last, Date.parse('2026-02-01T00:00:00.000Z'))) {
      expect(density).toMatchObject({ from: '2026-01-01T00:00:00.000Z', to: '2026-04-02T00:00:00.000Z' });
      expect(density!.counts).toHaveLength(91);
      expect([density!.counts[0], density!.counts[30], density!.counts[31], density!.counts[90]]).toEqual([2, 0, 1, 1]);
    }
    // A millisecond before the edge: the bucket before.
    for (const density of densities(first, last, Date.parse('2026-02-01T00:00:00.000Z') - 1)) expect([density!.counts[30], density!.counts[31]]).toEqual([1, 0]);
  });

  it('has buckets shorter than an hour for a short span, edges on whole minutes', () => {
    const first = Date.parse('2026-05-05T10:00:00.000Z');
    // Three hours: two-minute buckets (one-minute ones would be 181); 12:00 begins bucket 60.
    for (const density of densities(first, first + 3 * HOUR, first + 2 * HOUR)) {
      expect(density).toMatchObject({ from: '2026-05-05T10:00:00.000Z', to: '2026-05-05T13:02:00.000Z' });
      expect(density!.counts).toHaveLength(91);
      expect([density!.counts[59], density!.counts[60]]).toEqual([0, 1]);
    }
  });

  it('chooses the width from the span: at most 120 buckets, edges on its multiples', () => {
    for (const [first, last] of [
      ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
      ['2026-01-01T00:00:00.000Z', '2026-01-06T00:00:00.000Z'],
      ['1990-03-04T05:06:07.089Z', '2026-12-31T23:59:59.999Z'],
    ] as const) {
      const grid = densityGrid(first, last);
      expect(grid.buckets).toBeLessThanOrEqual(120);
      expect(grid.from % grid.width).toBe(0);
      expect(grid.from <= Date.parse(first) && Date.parse(last) < grid.from + grid.buckets * grid.width).toBe(true);
    }
    // Past 60 hours in whole hours (a width the kept hours can sum), under it in minutes.
    expect(densityGrid('2026-01-01T00:00:00.000Z', '2026-01-06T00:00:00.000Z').width).toBe(2 * HOUR);
    expect(densityGrid('2026-01-01T00:00:00.000Z', '2026-01-05T23:00:00.000Z').width).toBe(HOUR);
    expect(densityGrid('2026-01-01T00:00:00.000Z', '2026-01-03T12:00:00.000Z').width).toBe(HOUR);
    expect(densityGrid('2026-01-01T00:00:00.000Z', '2026-01-03T11:59:59.999Z').width).toBe(30 * 60_000);
    expect(densityGrid('2026-01-01T00:00:00.000Z', '2026-01-01T03:00:00.000Z').width).toBe(2 * 60_000);
  });
});

describe('known-at', () => {
  it('holds a version from the instant it was recorded to the instant it was replaced, not at it', () => {
    const m = fresh();
    m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'Aoki', object_type: 'entity', fact: 'My manager is Aoki.', reference_time: '2026-01-01T00:00:00.000Z', cardinality: 'one' }]);
    m.facts.observe([{ subject: 'me', predicate: 'manager', object: 'Bea', object_type: 'entity', fact: 'My manager is Bea.', reference_time: '2026-03-01T00:00:00.000Z', cardinality: 'one' }]);
    const versions = m.facts.list({ history: true });
    const first = versions.find((f) => f.object === 'Aoki' && f.expired_at !== null)!;
    const at = (knownAt: IsoTime) => m.facts.timelineWindow({ ...ALL, knownAt, rowLimit: 5 }).rows.flatMap((r) => r.facts.map((f) => `${f.object}${f.invalid_at ? ' ended' : ''}`));
    expect(at(iso(Date.parse(first.created_at) - 1))).toEqual([]);
    expect(at(first.created_at)).toEqual(['Aoki']);
    expect(at(iso(Date.parse(first.expired_at!) - 1))).toEqual(['Aoki']);
    expect(at(first.expired_at!)).toEqual(['Aoki ended', 'Bea']);
    m.close();
  });
});

describe('known-at from the kept rows', () => {
  it('undoes the change since K by index: no fact table read whole, the same totals as the pass', () => {
    const m = fresh();
    for (const [i, subject] of ['me', 'Aoki', 'Bea', 'Zed'].entries()) {
      m.facts.observe([{ subject, predicate: 'likes', object: 'tea', fact: `${subject} likes tea.`, reference_time: iso(T0 + i * DAY) }]);
      m.facts.observe([{ subject, predicate: 'manager', object: 'A', fact: `${subject}'s manager is A.`, reference_time: iso(T0 + i * DAY), cardinality: 'one' }]);
    }
    const knownAt = m.facts.list({ history: true }).map((f) => f.created_at).sort()[4]!;
    m.facts.observe([{ subject: 'Aoki', predicate: 'manager', object: 'B', fact: "Aoki's manager is B.", reference_time: iso(T0 + 9 * DAY), cardinality: 'one' }]);
    m.facts.observe([{ subject: 'Cy', predicate: 'likes', object: 'tea', fact: 'Cy likes tea.', reference_time: iso(T0 + 9 * DAY) }]);
    const db = databaseOf(m);
    const q: TimelineWindowQuery = { ...ALL, knownAt, rowLimit: 10, groups: { collapseAbove: 1 } };
    expect(keptRowsKnownAt(db, knownAt).totals()).toEqual({ subjects: 3, slots: 5 });
    let window: TimelineWindow | undefined;
    const plans = plansOf(db, () => (window = timelineWindow(db, q))).flatMap((p) => p.plan);
    expect(window).toEqual(timelineWindow(db, q, { kept: false }));
    // The user's own group open: its header and its two rows held at K.
    expect(window!.rows.map((r) => r.subject)).toEqual(['me', 'me', 'me', 'Aoki', 'Bea']);
    // The bounds walk the held facts by valid time and by end, in order, to the first one recorded by K (LIMIT 1).
    const walks = /^SCAN facts USING INDEX facts_live_by_(valid_at|invalid_at)$/;
    expect(plans.filter((line) => /^SCAN (f|facts)\b(?! USING COVERING INDEX)/.test(line) && !walks.test(line)), plans.join('\n')).toEqual([]);
    m.close();
  });
});

// ——— every window with known-at and a filter, against a brute-force reading of every version ———

const SUBJECTS = ['me', 'Aoki', 'aoki', 'Zed', '佐藤', 'Bea Ramen', 'Person 10'];
const PREDICATES = ['likes', 'manager', 'lives in', 'note'];
const ONE_VALUED = new Set(['manager', 'lives in']);
const OBJECTS = ['Aoki', 'Kyoto', 'tea', 'green TEA', '東京'];
const FILTERS = ['aoki', 'AOKI', 'tea', 'ea', 'e', 'likes', 'lives', 'lives in', 'Lives_In', '佐藤', '東', 'kyo', 'x', 'ramen', 'es i', 's  i', '%', '_'];
const T0 = Date.parse('2025-01-01T00:00:00.000Z');

type Step =
  | { kind: 'observe'; subject: number; predicate: number; object: number; entity: boolean; day: number; ends: number | null }
  | { kind: 'close'; pick: number; days: number }
  | { kind: 'forget'; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('observe' as const), subject: fc.nat(SUBJECTS.length - 1), predicate: fc.nat(PREDICATES.length - 1), object: fc.nat(OBJECTS.length - 1), entity: fc.boolean(), day: fc.nat(400), ends: fc.option(fc.integer({ min: 1, max: 200 }), { nil: null }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), pick: fc.nat(), days: fc.integer({ min: 1, max: 100 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forget' as const), pick: fc.nat() }) },
);

function apply(m: Memory, s: Step): void {
  if (s.kind === 'observe') {
    const predicate = PREDICATES[s.predicate]!;
    const start = T0 + s.day * DAY;
    m.facts.observe([
      {
        subject: SUBJECTS[s.subject]!,
        predicate,
        object: OBJECTS[s.object]!,
        ...(s.entity ? { object_type: 'entity' as const } : {}),
        fact: `${SUBJECTS[s.subject]} ${predicate} ${OBJECTS[s.object]}.`,
        reference_time: iso(start),
        ...(s.ends === null ? {} : { invalid_at: iso(start + s.ends * DAY) }),
        cardinality: ONE_VALUED.has(predicate) ? 'one' : 'many',
      },
    ]);
    return;
  }
  const live = m.facts.list({});
  if (live.length === 0) return;
  const fact = live[s.pick % live.length]!;
  try {
    if (s.kind === 'close') m.facts.close(fact.id, iso(Date.parse(fact.valid_at) + s.days * DAY));
    else m.facts.forget(fact.id);
  } catch {
    // A close the rules refuse changes nothing.
  }
}

interface Version {
  id: string;
  subject_id: string;
  subject: string;
  predicate: string;
  object: string;
  valid_at: string;
  invalid_at: string | null;
  created_at: string;
  expired_at: string | null;
}

/** The window's rows (not grouped), its bounds and density, read from every version by brute force. */
function bruteForce(m: Memory, q: { from: string; to: string; knownAt?: string; filter?: string }) {
  const versions = databaseOf(m)
    .prepare('SELECT f.id, f.subject_id, s.name AS subject, f.predicate, COALESCE(o.name, f.object_literal) AS object, f.valid_at, f.invalid_at, f.created_at, f.expired_at FROM facts f JOIN entities s ON s.id = f.subject_id LEFT JOIN entities o ON o.id = f.object_id')
    .all() as Version[];
  // ASCII letters in any case, as lower() does in SQL.
  const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const text = q.filter === undefined ? undefined : q.filter.toLowerCase();
  const held = versions.filter(
    (v) =>
      (q.knownAt === undefined ? v.expired_at === null : v.created_at <= q.knownAt && (v.expired_at === null || v.expired_at > q.knownAt)) &&
      // A predicate as stored or as the screens say it ("lives in").
      (text === undefined || [v.subject, v.predicate, sayPredicate(v.predicate), v.object].some((s) => lower(s).includes(text))),
  );
  const rows = new Map<string, Version[]>();
  for (const v of held) rows.set(`${v.subject_id}·${v.predicate}`, [...(rows.get(`${v.subject_id}·${v.predicate}`) ?? []), v]);
  const lastOf = (v: Version) => (v.invalid_at !== null && v.invalid_at > v.valid_at ? v.invalid_at : v.valid_at);
  const summaries = [...rows.entries()]
    .map(([key, vs]) => ({
      key,
      count: vs.length,
      first: vs.map((v) => v.valid_at).sort()[0],
      last: vs.map(lastOf).sort().at(-1),
      open: vs.some((v) => v.invalid_at === null),
      changes: vs.filter((v) => v.invalid_at !== null).length,
      before: vs.filter((v) => v.invalid_at !== null && v.invalid_at <= q.from).length,
      after: vs.filter((v) => v.valid_at >= q.to).length,
      facts: vs.filter((v) => v.valid_at < q.to && (v.invalid_at === null || v.invalid_at > q.from)).map((v) => v.id).sort(),
    }))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
  const times = held.flatMap((v) => (v.invalid_at === null ? [v.valid_at] : [v.valid_at, v.invalid_at]));
  const first = held.map((v) => v.valid_at).sort()[0] ?? null;
  const last = held.map(lastOf).sort().at(-1) ?? null;
  let counts: number[] | null = null;
  if (first !== null && last !== null) {
    const grid = densityGrid(first, last);
    counts = new Array<number>(grid.buckets).fill(0);
    for (const t of times) counts[Math.floor((Date.parse(t) - grid.from) / grid.width)]! += 1;
  }
  return { rows: summaries, first, last, counts };
}

function answered(w: TimelineWindow) {
  return {
    rows: w.rows
      .map((r) => ({ key: `${r.subject_id}·${r.predicate}`, count: r.count, first: r.first, last: r.last, open: r.open, changes: r.changes, before: r.before, after: r.after, facts: r.facts.map((f) => f.id).sort() }))
      .sort((a, b) => (a.key < b.key ? -1 : 1)),
    first: w.first,
    last: w.last,
    counts: w.density?.counts ?? null,
  };
}

describe('known-at and the row filter', () => {
  it('answer what a brute-force reading of every version gives, after any mix of writes', () => {
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 1, maxLength: 25 }),
        fc.array(fc.record({ filter: fc.option(fc.constantFrom(...FILTERS), { nil: undefined }), at: fc.option(fc.nat(), { nil: undefined }), day: fc.nat(500), days: fc.integer({ min: 1, max: 300 }) }), { minLength: 1, maxLength: 4 }),
        (steps, questions) => {
          const m = fresh();
          try {
            for (const s of steps) apply(m, s);
            // Known-at exactly at a version's created_at or expired_at, or just before one.
            const instants = (databaseOf(m).prepare('SELECT created_at AS t FROM facts UNION SELECT expired_at FROM facts WHERE expired_at IS NOT NULL').all() as { t: IsoTime }[]).map((r) => r.t);
            for (const { filter, at, day, days } of questions) {
              const knownAt = at === undefined || instants.length === 0 ? undefined : at % 3 === 2 ? iso(Date.parse(instants[at % instants.length]!) - 1) : instants[at % instants.length]!;
              const q = { from: iso(T0 + day * DAY), to: iso(T0 + (day + days) * DAY), ...(knownAt === undefined ? {} : { knownAt }), ...(filter === undefined ? {} : { filter }) };
              const window = m.facts.timelineWindow({ ...q, rowLimit: 500 });
              expect(answered(window), JSON.stringify(q)).toEqual(bruteForce(m, q));
              expect(window.totalSlots).toBe(window.rows.length);
            }
          } finally {
            m.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
