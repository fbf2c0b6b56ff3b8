/**
 * Convergence (issue 31 item 3): three devices, each its own store, write at random — observe, learn
 * a message, edit, close, forget a fact or a message, undo and redo a learning (the write paths the
 * differential test drives) — and sync through one target in random orders and subsets, now and then
 * crashing mid-apply (a throw inside a segment's write) or mid-upload (a put that fails); imports
 * (into an empty store and one in use) and review (held, approved, edited, rejected) among the writes. After a full
 * round every device's export is the same memory, device-local fields aside (docs/sync.md: versions'
 * ids, system times and history, which fact closed which), and no message written and not forgotten
 * is lost.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type LearnedFact, type Learning, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { MemoryInputError } from '../../electron/memory/memory-errors';
import { syncOnce } from '../../electron/sync/sync-runner';
import { recountConversations, recountLiveFacts } from '../../electron/memory/store/live-counts';
import { recountTimelineRows } from '../../electron/memory/store/timeline-rows';
import { indexClaimEpisodes } from '../../electron/memory/store/claim-rows';
import { markingCipher, memoryTarget, syncOf, type MemoryTarget } from '../fixtures/sync-devices';
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
  said: number;
  lasts: number | null;
}

type Write =
  | { kind: 'observe'; claims: ClaimSpec[] }
  | { kind: 'learn'; claims: ClaimSpec[]; contradicts: number[]; review?: boolean }
  | { kind: 'edit'; pick: number; object: number; valid: number | null }
  | { kind: 'close'; pick: number; after: number }
  | { kind: 'forgetFact'; pick: number }
  | { kind: 'forgetEpisode'; pick: number }
  | { kind: 'undo'; pick: number }
  | { kind: 'redo'; pick: number }
  | { kind: 'rename'; title: number }
  | { kind: 'learning'; on: boolean; forget: boolean }
  | { kind: 'import'; document: number; claims: ClaimSpec[] }
  | { kind: 'review'; on: boolean }
  | { kind: 'approve'; pick: number; edit: 'none' | 'leaveOut' | 'object'; object: number }
  | { kind: 'reject'; pick: number };

type Step = { device: number; write: Write } | { device: number; sync: { from: number[]; crashAt: number | null; dropUpload: number | null; segmentRows: number; oneWrite?: number; gatherAtMost?: number } };

const claimSpec: fc.Arbitrary<ClaimSpec> = fc.record({
  subject: fc.nat({ max: SUBJECTS.length - 1 }),
  predicate: fc.nat({ max: PREDICATES.length - 1 }),
  object: fc.nat({ max: OBJECTS.length - 1 }),
  one: fc.boolean(),
  valid: fc.nat({ max: 6 }),
  said: fc.integer({ min: 1, max: 3 }),
  lasts: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null, freq: 3 }),
});

const write: fc.Arbitrary<Write> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('observe' as const), claims: fc.array(claimSpec, { minLength: 1, maxLength: 3 }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('learn' as const), claims: fc.array(claimSpec, { minLength: 1, maxLength: 3 }), contradicts: fc.array(fc.nat(), { maxLength: 1 }), review: fc.boolean() }, { requiredKeys: ['kind', 'claims', 'contradicts'] }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), object: fc.nat({ max: OBJECTS.length - 1 }), valid: fc.option(fc.nat({ max: 6 }), { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('close' as const), pick: fc.nat(), after: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgetFact' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forgetEpisode' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('undo' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('redo' as const), pick: fc.nat() }) },
  // The conversation's title and learn setting: the latest write wins on every device.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rename' as const), title: fc.nat({ max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('learning' as const), on: fc.boolean(), forget: fc.boolean() }) },
  // Another memory's export merged in (into an empty store: the bulk load; else one write); the same
  // document may be imported on two devices.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('import' as const), document: fc.nat({ max: 1 }), claims: fc.array(claimSpec, { minLength: 1, maxLength: 3 }) }) },
  // Review before remembering (a device's own setting): learnings wait, then are approved (perhaps edited) or rejected.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('review' as const), on: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: fc.nat(), edit: fc.constantFrom('none' as const, 'leaveOut' as const, 'object' as const), object: fc.nat({ max: OBJECTS.length - 1 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reject' as const), pick: fc.nat() }) },
);

const DEVICES = 3;
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ device: fc.nat({ max: DEVICES - 1 }), write }) },
  {
    weight: 2,
    arbitrary: fc.record({
      device: fc.nat({ max: DEVICES - 1 }),
      sync: fc.record({
        from: fc.subarray([0, 1, 2]),
        crashAt: fc.option(fc.nat({ max: 6 }), { nil: null, freq: 4 }),
        // The put that fails (a dropped connection), counting from this sync's first.
        dropUpload: fc.option(fc.nat({ max: 2 }), { nil: null, freq: 4 }),
        // Small segments: a write's records split over several, uploads stopped between them.
        segmentRows: fc.constantFrom(5_000, 1, 3),
        // Onto an empty device, from how many due segments they go in as one write (sync-first.ts): both paths.
        oneWrite: fc.constantFrom(1, 4, 1_000_000),
        // How many claims that one write gathers before resolving them and going on segment by segment.
        gatherAtMost: fc.constantFrom(1_000_000, 1, 2),
      }),
    }),
  },
);

const text = (c: ClaimSpec) => `${SUBJECTS[c.subject]} ${PREDICATES[c.predicate]} ${OBJECTS[c.object]}`;

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

/**
 * The claims of one observe write, each slot taking its first line's cardinality: one write gives one
 * slot one cardinality, or is refused (observe.ts oneCardinalityPerSlot). Slots still mix them across
 * writes, devices and learned messages.
 */
