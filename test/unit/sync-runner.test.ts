/**
 * The sync runner's refusals and resumption (issue 31 items 1 and 5): a segment changed or cut short
 * on the target, or from a newer format, is refused by name and changes nothing, while the other
 * devices' segments still apply; an upload dropped mid-way is sent again by the next sync, once.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../electron/memory/index';
import { segmentNameOf } from '../../electron/sync/segments';
import { syncOnce } from '../../electron/sync/sync-runner';
import { devicesClosedAfterEach, markingCipher, memoryTarget, syncOf } from '../fixtures/sync-devices';

const device = devicesClosedAfterEach();

const tell = (m: Memory, object: string) =>
  m.facts.observe([{ subject: 'Sato', predicate: 'likes', object, fact: `Sato likes ${object}`, reference_time: '2026-09-01T05:00:00.000Z', valid_at: '2026-09-01T00:00:00.000Z', cardinality: 'many' }]);
const factsOf = (m: Memory) => m.facts.list({}).map((f) => f.fact).sort();

describe('sync runner', () => {
  it('a segment changed on the target is refused by name; the other device still syncs', async () => {
    const [a, b, c] = [device(), device(), device()];
    const target = memoryTarget();
    tell(a, 'tea');
    tell(b, 'coffee');
    await syncOnce(syncOf(a), target, markingCipher);
    await syncOnce(syncOf(b), target, markingCipher);
    const aSegment = [...target.files.keys()].find((name) => name.includes(syncOf(a).device().id))!;
    const bytes = target.files.get(aSegment)!;
    target.files.set(aSegment, bytes.subarray(0, bytes.length - 5)); // cut short

    const report = await syncOnce(syncOf(c), target, markingCipher);
    expect(report.refused).toHaveLength(1);
    expect(report.refused[0]).toContain(aSegment);
    expect(report.refused[0]).toMatch(/could not be opened .*changed or cut short/);
    expect(factsOf(c)).toEqual(['Sato likes coffee']);

    target.files.set(aSegment, bytes); // put right again: the next sync applies it
    expect((await syncOnce(syncOf(c), target, markingCipher)).refused).toEqual([]);
    expect(factsOf(c)).toEqual(['Sato likes coffee', 'Sato likes tea']);
  });

  it('a segment from a newer format is refused in words naming it', async () => {
    const c = device();
    const target = memoryTarget();
    const stranger = 'f'.repeat(32);
    const plain = gzipSync(Buffer.from(`${JSON.stringify({ format: 99, device: stranger, deviceName: 'future', seq: 1 })}\n`));
    const name = segmentNameOf(stranger, 1, 'a'.repeat(64));
    target.files.set(name, markingCipher.seal(name, plain) as Uint8Array);
    const report = await syncOnce(syncOf(c), target, markingCipher);
    expect(report.refused).toEqual([`The segment ${name} was written by a newer Tempora (format 99; this one reads 1): update Tempora on this device.`]);
    expect(syncOf(c).status().devices).toEqual([]);
  });

  it('an upload dropped mid-way is sent again by the next sync, and applied once', async () => {
    const [a, b] = [device(), device()];
    const target = memoryTarget();
    for (const object of ['tea', 'coffee', 'water']) tell(a, object);
    target.failPutAfter = 1; // the second segment's put fails
    await expect(syncOnce(syncOf(a), target, markingCipher, { segmentRows: 2 })).rejects.toThrow(/dropped/);
    const unsent = syncOf(a).status().unsent;
    expect(unsent).toBeGreaterThan(0);
    const report = await syncOnce(syncOf(a), target, markingCipher, { segmentRows: 2 });
    expect(syncOf(a).status().unsent).toBe(0);
    expect(report.sent).toBeGreaterThan(0);
    await syncOnce(syncOf(b), target, markingCipher);
    expect(factsOf(b)).toEqual(['Sato likes coffee', 'Sato likes tea', 'Sato likes water']);
    // Each segment number is on the target once.
    const seqs = [...target.files.keys()].map((name) => name.split('/').at(-1)!.slice(0, 8));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('a missing segment of a device first applied in the same sync is said with the name its first segment gave it', async () => {
    const [a, c] = [device(), device()];
    const target = memoryTarget();
    syncOf(a).setDeviceName('Kitchen');
    for (const object of ['tea', 'coffee', 'water']) {
      tell(a, object);
      await syncOnce(syncOf(a), target, markingCipher);
    }
    const id = syncOf(a).device().id;
    const second = [...target.files.keys()].find((name) => name.includes(`${id}/segments/00000002-`))!;
    target.files.delete(second);
    const report = await syncOnce(syncOf(c), target, markingCipher, { firstSyncInOneWrite: 0 });
    expect(report.waiting).toEqual([`Segment 2 of Kitchen (${id.slice(0, 8)}) is not on the target, though a later one is: its later segments wait for it (a synced folder may still be bringing it).`]);
    expect(factsOf(c)).toEqual(['Sato likes tea']);
  });
});
