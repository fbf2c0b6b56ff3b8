/**
 * This device's own segments on a target that its memory has no record of (sync-runner.ts
 * takeBackOwn): a copy of the memory restored from a backup, or one back on a target it left, takes
 * back what its later self sent and numbers its new segments after those — a segment under a number
 * the others applied already would never reach them — while a put cut short after it landed is still
 * only replaced (nothing taken back, each number once).
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { syncOnce } from '../../electron/sync/sync-runner';
import { SyncTargetError } from '../../electron/sync/sync-target';
import type { IsoTime } from '../../shared/time';
import { devicesClosedAfterEach, markingCipher, memoryTarget, syncOf, type MemoryTarget } from '../fixtures/sync-devices';

const device = devicesClosedAfterEach();
let dir: string;
const opened: Memory[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-own-segments-'));
});
afterEach(() => {
  for (const m of opened.splice(0)) m.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A memory on disk (a backup is a copy of its folder), on its own test clock from `start`. */
function onDisk(name: string, start: IsoTime = '2027-01-01T00:00:00.000Z'): Memory {
  const m = openMemory({ dataDir: join(dir, name), clock: steppingClock(start) });
  opened.push(m);
  return m;
}
function closed(m: Memory): void {
  opened.splice(opened.indexOf(m), 1);
  m.close();
}

const tell = (m: Memory, object: string) =>
  m.facts.observe([{ subject: 'Sato', predicate: 'likes', object, fact: `Sato likes ${object}`, reference_time: '2026-09-01T05:00:00.000Z', valid_at: '2026-09-01T00:00:00.000Z', cardinality: 'many' }]);
const factsOf = (m: Memory) => m.facts.list({}).map((f) => f.fact).sort();
const sync = (m: Memory, target: MemoryTarget) => syncOnce(syncOf(m), target, markingCipher);
const numbersOf = (target: MemoryTarget, m: Memory) =>
  [...target.files.keys()].filter((name) => name.includes(syncOf(m).device().id)).map((name) => Number(name.split('/').at(-1)!.slice(0, 8))).sort((x, y) => x - y);
const targetText = (target: MemoryTarget) => [...target.files.values()].map((bytes) => Buffer.from(bytes).toString('latin1')).join('\n');

