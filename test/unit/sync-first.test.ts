/**
 * A first sync onto an empty device in one write (issue 31 item 7; electron/memory/sync/sync-first.ts):
 * every due segment fetched first, then applied in one write that loads them the way an import loads
 * an empty store. It must hold what the segment-by-segment path holds — searchable, counted on the
 * timeline, nothing sent back — and a crash or a refused segment must leave it as that path would.
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { databasePath, type LearnedFact, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { segmentNameOf } from '../../electron/sync/segments';
import { syncOnce } from '../../electron/sync/sync-runner';
import type { SyncProgress } from '../../shared/sync-contract';
import { devicesClosedAfterEach, markingCipher, memoryTarget, syncOf, type MemoryTarget } from '../fixtures/sync-devices';
import { fileMemories } from '../fixtures/file-memories';

const device = devicesClosedAfterEach();
const files = fileMemories('first-sync');

const OBJECTS = ['tea', 'coffee', 'water', 'matcha', 'cocoa', 'lemonade'];
const tell = (m: Memory, subject: string, object: string) =>
  m.facts.observe([{ subject, predicate: 'likes', object, fact: `${subject} likes ${object}`, reference_time: '2026-09-01T05:00:00.000Z', valid_at: '2026-09-01T00:00:00.000Z', cardinality: 'many' }]);
const factsOf = (m: Memory) => m.facts.list({}).map((f) => f.fact).sort();
const count = (m: Memory, sql: string) => databaseOf(m).prepare(sql).pluck().get() as number;
const segmentsOn = (target: MemoryTarget) => [...target.files.keys()].filter((name) => name.includes('/segments/')).length;
/** This process's first-sync spools (an in-memory store's are in the system's temporary folder). */
const spools = () => {
  const dir = join(tmpdir(), 'tempora-sync-spool');
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith(`${process.pid}-`)) : [];
};

/** Two devices that each told three things, uploaded a segment a record: many segments on the target. */
async function twoDevicesUploaded(): Promise<{ target: MemoryTarget; a: Memory; b: Memory }> {
  const [a, b] = [device(), device()];
  const target = memoryTarget();
  OBJECTS.slice(0, 3).forEach((o) => tell(a, 'Sato', o));
  OBJECTS.slice(3).forEach((o) => tell(b, 'Kato', o));
  await syncOnce(syncOf(a), target, markingCipher, { segmentRows: 1 });
  await syncOnce(syncOf(b), target, markingCipher, { segmentRows: 1 });
  return { target, a, b };
}

