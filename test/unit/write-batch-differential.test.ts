/**
 * One differential property pins the rules and their optimisation together (issue 26): random
 * streams of claims — explicit ends, ties at equal valid_at, the same object twice, judged
 * contradictions, edits, closes, forgets, undo and redo of a message — batched into random writes (one observe file, one message), checked after every write
 * against a reference that replays each slot whole from the claims it holds (temporal-rules.ts):
 * - valid time: the facts held now are exactly the spans of the whole-slot replay, each holding the
 *   claims of its span;
 * - system time: what was held after each earlier write is what "known at" that write's time
 *   answers now (less what was forgotten since);
 * - one version per write: no version is created and expired by the same write, and every pointer
 *   names a version that exists.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { objectKeyOf, openMemory, steppingClock, type LearnedFact, type Learning, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { MemoryInputError } from '../../electron/memory/memory-errors';
import { resolveSlot, type Claim } from '../../electron/memory/temporal/temporal-rules';
import type { ClaimRow } from '../../electron/memory/store/claim-rows';
import { isoFromMs, type IsoTime } from '../../shared/time';

const SUBJECTS = ['Sato', 'Tanaka'] as const;
const PREDICATES = ['manager', 'likes'] as const;
const OBJECTS = ['Acme', 'Globex', 'Initech'] as const;
const day = (d: number): IsoTime => isoFromMs(Date.UTC(2026, 8, 1 + d));
const shift = (iso: IsoTime, hours: number): IsoTime => isoFromMs(Date.parse(iso) + hours * 3_600_000);

interface ClaimSpec {
  subject: number;
  predicate: number;
  object: number;
  one: boolean;
  valid: number;
  /** Hours after valid_at the message was said (equal valid_at: the later message wins). */
  said: number;
  /** Days it lasted, or null. */
  lasts: number | null;
  prefix: 'a' | 'z';
}

type Op =
  | { kind: 'observe'; claims: ClaimSpec[] }
  | { kind: 'learn'; claims: ClaimSpec[]; contradicts: number[] }
  | { kind: 'edit'; pick: number; object: number; valid: number | null; lasts: number | null }
  | { kind: 'close'; pick: number; after: number }
  | { kind: 'forgetFact'; pick: number }
  | { kind: 'forgetEpisode'; pick: number }
  | { kind: 'undo'; pick: number }
  | { kind: 'redo'; pick: number };

const claimSpec: fc.Arbitrary<ClaimSpec> = fc.record({
  subject: fc.nat({ max: SUBJECTS.length - 1 }),
  predicate: fc.nat({ max: PREDICATES.length - 1 }),
  object: fc.nat({ max: OBJECTS.length - 1 }),
  one: fc.boolean(),
  valid: fc.nat({ max: 6 }),
  said: fc.integer({ min: 1, max: 3 }),
  lasts: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null, freq: 3 }),
  prefix: fc.constantFrom('a', 'z'),
});

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('observe' as const), claims: fc.array(claimSpec, { minLength: 1, maxLength: 5 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('learn' as const), claims: fc.array(claimSpec, { minLength: 1, maxLength: 3 }), contradicts: fc.array(fc.nat(), { maxLength: 2 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), object: fc.nat({ max: OBJECTS.length - 1 }), valid: fc.option(fc.nat({ max: 6 }), { nil: null }), lasts: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close' as const), pick: fc.nat(), after: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgetFact' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgetEpisode' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redo' as const), pick: fc.nat() }) },
  // Not drawn yet: a move to a fresh store (export → import) mid-way breaks the replay after judged
  // contradictions and edits in one-valued slots (an export does not carry every end faithfully;
  // see the issue notes of 2026-12-02).
);


const text = (c: ClaimSpec) => `${c.prefix} ${SUBJECTS[c.subject]} ${PREDICATES[c.predicate]} ${OBJECTS[c.object]}`;

function observation(c: ClaimSpec) {
  const validAt = day(c.valid);
  return {
    subject: SUBJECTS[c.subject]!,
    predicate: PREDICATES[c.predicate]!,
    object: OBJECTS[c.object]!,
    fact: text(c),
    reference_time: shift(validAt, c.said),
    valid_at: validAt,
    invalid_at: c.lasts === null ? null : day(c.valid + c.lasts),
    cardinality: c.one ? 'one' : 'many',
  };
}

function learnedFact(c: ClaimSpec, contradicts: string[]): LearnedFact {
  return {
    subject: { kind: 'new', name: SUBJECTS[c.subject]!, type: 'person' },
    object: { kind: 'literal', value: OBJECTS[c.object]! },
    predicate: PREDICATES[c.predicate]!,
    fact: text(c),
    cardinality: c.one ? 'one' : 'many',
    validAt: day(c.valid),
    validPrecision: 'day',
    end: c.lasts === null ? null : day(c.valid + c.lasts),
    endsExisting: null,
    endPrecision: 'day',
    fromAssistant: false,
    duplicateOf: null,
    contradicts,
  };
}

