/**
 * Property-based tests of the temporal rules through the real store (SQLite in memory):
 * arrival order never matters, nothing is lost, one-slots never overlap, other subjects are untouched.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import type { FactRecord } from '../../shared/memory-schema';
import { isoFromMs, toIsoUtc, type IsoTime } from '../../shared/time';

const DAYS = ['2026-09-01', '2026-09-05', '2026-09-10', '2026-09-15', '2026-09-20'];
const PREDICATES = { manager: 'one', lives_in: 'one', likes: 'many' } as const;

interface Obs {
  subject: string;
  predicate: keyof typeof PREDICATES;
  object: string;
  valid: number;
  said: number;
  endsAfter: number | null;
}

const observation: fc.Arbitrary<Obs> = fc.record({
  subject: fc.constantFrom('me', 'Sato', 'Tanaka'),
  predicate: fc.constantFrom('manager', 'lives_in', 'likes'),
  object: fc.constantFrom('A', 'B', 'C'),
  valid: fc.integer({ min: 0, max: DAYS.length - 1 }),
  said: fc.integer({ min: 0, max: 2 }),
  endsAfter: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null, freq: 4 }),
});

function toInput(o: Obs, index: number) {
  const validAt = `${DAYS[o.valid]}T00:00:00Z`;
  const reference = new Date(Date.parse(validAt) + (o.said + 1) * 3_600_000).toISOString();
  const end = o.endsAfter === null ? null : isoFromMs(Date.parse(validAt) + o.endsAfter * 86_400_000 * 2);
  return {
    subject: o.subject,
    predicate: o.predicate,
    object: o.object,
    fact: `${o.subject} ${o.predicate} ${o.object} (${index % 2})`,
    reference_time: reference,
    valid_at: validAt,
    invalid_at: end,
    cardinality: PREDICATES[o.predicate],
  };
}

function fresh(): Memory {
  return openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') });
}

const content = (f: FactRecord) => [f.subject, f.predicate, f.object, f.valid_at, f.invalid_at, f.cardinality, f.fact].join('|');
const view = (m: Memory, q: Parameters<Memory['facts']['list']>[0]) => m.facts.list(q).map(content).sort();
const PROBES = ['2026-08-30', ...DAYS, '2026-09-03', '2026-09-12', '2026-09-30', '2026-12-01'].map((d) => toIsoUtc(`${d}T12:00:00.000Z`));

function ingest(m: Memory, inputs: ReturnType<typeof toInput>[]) {
  for (const input of inputs) m.facts.observe([input]);
}

describe('temporal rules, as properties of the store', () => {
  it('gives the same current facts and as-of answers for any arrival order', () => {
    fc.assert(
      fc.property(fc.array(observation, { minLength: 1, maxLength: 9 }).chain((obs) => fc.tuple(fc.constant(obs), fc.shuffledSubarray(obs.map((_, i) => i), { minLength: obs.length, maxLength: obs.length }))), ([obs, order]) => {
        const inputs = obs.map(toInput);
        const a = fresh();
        const b = fresh();
        ingest(a, inputs);
        ingest(b, order.map((i) => inputs[i]!));
        expect(view(b, {})).toEqual(view(a, {}));
        for (const asOf of PROBES) expect(view(b, { asOf })).toEqual(view(a, { asOf }));
        a.close();
        b.close();
      }),
      { numRuns: 150 },
    );
  });

  it('never loses a version or an episode, and never overlaps a one-slot', () => {
    fc.assert(
      fc.property(fc.array(observation, { minLength: 1, maxLength: 10 }), (obs) => {
        const m = fresh();
        const seenVersions = new Set<string>();
        for (const [i, input] of obs.map(toInput).entries()) {
          const { episodeIds } = m.facts.observe([input]);
          const all = m.facts.list({ history: true });
          for (const id of seenVersions) expect(all.some((f) => f.id === id), `version ${id} vanished after observation ${i}`).toBe(true);
          for (const f of all) seenVersions.add(f.id);
          // the new episode supports some version
          expect(all.some((f) => f.episode_ids.includes(episodeIds[0]!))).toBe(true);
        }
        const live = m.facts.list({ history: true }).filter((f) => f.expired_at === null);
        for (const f of live) {
          if (f.cardinality !== 'one') continue;
          for (const g of live) {
            if (g === f || g.subject_id !== f.subject_id || g.predicate !== f.predicate) continue;
            const overlap = (f.invalid_at === null || g.valid_at < f.invalid_at) && (g.invalid_at === null || f.valid_at < g.invalid_at);
            expect(overlap, `${content(f)} overlaps ${content(g)}`).toBe(false);
          }
        }
        m.close();
      }),
      { numRuns: 150 },
    );
  });

  it('never touches the facts of another subject', () => {
    fc.assert(
      fc.property(fc.array(observation, { minLength: 1, maxLength: 8 }), observation, (before, next) => {
        const m = fresh();
        ingest(m, before.map(toInput));
        const others = () => m.facts.list({ history: true }).filter((f) => f.subject !== (next.subject === 'me' ? 'me' : next.subject)).map((f) => JSON.stringify(f)).sort();
        const snapshot = others();
        m.facts.observe([toInput(next, 99)]);
        expect(others()).toEqual(snapshot);
        m.close();
      }),
      { numRuns: 100 },
    );
  });

  it('answers known-at T with exactly what the store held at T', () => {
    fc.assert(
      fc.property(fc.array(observation, { minLength: 1, maxLength: 8 }), (obs) => {
        const m = fresh();
        const snapshots: { at: IsoTime; held: string[] }[] = [];
        for (const input of obs.map(toInput)) {
          m.facts.observe([input]);
          const at = m.clock.now();
          snapshots.push({ at, held: m.facts.list({ history: true }).filter((f) => f.expired_at === null).map((f) => JSON.stringify({ ...f, expired_at: null, episode_ids: [] })).sort() });
        }
        for (const { at, held } of snapshots) {
          const known = m.facts.list({ history: true, knownAt: at }).map((f) => JSON.stringify({ ...f, expired_at: null, episode_ids: [] })).sort();
          expect(known).toEqual(held);
        }
        m.close();
      }),
      { numRuns: 100 },
    );
  });

  it('is half-open on both axes at every boundary it stores: [valid_at, invalid_at) and [created_at, expired_at)', () => {
    fc.assert(
      fc.property(fc.array(observation, { minLength: 1, maxLength: 8 }), (obs) => {
        const m = fresh();
        ingest(m, obs.map(toInput));
        const versions = m.facts.list({ history: true });
        const ids = (q: Parameters<Memory['facts']['list']>[0]) => new Set(m.facts.list({ history: true, ...q }).map((f) => f.id));
        for (const f of versions) {
          const during = (t: IsoTime) => ids({ asOf: t, knownAt: f.created_at });
          if (f.invalid_at === null || f.valid_at < f.invalid_at) expect(during(f.valid_at).has(f.id), `${content(f)} at its valid_at`).toBe(true);
          expect(during(isoFromMs(Date.parse(f.valid_at) - 1)).has(f.id)).toBe(false);
          if (f.invalid_at !== null) {
            expect(during(f.invalid_at).has(f.id), `${content(f)} at its invalid_at`).toBe(false);
            if (f.valid_at < f.invalid_at) expect(during(isoFromMs(Date.parse(f.invalid_at) - 1)).has(f.id)).toBe(true);
          }
          expect(ids({ knownAt: f.created_at }).has(f.id)).toBe(true);
          expect(ids({ knownAt: isoFromMs(Date.parse(f.created_at) - 1) }).has(f.id)).toBe(false);
          if (f.expired_at !== null) {
            expect(ids({ knownAt: f.expired_at }).has(f.id), `${content(f)} at its expired_at`).toBe(false);
            expect(ids({ knownAt: isoFromMs(Date.parse(f.expired_at) - 1) }).has(f.id)).toBe(true);
          }
        }
        m.close();
      }),
      { numRuns: 60 },
    );
  });
});