describe('a first sync onto an empty device', () => {
  it('applies every segment in one write, and the memory is the one the segment-by-segment path makes', async () => {
    const { target } = await twoDevicesUploaded();
    const before = spools();
    const [bulk, each, oneThread] = [device(), device(), device()];
    const phases: SyncProgress['phase'][] = [];
    // Its segments checked on a worker thread; the same first sync checking them in this thread; segment by segment.
    const report = await syncOnce(syncOf(bulk), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1, onProgress: (p) => phases.push(p.phase) });
    await syncOnce(syncOf(oneThread), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: Infinity });
    await syncOnce(syncOf(each), target, markingCipher, { firstSyncInOneWrite: 1_000 });

    const segments = segmentsOn(target);
    expect(segments).toBeGreaterThan(6);
    expect(report.applied).toHaveLength(segments);
    expect(report.refused).toEqual([]);
    expect(phases).toEqual([...Array<string>(segments).fill('download'), ...Array<string>(segments).fill('apply')]);
    expect(factsOf(bulk)).toEqual(factsOf(each));
    expect(factsOf(oneThread)).toEqual(factsOf(each));
    expect(factsOf(bulk)).toHaveLength(6);
    // Built once at the end: searchable, counted, nothing queued to be sent back, the spool gone.
    expect(bulk.facts.search('Who likes matcha?', { limit: 1 })[0]?.fact.fact).toBe('Kato likes matcha');
    expect(count(bulk, 'SELECT sum(live) FROM live_subjects')).toBe(6);
    expect(count(bulk, 'SELECT open_n FROM timeline_totals')).toBe(6);
    expect(syncOf(bulk).status().unsent).toBe(0);
    expect(spools()).toEqual(before);
    // The larger page cache the write had is given back.
    expect(databaseOf(bulk).pragma('cache_size', { simple: true })).toBe(databaseOf(each).pragma('cache_size', { simple: true }));
    // Its triggers are back: the next write is counted and searchable as any other.
    tell(bulk, 'Sato', 'juice');
    expect(count(bulk, 'SELECT sum(live) FROM live_subjects')).toBe(7);
    expect(bulk.facts.search('Who likes juice?', { limit: 1 })[0]?.fact.fact).toBe('Sato likes juice');
    expect(syncOf(bulk).status().unsent).toBeGreaterThan(0);
  });

  it('a crash inside it leaves the store empty, and the next sync applies everything', async () => {
    const { target } = await twoDevicesUploaded();
    const c = device();
    let records = 0;
    const crash = () => {
      if (++records === 9) throw new Error('crash mid-apply');
    };
    await expect(syncOnce(syncOf(c), target, markingCipher, { firstSyncInOneWrite: 1, afterRecord: crash })).rejects.toThrow('crash mid-apply');
    expect(factsOf(c)).toEqual([]);
    expect(count(c, 'SELECT count(*) FROM episodes')).toBe(0);
    expect(syncOf(c).status().devices).toEqual([]);
    expect(count(c, "SELECT count(*) FROM sqlite_master WHERE name = 'facts_by_predicate_time'")).toBe(1);

    const report = await syncOnce(syncOf(c), target, markingCipher, { firstSyncInOneWrite: 1 });
    expect(report.applied).toHaveLength(segmentsOn(target));
    expect(factsOf(c)).toHaveLength(6);
  });

  it('a segment that does not open is refused by name; its device waits, the other applies', async () => {
    const { target, a } = await twoDevicesUploaded();
    const aId = syncOf(a).device().id;
    const first = [...target.files.keys()].filter((name) => name.includes(`${aId}/segments/`)).sort()[0]!;
    const bytes = target.files.get(first)!;
    target.files.set(first, bytes.subarray(0, bytes.length - 5)); // cut short

    const c = device();
    const report = await syncOnce(syncOf(c), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1 });
    expect(report.refused).toHaveLength(1);
    expect(report.refused[0]).toContain(first);
    expect(factsOf(c)).toEqual(['Kato likes cocoa', 'Kato likes lemonade', 'Kato likes matcha']);
    expect(syncOf(c).cursor(aId)).toBe(0);

    target.files.set(first, bytes); // put right: the next sync (no longer onto an empty store) applies the rest
    expect((await syncOnce(syncOf(c), target, markingCipher, { firstSyncInOneWrite: 1 })).refused).toEqual([]);
    expect(factsOf(c)).toHaveLength(6);
  });

  it('a segment from a newer format is refused in words inside the write; the others apply', async () => {
    const { target } = await twoDevicesUploaded();
    const stranger = 'f'.repeat(32);
    const name = segmentNameOf(stranger, 1, 'a'.repeat(64));
    target.files.set(name, markingCipher.seal(name, gzipSync(Buffer.from(`${JSON.stringify({ format: 99, device: stranger, deviceName: 'future', seq: 1 })}\n`))) as Uint8Array);
    const c = device();
    const report = await syncOnce(syncOf(c), target, markingCipher, { firstSyncInOneWrite: 1, workersFrom: 1 });
    expect(report.refused).toEqual([`The segment ${name} was written by a newer Tempora (format 99; this one reads 1): update Tempora on this device.`]);
    expect(factsOf(c)).toHaveLength(6);
    expect(syncOf(c).cursor(stranger)).toBe(0);
  });

  it('on disk, spools beside the memory and copies its WAL into the file on a worker after the write', async () => {
    const { target } = await twoDevicesUploaded();
    const dir = files.dir();
    const c = files.open(dir);
    // The spool goes beside the memory's file; one a killed process left there goes too.
    const spoolDir = `${databasePath(dir)}.sync-spool`;
    mkdirSync(join(spoolDir, '999999999-abandoned'), { recursive: true });
    writeFileSync(join(spoolDir, '999999999-abandoned', '0'), 'a segment');
    const report = await syncOnce(syncOf(c), target, markingCipher, { firstSyncInOneWrite: 1 });
    expect(readdirSync(spoolDir)).toEqual([]);
    expect(report.applied.length).toBeGreaterThan(6);
    const db = databaseOf(c);
    // Off while the worker copies (else the next write's commit would copy it all on this thread).
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    // settled() waits for the worker's copy: every page is in the file (the idle checkpoint comes only 2 s after the write).
    await c.settled();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const size = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    expect(statSync(databasePath(dir)).size).toBe(size);
    expect(factsOf(c)).toHaveLength(6);
  });

  it('a message forgotten on another device while its learning was redone: the claims citing it go inside the write too', async () => {
    // The write builds what only a forget reads (each claim's messages, two indexes) when its first
    // forget comes, not as every claim goes in: the forget must still find the claims before it.
    // The devices' segments apply in the order of their ids: the learner's first, then the forget.
    const [x, y] = [device(), device()];
    const [a, b] = syncOf(x).device().id < syncOf(y).device().id ? [x, y] : [y, x];
    const target = memoryTarget();
    tell(a, 'Kato', 'coffee');
    const said = '2026-09-02T05:00:00.000Z';
    const { episode, job } = a.messages.append({ role: 'user', content: 'Sato likes tea', time: said, conversation: 'c1' });
    const learned: LearnedFact = { subject: { kind: 'new', name: 'Sato', type: 'person' }, object: { kind: 'literal', value: 'tea' }, predicate: 'likes', fact: 'Sato likes tea', cardinality: 'many', validAt: said, validPrecision: 'day', end: null, endsExisting: null, endPrecision: 'day', fromAssistant: false, duplicateOf: null, contradicts: [] };
    a.messages.applyIngestion(job!.id, { episodeId: episode.id, referenceTime: said, confirmedEpisodeId: null, facts: [learned] }, { modelCalls: 1, promptTokens: 1, completionTokens: 1 });
    await syncOnce(syncOf(a), target, markingCipher);
    await syncOnce(syncOf(b), target, markingCipher);
    b.messages.forget(episode.id);
    await syncOnce(syncOf(b), target, markingCipher);
    // Before it hears of the forget, the learner takes the learning back and applies it again: a
    // claim citing the message that the forgetting device never held.
    a.messages.undoLearning(episode.id);
    a.messages.redoLearning(episode.id);
    await syncOnce(syncOf(a), target, markingCipher, { from: () => false });

    const [bulk, each] = [device(), device()];
    await syncOnce(syncOf(bulk), target, markingCipher, { firstSyncInOneWrite: 1 });
    await syncOnce(syncOf(each), target, markingCipher, { firstSyncInOneWrite: 1_000 });
    expect(factsOf(each)).toEqual(['Kato likes coffee']);
    expect(factsOf(bulk)).toEqual(factsOf(each));
    expect(count(bulk, 'SELECT count(*) FROM claims')).toBe(1);
    // What the forget built is whole: every claim's messages recorded, once, and kept from then on.
    expect(count(bulk, 'SELECT count(*) FROM claim_episodes')).toBe(1);
    expect(count(bulk, "SELECT count(*) FROM sqlite_master WHERE name IN ('claims_by_end_by', 'facts_by_subject_time', 'claims_episodes_insert')")).toBe(3);
    tell(bulk, 'Ito', 'soda');
    expect(count(bulk, 'SELECT count(*) FROM claim_episodes')).toBe(2);
  });

  it('while the segments only add, each slot is resolved once: no version is written and replaced inside the write (up to a bound)', async () => {
    // Where Sato lives, said in three segments: the segment-by-segment path resolves the slot three
    // times (closing a version twice); one write that gathers the claims writes the two spans once.
    const a = device();
    const target = memoryTarget();
    const live = (city: string, day: number) =>
      a.facts.observe([{ subject: 'Sato', predicate: 'lives_in', object: city, fact: `Sato lives in ${city}`, reference_time: `2026-09-0${day}T05:00:00.000Z`, valid_at: `2026-09-0${day}T00:00:00.000Z`, cardinality: 'one' }]);
    live('Tokyo', 1);
    await syncOnce(syncOf(a), target, markingCipher);
    live('Osaka', 3);
    await syncOnce(syncOf(a), target, markingCipher);
    tell(a, 'Sato', 'tea');
    await syncOnce(syncOf(a), target, markingCipher);

    const [bulk, each, capped] = [device(), device(), device()];
    await syncOnce(syncOf(bulk), target, markingCipher, { firstSyncInOneWrite: 1 });
    await syncOnce(syncOf(each), target, markingCipher, { firstSyncInOneWrite: 1_000 });
    // Gathering at most one claim: Tokyo's is resolved before the second segment, the rest go one by one.
    await syncOnce(syncOf(capped), target, markingCipher, { firstSyncInOneWrite: 1, gatherAtMost: 1 });
    const spans = (m: Memory) =>
      databaseOf(m)
        .prepare<[], { fact: string; valid_at: string; invalid_at: string | null }>('SELECT fact, valid_at, invalid_at FROM facts WHERE expired_at IS NULL')
        .all()
        .map((f) => `${f.fact} ${f.valid_at} ${f.invalid_at ?? '…'}`)
        .sort();
    expect(spans(bulk)).toEqual(['Sato likes tea 2026-09-01T00:00:00.000Z …', 'Sato lives in Osaka 2026-09-03T00:00:00.000Z …', 'Sato lives in Tokyo 2026-09-01T00:00:00.000Z 2026-09-03T00:00:00.000Z']);
    expect(spans(bulk)).toEqual(spans(each));
    expect(count(each, 'SELECT count(*) FROM facts WHERE expired_at IS NOT NULL')).toBe(1);
    expect(count(bulk, 'SELECT count(*) FROM facts WHERE expired_at IS NOT NULL')).toBe(0);
    expect(spans(capped)).toEqual(spans(each));
    expect(count(capped, 'SELECT count(*) FROM facts WHERE expired_at IS NOT NULL')).toBe(1);
    // The Osaka version names the one it ended, as on the other path.
    const ended = (m: Memory) => count(m, "SELECT count(*) FROM facts f JOIN facts n ON n.id = f.invalidated_by WHERE f.fact = 'Sato lives in Tokyo' AND f.expired_at IS NULL AND n.fact = 'Sato lives in Osaka'");
    expect(ended(bulk)).toBe(1);
    expect(ended(each)).toBe(1);
    expect(ended(capped)).toBe(1);
  });

  it('a segment that takes a claim back ends the gathering: what was gathered is stored, then read', async () => {
    // The edit sends the old claim's uid taken back: it must find that claim stored, through the
    // indexes a resolver reads, which the write builds only then.
    const a = device();
    const target = memoryTarget();
    tell(a, 'Sato', 'tea');
    await syncOnce(syncOf(a), target, markingCipher);
    const [held] = a.facts.list({});
    a.facts.edit(held!.id, { object: 'coffee', fact: 'Sato likes coffee' });
    await syncOnce(syncOf(a), target, markingCipher);

    const [bulk, each] = [device(), device()];
    const built: number[] = [];
    const indexed = () => count(bulk, "SELECT count(*) FROM sqlite_master WHERE name = 'claims_by_sync_id'");
    await syncOnce(syncOf(bulk), target, markingCipher, { firstSyncInOneWrite: 1, afterRecord: () => built.push(indexed()) });
    await syncOnce(syncOf(each), target, markingCipher, { firstSyncInOneWrite: 1_000 });
    expect(factsOf(each)).toEqual(['Sato likes coffee']);
    expect(factsOf(bulk)).toEqual(factsOf(each));
    expect(count(bulk, 'SELECT count(*) FROM claims')).toBe(1);
    // Not built while the first segment's records went in; built before the second's.
    expect(built[0]).toBe(0);
    expect(built.at(-1)).toBe(1);
  });

  it('a claim two devices both sent (the same export imported on each) is placed once', async () => {
    const [source, b, c] = [device(), device(), device()];
    OBJECTS.slice(0, 2).forEach((o) => tell(source, 'Sato', o));
    const doc = JSON.parse(JSON.stringify(source.transfer.export())) as unknown;
    b.transfer.import(structuredClone(doc));
    c.transfer.import(structuredClone(doc));
    const target = memoryTarget();
    await syncOnce(syncOf(b), target, markingCipher);
    await syncOnce(syncOf(c), target, markingCipher);
    const [bulk, each] = [device(), device()];
    await syncOnce(syncOf(bulk), target, markingCipher, { firstSyncInOneWrite: 1 });
    await syncOnce(syncOf(each), target, markingCipher, { firstSyncInOneWrite: 1_000 });
    expect(count(each, 'SELECT count(*) FROM claims')).toBe(2);
    expect(count(bulk, 'SELECT count(*) FROM claims')).toBe(2);
    expect(factsOf(bulk)).toEqual(['Sato likes coffee', 'Sato likes tea']);
  });

  it('onto a store that already holds something, the segments go one write each', async () => {
    const { target } = await twoDevicesUploaded();
    const c = device();
    tell(c, 'Ito', 'soda');
    const phases = new Set<string>();
    await syncOnce(syncOf(c), target, markingCipher, { firstSyncInOneWrite: 1, onProgress: (p) => phases.add(p.phase) });
    expect(phases.has('download')).toBe(false);
    expect(factsOf(c)).toHaveLength(7);
  });
});