const usage = { modelCalls: 1, promptTokens: 1, completionTokens: 1 };

interface Run {
  m: Memory;
  /** Messages said so far, in every store of the run (a message said twice is one message). */
  said: number;
  learned: string[];
  undone: string[];
  episodes: string[];
  /** After each write: the time of its commit and the versions held then. */
  snapshots: { at: IsoTime; ids: string[] }[];
}

const pickOf = <T,>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

const liveRows = (m: Memory) =>
  databaseOf(m)
    .prepare<[], { id: string; subject_id: string; predicate: string; object_id: string | null; object_literal: string | null; valid_at: IsoTime; invalid_at: IsoTime | null; end_kind: string; created_at: string }>(
      'SELECT id, subject_id, predicate, object_id, object_literal, valid_at, invalid_at, end_kind, created_at FROM facts WHERE expired_at IS NULL ORDER BY id',
    )
    .all();

/** One write of the stream; a refusal in words (an edit that changes nothing, an end before a start) changes nothing. */
function apply(run: Run, o: Op): void {
  const { m } = run;
  const live = liveRows(m);
  const tolerate = (write: () => unknown) => {
    try {
      write();
    } catch (error) {
      if (!(error instanceof MemoryInputError)) throw error;
    }
  };
  switch (o.kind) {
    case 'observe': {
      // One write gives one slot one cardinality (observe.ts oneCardinalityPerSlot): a write whose
      // lines about a slot disagree is refused and changes nothing; then the same write, each slot
      // taking its first line's cardinality, is made. (Learned facts still mix them within a write.)
      const first = new Map<string, boolean>();
      for (const c of o.claims) if (!first.has(`${c.subject}|${c.predicate}`)) first.set(`${c.subject}|${c.predicate}`, c.one);
      const agreed = o.claims.map((c) => ({ ...c, one: first.get(`${c.subject}|${c.predicate}`)! }));
      if (agreed.some((c, i) => c.one !== o.claims[i]!.one)) {
        const claimCount = () => databaseOf(m).prepare('SELECT COUNT(*) FROM claims').pluck().get();
        const before = [live, claimCount()];
        expect(() => m.facts.observe(o.claims.map(observation))).toThrow(MemoryInputError);
        expect([liveRows(m), claimCount()]).toEqual(before);
      }
      run.episodes.push(...m.facts.observe(agreed.map(observation)).episodeIds);
      return;
    }
    case 'learn': {
      const said = shift(day(Math.max(...o.claims.map((c) => c.valid))), 5);
      const { episode, job } = m.messages.append({ role: 'user', content: `message ${run.said++}: ${o.claims.map(text).join('; ')}`, time: said, conversation: 'c1' });
      const contradicts = o.contradicts.map((n) => pickOf(live, n)?.id).filter((id) => id !== undefined);
      const learning: Learning = { episodeId: episode.id, referenceTime: said, confirmedEpisodeId: null, facts: o.claims.map((c, i) => learnedFact(c, i === 0 ? contradicts : [])) };
      m.messages.applyIngestion(job!.id, learning, usage);
      run.learned.push(episode.id);
      run.episodes.push(episode.id);
      return;
    }
    case 'edit': {
      const row = pickOf(live, o.pick);
      if (!row) return;
      const valid = o.valid === null ? undefined : day(o.valid);
      const end = o.lasts === null ? undefined : day((o.valid ?? new Date(row.valid_at).getUTCDate() - 1) + o.lasts);
      tolerate(() => m.facts.edit(row.id, { object: OBJECTS[o.object]!, ...(valid ? { valid_at: valid } : {}), ...(end ? { invalid_at: end } : {}) }));
      return;
    }
    case 'close': {
      const row = pickOf(live.filter((r) => r.invalid_at === null), o.pick);
      if (row) tolerate(() => m.facts.close(row.id, shift(row.valid_at, o.after * 24)));
      return;
    }
    case 'forgetFact': {
      const row = pickOf(live, o.pick);
      if (row) m.facts.forget(row.id);
      return;
    }
    case 'forgetEpisode': {
      const id = pickOf(run.episodes, o.pick);
      if (!id) return;
      run.episodes = run.episodes.filter((e) => e !== id);
      run.learned = run.learned.filter((e) => e !== id);
      run.undone = run.undone.filter((e) => e !== id);
      m.messages.forget(id);
      return;
    }
    case 'undo': {
      const id = pickOf(run.learned, o.pick);
      if (!id) return;
      m.messages.undoLearning(id);
      run.learned = run.learned.filter((e) => e !== id);
      run.undone.push(id);
      return;
    }
    case 'redo': {
      const id = pickOf(run.undone, o.pick);
      if (!id) return;
      m.messages.redoLearning(id);
      run.undone = run.undone.filter((e) => e !== id);
      run.learned.push(id);
      return;
    }
  }
}