describe('own segments this memory has no record of', () => {
  it('a restored copy takes back its later self’s writes and forgets, and its own forget still rewrites', async () => {
    const target = memoryTarget();
    let a = onDisk('a');
    const b = device();
    tell(a, 'tea');
    tell(a, 'matcha');
    await sync(a, target);
    closed(a);
    cpSync(join(dir, 'a'), join(dir, 'backup'), { recursive: true });

    // Its later self: a new fact, and one forgotten (its first segment is rewritten under a new name).
    a = onDisk('a', '2027-02-01T00:00:00.000Z');
    tell(a, 'sencha');
    a.facts.forget(a.facts.list({}).find((f) => f.fact === 'Sato likes tea')!.id, { withSources: true });
    expect((await sync(a, target)).rewritten).toBe(1);
    await sync(b, target);
    closed(a);

    rmSync(join(dir, 'a'), { recursive: true });
    cpSync(join(dir, 'backup'), join(dir, 'a'), { recursive: true });
    a = onDisk('a', '2027-03-01T00:00:00.000Z');
    expect(factsOf(a)).toEqual(['Sato likes matcha', 'Sato likes tea']);
    tell(a, 'kukicha');
    a.facts.forget(a.facts.list({}).find((f) => f.fact === 'Sato likes matcha')!.id, { withSources: true });
    const report = await sync(a, target);
    expect(report.tookBack).toBeGreaterThan(0);
    expect(report.refused).toEqual([]);
    expect(factsOf(a)).toEqual(['Sato likes kukicha', 'Sato likes sencha']);
    await sync(b, target);
    expect(factsOf(b)).toEqual(factsOf(a));
    expect(targetText(target)).not.toMatch(/matcha|likes tea/);
    expect(numbersOf(target, a)).toEqual([1, 2, 3]);
    expect((await sync(a, target)).tookBack).toBe(0);
  });

  it('a restored copy whose unsent writes its later self forgot sends no empty segment', async () => {
    const target = memoryTarget();
    let a = onDisk('a');
    tell(a, 'tea');
    await sync(a, target);
    tell(a, 'ramen');
    closed(a);
    cpSync(join(dir, 'a'), join(dir, 'backup'), { recursive: true }); // ramen not sent yet
    a = onDisk('a', '2027-02-01T00:00:00.000Z');
    await sync(a, target);
    a.facts.forget(a.facts.list({}).find((f) => f.fact === 'Sato likes ramen')!.id, { withSources: true });
    await sync(a, target);
    closed(a);
    rmSync(join(dir, 'a'), { recursive: true });
    cpSync(join(dir, 'backup'), join(dir, 'a'), { recursive: true });
    a = onDisk('a', '2027-03-01T00:00:00.000Z');
    const report = await sync(a, target);
    expect(report.tookBack).toBeGreaterThan(0);
    expect(factsOf(a)).toEqual(['Sato likes tea']);
    // What it still had to send was sent by its later self, or forgotten since: nothing goes up.
    expect(report.sent).toBe(0);
    const numbers = numbersOf(target, a);
    expect(numbers).toEqual([1, 2, 3]);
    expect((await sync(a, target)).sent).toBe(0);
    expect(numbersOf(target, a)).toEqual(numbers);
  });

  it('a device back on a target it left numbers its segments after those it wrote there', async () => {
    const [first, second] = [memoryTarget(), memoryTarget()];
    const [a, b] = [device(), device()];
    const onto = (target: MemoryTarget) => (m: Memory) => syncOnce(syncOf(m), target, markingCipher, { now: () => '2027-01-01T00:00:00.000Z' });
    tell(a, 'tea');
    first.files.set('keycheck', new Uint8Array([1]));
    second.files.set('keycheck', new Uint8Array([2]));
    await onto(first)(a);
    tell(a, 'coffee');
    await onto(first)(a);
    await onto(first)(b);
    expect((await onto(second)(a)).startedOver).toBe(true);
    tell(a, 'water');
    const back = await onto(first)(a);
    expect(back.startedOver).toBe(true);
    // What it had sent there before (tea, coffee) is not sent twice: only water (its conversation, message and claim).
    expect(back.sent).toBe(3);
    expect(numbersOf(first, a)).toEqual([1, 2, 3]);
    await onto(first)(b);
    expect(factsOf(b)).toEqual(['Sato likes coffee', 'Sato likes tea', 'Sato likes water']);
  });

  it('back on a target it left, a conversation renamed since is sent again in its new name', async () => {
    const [first, second] = [memoryTarget(), memoryTarget()];
    const [a, b] = [device(), device()];
    const onto = (target: MemoryTarget) => (m: Memory) => syncOnce(syncOf(m), target, markingCipher, { now: () => '2027-01-01T00:00:00.000Z' });
    tell(a, 'tea');
    first.files.set('keycheck', new Uint8Array([1]));
    second.files.set('keycheck', new Uint8Array([2]));
    await onto(first)(a);
    await onto(second)(a);
    const id = a.facts.list({})[0]!.episode_ids[0]!;
    const conversation = a.episodes.byId(id)!.conversation_id!;
    a.conversations.rename(conversation, 'Tea notes');
    await onto(second)(a);
    const back = await onto(first)(a);
    expect(back.sent).toBe(1);
    await onto(first)(b);
    expect(b.episodes.conversation(conversation)?.title).toBe('Tea notes');
  });

  it('a put that landed but was never recorded is replaced: nothing taken back, each number once', async () => {
    const target = memoryTarget();
    const [a, b] = [device(), device()];
    tell(a, 'tea');
    const put = target.put.bind(target);
    target.put = async (name, bytes) => {
      await put(name, bytes);
      target.put = put;
      throw new SyncTargetError('unreachable', 'the connection dropped after the file was written');
    };
    await expect(sync(a, target)).rejects.toThrow(/dropped/);
    tell(a, 'coffee');
    const report = await sync(a, target);
    expect(report.tookBack).toBe(0);
    expect(numbersOf(target, a)).toEqual([1]);
    await sync(b, target);
    expect(factsOf(b)).toEqual(['Sato likes coffee', 'Sato likes tea']);
  });

  /** A's later self wrote segments 1–3 (tea; sencha; hojicha); a copy from before 2 and 3 is restored. */
  async function restoredBehind(target: MemoryTarget): Promise<{ a: Memory; b: Memory; id: string }> {
    let a = onDisk('a');
    const b = device();
    tell(a, 'tea');
    await sync(a, target);
    closed(a);
    cpSync(join(dir, 'a'), join(dir, 'backup'), { recursive: true });
    a = onDisk('a', '2027-02-01T00:00:00.000Z');
    for (const object of ['sencha', 'hojicha']) {
      tell(a, object);
      await sync(a, target);
    }
    await sync(b, target);
    const id = syncOf(a).device().id;
    closed(a);
    rmSync(join(dir, 'a'), { recursive: true });
    cpSync(join(dir, 'backup'), join(dir, 'a'), { recursive: true });
    a = onDisk('a', '2027-03-01T00:00:00.000Z');
    tell(a, 'kukicha');
    return { a, b, id };
  }
  const fileOf = (target: MemoryTarget, id: string, seq: number) => [...target.files.keys()].find((name) => name.includes(`${id}/segments/${String(seq).padStart(8, '0')}-`))!;

  it('a later copy’s segment missing before a later one: nothing is sent until it comes, then all is taken back in order', async () => {
    const target = memoryTarget();
    const { a, b, id } = await restoredBehind(target);
    const second = fileOf(target, id, 2);
    const bytes = target.files.get(second)!;
    target.files.delete(second); // a synced folder still bringing it
    const early = await sync(a, target);
    expect(early.waiting).toEqual([expect.stringMatching(/^Segment 2 of this device, written by a later copy of this memory, is not on the target/)]);
    expect(early.sent).toBe(0);
    expect(numbersOf(target, a)).toEqual([1, 3]);
    target.files.set(second, bytes);
    const late = await sync(a, target);
    expect(late.waiting).toEqual([]);
    expect(factsOf(a)).toEqual(['Sato likes hojicha', 'Sato likes kukicha', 'Sato likes sencha', 'Sato likes tea']);
    expect(numbersOf(target, a)).toEqual([1, 2, 3, 4]);
    await sync(b, target);
    expect(factsOf(b)).toEqual(factsOf(a));
  });

  it('a later copy’s segment that cannot be read is refused, nothing is sent, and it is taken back once it can be', async () => {
    const target = memoryTarget();
    const { a, b, id } = await restoredBehind(target);
    const second = fileOf(target, id, 2);
    const bytes = target.files.get(second)!;
    target.files.set(second, bytes.subarray(0, bytes.length - 10));
    const early = await sync(a, target);
    expect(early.refused).toEqual([expect.stringContaining(second)]);
    expect(early.refused[0]).toMatch(/written by a later copy of this memory: this device sends nothing until it can be read\.$/);
    expect(early.sent).toBe(0);
    target.files.set(second, bytes);
    expect((await sync(a, target)).refused).toEqual([]);
    expect(factsOf(a)).toEqual(['Sato likes hojicha', 'Sato likes kukicha', 'Sato likes sencha', 'Sato likes tea']);
    expect(numbersOf(target, a)).toEqual([1, 2, 3, 4]);
    await sync(b, target);
    expect(factsOf(b)).toEqual(factsOf(a));
  });

  it('a put that failed before the backup does not make the later copy’s file of that number a stray', async () => {
    const target = memoryTarget();
    let a = onDisk('a');
    const b = device();
    tell(a, 'tea');
    await sync(a, target);
    tell(a, 'sencha');
    target.failPutAfter = 0; // offline: the put of segment 2 fails, its mark stays
    await expect(sync(a, target)).rejects.toThrow(/dropped/);
    closed(a);
    cpSync(join(dir, 'a'), join(dir, 'backup'), { recursive: true });
    a = onDisk('a', '2027-02-01T00:00:00.000Z');
    tell(a, 'hojicha');
    await sync(a, target);
    await sync(b, target);
    closed(a);
    rmSync(join(dir, 'a'), { recursive: true });
    cpSync(join(dir, 'backup'), join(dir, 'a'), { recursive: true });
    a = onDisk('a', '2027-03-01T00:00:00.000Z');
    tell(a, 'genmaicha');
    const report = await sync(a, target);
    expect(report.tookBack).toBeGreaterThan(0);
    expect(report.sent).toBe(3); // genmaicha (its conversation, message and claim); sencha went in the later copy's segment 2
    expect(numbersOf(target, a)).toEqual([1, 2, 3]);
    await sync(b, target);
    expect(factsOf(b)).toEqual(['Sato likes genmaicha', 'Sato likes hojicha', 'Sato likes sencha', 'Sato likes tea']);
    expect(factsOf(a)).toEqual(factsOf(b));
  });
});