function agreeing(claims: ClaimSpec[]): ClaimSpec[] {
  const first = new Map<string, boolean>();
  for (const c of claims) if (!first.has(`${c.subject}|${c.predicate}`)) first.set(`${c.subject}|${c.predicate}`, c.one);
  return claims.map((c) => ({ ...c, one: first.get(`${c.subject}|${c.predicate}`)! }));
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

interface Device {
  m: Memory;
  learned: string[];
  undone: string[];
}

interface World {
  devices: Device[];
  target: MemoryTarget;
  said: number;
  /** Every message written, and those forgotten (on any device). */
  written: Set<string>;
  /** Exports of other memories, made once each, to import. */
  documents: Map<number, ReturnType<Memory['transfer']['export']>>;
  forgotten: Set<string>;
}

const pickOf = <T,>(list: readonly T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);
const liveRows = (m: Memory) =>
  databaseOf(m).prepare<[], { id: string; valid_at: IsoTime; invalid_at: IsoTime | null }>('SELECT id, valid_at, invalid_at FROM facts WHERE expired_at IS NULL ORDER BY id').all();
const episodesOf = (m: Memory) => databaseOf(m).prepare<[], { id: string }>('SELECT id FROM episodes ORDER BY id').all().map((r) => r.id);

/** What waits for review on this device, else on the next device that has something waiting. */
function waitingOn(world: World, device: Device) {
  const from = world.devices.indexOf(device);
  for (let i = 0; i < DEVICES; i++) {
    const d = world.devices[(from + i) % DEVICES]!;
    const pending = d.m.review.pending();
    if (pending.length > 0) return { m: d.m, pending };
  }
  return null;
}

function apply(world: World, device: Device, w: Write): void {
  const { m } = device;
  const live = liveRows(m);
  const tolerate = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (!(error instanceof MemoryInputError)) throw error;
    }
  };
  switch (w.kind) {
    case 'observe':
      for (const id of m.facts.observe(agreeing(w.claims).map(observation)).episodeIds) world.written.add(id);
      return;
    case 'learn': {
      // Now and then the device reviews before remembering from this message on (the learning waits).
      if (w.review) m.review.setBeforeRemembering(true);
      const said = shift(day(Math.max(...w.claims.map((c) => c.valid))), 5);
      const { episode, job } = m.messages.append({ role: 'user', content: `message ${world.said++}: ${w.claims.map(text).join('; ')}`, time: said, conversation: 'c1' });
      world.written.add(episode.id);
      if (!job) return;
      const contradicts = w.contradicts.map((n) => pickOf(live, n)?.id).filter((id) => id !== undefined);
      const learning: Learning = { episodeId: episode.id, referenceTime: said, confirmedEpisodeId: null, facts: w.claims.map((c, i) => learnedFact(c, i === 0 ? contradicts : [])) };
      m.messages.applyIngestion(job.id, learning, { modelCalls: 1, promptTokens: 1, completionTokens: 1 });
      device.learned.push(episode.id);
      return;
    }
    case 'edit': {
      const row = pickOf(live, w.pick);
      if (row) tolerate(() => m.facts.edit(row.id, { object: OBJECTS[w.object]!, ...(w.valid === null ? {} : { valid_at: day(w.valid) }) }));
      return;
    }
    case 'close': {
      const row = pickOf(live.filter((r) => r.invalid_at === null), w.pick);
      if (row) tolerate(() => m.facts.close(row.id, shift(row.valid_at, w.after * 24)));
      return;
    }
    case 'forgetFact': {
      const row = pickOf(live, w.pick);
      if (row) m.facts.forget(row.id);
      return;
    }
    case 'forgetEpisode': {
      const id = pickOf(episodesOf(m), w.pick);
      if (!id) return;
      m.messages.forget(id);
      world.forgotten.add(id);
      return;
    }
    case 'undo': {
      const id = pickOf(device.learned.filter((e) => m.episodes.byId(e)), w.pick);
      if (!id) return;
      tolerate(() => m.messages.undoLearning(id));
      device.learned = device.learned.filter((e) => e !== id);
      device.undone.push(id);
      return;
    }
    case 'redo': {
      const id = pickOf(device.undone.filter((e) => m.episodes.byId(e)), w.pick);
      if (!id) return;
      tolerate(() => m.messages.redoLearning(id));
      device.undone = device.undone.filter((e) => e !== id);
      device.learned.push(id);
      return;
    }
    case 'rename':
      if (m.episodes.conversation('c1')) m.conversations.rename('c1', `title ${w.title}`);
      return;
    case 'learning':
      if (m.episodes.conversation('c1')) tolerate(() => m.conversations.setLearning('c1', w.on, { forget: w.forget }));
      return;
    case 'import': {
      const document = world.documents.get(w.document) ?? exportOf(w.claims, w.document);
      world.documents.set(w.document, document);
      tolerate(() => m.transfer.import(document));
      for (const e of document.episodes) if (m.episodes.byId(e.id)) world.written.add(e.id);
      return;
    }
    case 'review':
      m.review.setBeforeRemembering(w.on);
      return;
    case 'approve': {
      const on = waitingOn(world, device);
      if (!on) return;
      const { episodeId } = pickOf(on.pending, w.pick)!;
      const edits = w.edit === 'leaveOut' ? [{ index: 0, keep: false }] : w.edit === 'object' ? [{ index: 0, object: OBJECTS[w.object]! }] : [];
      tolerate(() => on.m.review.approve(episodeId, edits));
      return;
    }
    case 'reject': {
      const on = waitingOn(world, device);
      if (on) on.m.review.reject(pickOf(on.pending, w.pick)!.episodeId);
      return;
    }
  }
}