function claimOf(row: ClaimRow): Claim<ClaimRow> {
  return {
    objectKey: objectKeyOf(row),
    validAt: row.valid_at,
    referenceTime: row.reference_time,
    end: row.end_at === null ? null : { at: row.end_at, kind: row.end_kind ?? 'explicit', by: row.end_by },
    text: row.fact,
    payload: row,
  };
}

/** Every slot replayed whole from the claims it holds: the facts held now are its spans, each holding its span's claims. */
function expectWholeSlotReplay(m: Memory): void {
  const db = databaseOf(m);
  const claims = db.prepare<[], ClaimRow>('SELECT * FROM claims ORDER BY id').all();
  const live = liveRows(m);
  const bySlot = new Map<string, ClaimRow[]>();
  for (const c of claims) bySlot.set(`${c.subject_id}|${c.predicate}`, [...(bySlot.get(`${c.subject_id}|${c.predicate}`) ?? []), c]);
  const expected: string[] = [];
  for (const slot of bySlot.values()) {
    const one = slot.some((c) => c.cardinality === 'one');
    const groups = new Map<string, ClaimRow[]>();
    for (const c of slot) groups.set(one ? '' : objectKeyOf(c), [...(groups.get(one ? '' : objectKeyOf(c)) ?? []), c]);
    for (const group of groups.values()) {
      for (const span of resolveSlot(group.map(claimOf))) {
        const holders = new Set(span.claims.map((c) => c.payload.fact_id));
        expect(holders.size, `the claims of one span are held by one fact: ${[...holders].join(', ')}`).toBe(1);
        const first = span.claims[0]!.payload;
        expected.push([[...holders][0], first.subject_id, first.predicate, span.objectKey, span.validAt, span.end?.at ?? null, span.end?.kind ?? 'open'].join('|'));
      }
    }
  }
  const held = live.map((r) => [r.id, r.subject_id, r.predicate, objectKeyOf(r), r.valid_at, r.invalid_at, r.end_kind].join('|'));
  expect(held.sort()).toEqual(expected.sort());
}

/** One version per write, and pointers that name versions that exist. */
function expectOneVersionPerWrite(m: Memory): void {
  const db = databaseOf(m);
  const transient = db.prepare<[], { id: string }>('SELECT id FROM facts WHERE expired_at IS NOT NULL AND expired_at <= created_at').all();
  expect(transient, 'versions expired by the write that created them').toEqual([]);
  const dangling = db
    .prepare<[], { id: string }>(
      `SELECT id FROM facts f WHERE (supersedes IS NOT NULL AND supersedes NOT IN (SELECT id FROM facts))
         OR (invalidated_by IS NOT NULL AND invalidated_by NOT IN (SELECT id FROM facts))
         OR lineage_id NOT IN (SELECT id FROM facts)
       UNION ALL SELECT CAST(id AS TEXT) FROM claims WHERE fact_id NOT IN (SELECT id FROM facts WHERE expired_at IS NULL)
         OR (end_kind = 'judged' AND end_by IS NOT NULL AND end_by NOT IN (SELECT id FROM facts))`,
    )
    .all();
  expect(dangling, 'pointers to versions that do not exist').toEqual([]);
}

/** What each earlier write left held is what "known at" its time answers now, less what was forgotten since. */
function expectKnownAtSnapshots(run: Run): void {
  const stored = new Set(databaseOf(run.m).prepare<[], { id: string }>('SELECT id FROM facts').all().map((r) => r.id));
  for (const snapshot of run.snapshots) {
    const known = run.m.facts.list({ knownAt: snapshot.at, history: true }).map((f) => f.id).sort();
    expect(known, `known at ${snapshot.at}`).toEqual(snapshot.ids.filter((id) => stored.has(id)).sort());
  }
}

describe('one write, one resolution: batched writes against a whole-slot replay', () => {
  it('holds on both time axes after every write of a random stream', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 14 }), (ops) => {
        const run: Run = { said: 0, m: openMemory({ dataDir: ':memory:', clock: steppingClock('2027-01-01T00:00:00.000Z') }), learned: [], undone: [], episodes: [], snapshots: [] };
        try {
          for (const o of ops) {
            apply(run, o);
            expectWholeSlotReplay(run.m);
            expectOneVersionPerWrite(run.m);
            // The write's moment: the newest system time it recorded (a write that wrote nothing adds none).
            const newest = databaseOf(run.m).prepare<[], { at: IsoTime | '' | null }>('SELECT max(max(created_at), coalesce(max(expired_at), \'\')) AS at FROM facts').get()!.at;
            if (newest) run.snapshots.push({ at: newest, ids: liveRows(run.m).map((r) => r.id) });
            expectKnownAtSnapshots(run);
          }
        } finally {
          run.m.close();
        }
      }),
      { numRuns: 200 },
    );
  });
});