/** Another memory's export holding these observations (its clock apart from every device's). */
function exportOf(claims: ClaimSpec[], n: number) {
  const other = openMemory({ dataDir: ':memory:', clock: steppingClock(isoFromMs(Date.UTC(2026, 11, 1 + n))) });
  try {
    other.facts.observe(agreeing(claims).map(observation));
    return other.transfer.export();
  } finally {
    other.close();
  }
}

/** One sync of a device, perhaps from some devices only, perhaps crashing; a crash is caught as the app would (the next sync resumes). */
async function sync(world: World, index: number, options: { from?: number[]; crashAt?: number | null; dropUpload?: number | null; segmentRows?: number; oneWrite?: number; gatherAtMost?: number } = {}): Promise<void> {
  const ids = world.devices.map((d) => syncOf(d.m).device().id);
  const allowed = options.from ? new Set(options.from.map((i) => ids[i])) : null;
  let crashed = false;
  if (options.dropUpload !== undefined && options.dropUpload !== null) world.target.failPutAfter = options.dropUpload;
  try {
    await syncOnce(syncOf(world.devices[index]!.m), world.target, markingCipher, {
      ...(options.segmentRows ? { segmentRows: options.segmentRows } : {}),
      ...(options.oneWrite === undefined ? {} : { firstSyncInOneWrite: options.oneWrite }),
      ...(options.gatherAtMost === undefined ? {} : { gatherAtMost: options.gatherAtMost }),
      ...(allowed ? { from: (device: string) => allowed.has(device) } : {}),
      ...(options.crashAt === null || options.crashAt === undefined
        ? {}
        : {
            afterRecord: (i: number) => {
              if (!crashed && i === options.crashAt) {
                crashed = true;
                throw new Error('crash mid-apply');
              }
            },
          }),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!/crash mid-apply|dropped/.test(message)) throw error;
  } finally {
    world.target.failPutAfter = null;
  }
}

/** The memory as its export holds it, device-local fields aside: live facts, the claims behind them, messages, conversations. */
export function comparable(m: Memory) {
  const doc = m.transfer.export();
  const names = new Map(doc.entities.map((e) => [e.id, e.type === 'user' ? '(the user)' : `${e.name}/${e.type}`]));
  const live = doc.facts.filter((f) => f.expired_at === null);
  const slotOf = new Map(live.map((f) => [f.id, `${names.get(f.subject_id)}|${f.predicate}`]));
  const facts = live
    .map((f) => [slotOf.get(f.id), f.object_id === null ? f.object : names.get(f.object_id), f.fact, f.cardinality, f.valid_at, f.valid_at_precision, f.invalid_at, f.invalid_at_precision, [...f.episode_ids].sort().join(',')].join('|'))
    .sort();
  const claims = doc.claims
    .map((c) => [slotOf.get(c.fact_id), c.object_id === null ? c.object : names.get(c.object_id), c.fact, c.cardinality, c.valid_at, c.valid_at_precision, c.reference_time, c.end_at, c.end_precision, c.end_kind, [...c.episode_ids].sort().join(','), c.origin].join('|'))
    .sort();
  const episodes = doc.episodes.map((e) => JSON.stringify(e)).sort();
  const conversations = doc.conversations.map((c) => JSON.stringify({ ...c, created_at: undefined })).sort();
  return { facts, claims, episodes, conversations };
}

/** Every device syncs twice; a device still empty takes its first sync in one write (sync-first.ts). */
async function fullRound(world: World): Promise<void> {
  for (let pass = 0; pass < 2; pass++) for (let i = 0; i < DEVICES; i++) await sync(world, i, { oneWrite: 1 });
}

function newWorld(): World {
  const devices = Array.from({ length: DEVICES }, (_, i) => ({ m: openMemory({ dataDir: ':memory:', clock: steppingClock(isoFromMs(Date.UTC(2027, 0, i + 1))) }), learned: [], undone: [] }));
  return { devices, target: memoryTarget(), said: 0, written: new Set(), forgotten: new Set(), documents: new Map() };
}

export async function runSteps(steps: Step[]): Promise<World> {
  const world = newWorld();
  for (const s of steps) {
    if ('write' in s) apply(world, world.devices[s.device]!, s.write);
    else await sync(world, s.device, s.sync);
  }
  await fullRound(world);
  return world;
}

/** Runs the steps and a full round, then expects every device to hold the same memory (closing them either way). */
async function expectStepsConverge(steps: Step[]): Promise<void> {
  const world = await runSteps(steps);
  try {
    expectConverged(world);
  } finally {
    for (const d of world.devices) d.m.close();
  }
}

export function expectConverged(world: World): void {
  const [first, ...rest] = world.devices.map((d) => comparable(d.m));
  for (const other of rest) expect(other).toEqual(first);
  const kept = [...world.written].filter((id) => !world.forgotten.has(id)).sort();
  for (const d of world.devices) expect(episodesOf(d.m)).toEqual(kept);
  for (const d of world.devices) expectDerivedWhole(d.m);
}

/**
 * What a store derives from its rows — full-text indexes, live counts, the timeline's rows, message
 * counts, each claim's messages — is what counting again from the rows gives, on every device: triggers kept it as segments
 * went in one at a time, or a first sync in one write built it once at its end.
 */
function expectDerivedWhole(m: Memory): void {
  const db = databaseOf(m);
  for (const index of ['facts_fts', 'episodes_fts']) db.prepare(`INSERT INTO ${index} (${index}, rank) VALUES ('integrity-check', 1)`).run();
  const derived = () => ({
    subjects: db.prepare('SELECT * FROM live_subjects ORDER BY subject_id').all(),
    predicates: db.prepare('SELECT * FROM live_predicates ORDER BY predicate, cardinality').all(),
    slots: db.prepare('SELECT * FROM timeline_slots ORDER BY subject_id, predicate').all(),
    timeline: db.prepare('SELECT subject_id, name, mine, slots, n, open_n, first, last FROM timeline_subjects ORDER BY subject_id').all(),
    hours: db.prepare('SELECT * FROM timeline_hours ORDER BY hour').all(),
    totals: db.prepare('SELECT * FROM timeline_totals').all(),
    conversations: db.prepare('SELECT id, message_count, last_message_at FROM conversations ORDER BY id').all(),
    claimEpisodes: db.prepare('SELECT episode_id, claim_id FROM claim_episodes ORDER BY episode_id, claim_id').all(),
  });
  const kept = derived();
  let counted: ReturnType<typeof derived> | undefined;
  db.exec('SAVEPOINT recount');
  try {
    recountLiveFacts(db);
    recountConversations(db);
    recountTimelineRows(db);
    db.exec('DELETE FROM claim_episodes');
    indexClaimEpisodes(db);
    counted = derived();
  } finally {
    db.exec('ROLLBACK TO recount');
    db.exec('RELEASE recount');
  }
  expect(kept).toEqual(counted);
}

describe('sync: three devices converge', () => {
  it('a message forgotten on a device that never got the claims citing it: every device drops them alike', async () => {
    // Found by the property: the claim's segment was not uploaded yet when another device forgot its message.
    await expectStepsConverge([
      { device: 2, write: { kind: 'observe', claims: [{ subject: 0, predicate: 0, object: 0, one: false, valid: 0, said: 1, lasts: null }] } },
      { device: 2, sync: { from: [], crashAt: null, dropUpload: 2, segmentRows: 1 } },
      { device: 1, sync: { from: [2], crashAt: null, dropUpload: null, segmentRows: 5000 } },
      { device: 1, write: { kind: 'forgetEpisode', pick: 0 } },
    ]);
  });

  it('a fact forgotten on a device that never got its other claim: the version that keeps it cites only what still states it', async () => {
    // Found by the property (CI, seed -876873885): device 2 ends its observed fact by a learning (a judged end
    // citing the message); device 1, holding only the observation, forgets the fact. On device 2 the version
    // kept by the judged end went on citing the forgotten observation's message.
    const claim = { subject: 0, predicate: 0, object: 0, one: false, valid: 0, said: 1, lasts: null };
    await expectStepsConverge([
      { device: 2, write: { kind: 'observe', claims: [claim] } },
      { device: 2, sync: { from: [], crashAt: null, dropUpload: null, segmentRows: 5000 } },
      { device: 2, write: { kind: 'learn', claims: [claim], contradicts: [0] } },
      { device: 1, sync: { from: [2], crashAt: null, dropUpload: null, segmentRows: 5000 } },
      { device: 1, write: { kind: 'forgetFact', pick: 0 } },
    ]);
  });

  it('a message imported on two devices and forgotten on one stays forgotten there when the other sends it', async () => {
    // Found by the property (seed -1914337042): the forgetting device applied the other's copy of the
    // message and its claim after its own forget, and held them again; every other device dropped them.
    const claim = { subject: 0, predicate: 0, object: 0, one: false, valid: 0, said: 1, lasts: null };
    await expectStepsConverge([
      { device: 0, write: { kind: 'import', document: 1, claims: [claim] } },
      { device: 1, write: { kind: 'import', document: 1, claims: [claim] } },
      { device: 1, write: { kind: 'forgetEpisode', pick: 0 } },
    ]);
  });

  it('a fact observed on one device and imported on two: one version citing both messages everywhere', async () => {
    // Found by the property (CI, 2026-12-06, seed -2126195575).
    const claim = { subject: 0, predicate: 0, object: 0, one: false, valid: 0, said: 1, lasts: null };
    await expectStepsConverge([
      { device: 0, write: { kind: 'observe', claims: [claim] } },
      { device: 1, write: { kind: 'import', document: 1, claims: [claim] } },
      { device: 0, write: { kind: 'import', document: 1, claims: [claim] } },
      { device: 0, write: { kind: 'undo', pick: 0 } },
    ]);
  });

  it('after a full round every device holds the same memory, whatever the writes, orders, subsets and crashes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 16 }), expectStepsConverge),
      { numRuns: Number(process.env.SYNC_RUNS ?? 60) },
    );
  }, 600_000);
});
