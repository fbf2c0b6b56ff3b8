/**
 * One applied segment that both takes a claim out of a slot and adds one to it (issue 26's mutation
 * run: write-batch.ts's `whole = true` and slot-resolver.ts's `options.whole ||` survived, since no
 * test wrote both at once). The slot must be read whole — not only from the latest claim before the
 * new one — or the version of the forgotten claim stays live on the device that applies it.
 */
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../electron/memory/index';
import { syncOnce } from '../../electron/sync/sync-runner';
import { devicesClosedAfterEach, markingCipher, memoryTarget, syncOf } from '../fixtures/sync-devices';
import { toIsoUtc, type IsoTime } from '../../shared/time';

const device = devicesClosedAfterEach();
const day = (d: string): IsoTime => toIsoUtc(`2026-09-${d}T00:00:00.000Z`);
const manager = (object: string, d: string) => ({ subject: 'me', predicate: 'manager', object, fact: `My manager is ${object}.`, reference_time: day(d), cardinality: 'one' as const });
const spans = (m: Memory) =>
  m.facts
    .list({ history: true })
    .filter((f) => f.expired_at === null)
    .map((f) => [f.object, f.valid_at, f.invalid_at])
    .sort((a, b) => String(a[1]).localeCompare(String(b[1])));

describe('a segment that forgets and tells in one slot', () => {
  it('is applied as one write that reads the whole slot: the forgotten value is gone, the one before it extends, as on the writing device', async () => {
    const [a, b] = [device(), device()];
    const target = memoryTarget();
    a.facts.observe([manager('Tanaka', '01')]);
    a.facts.observe([manager('Suzuki', '05')]);
    a.facts.observe([manager('Ito', '08')]);
    await syncOnce(syncOf(a), target, markingCipher);
    await syncOnce(syncOf(b), target, markingCipher);
    expect(spans(b)).toEqual([
      ['Tanaka', day('01'), day('05')],
      ['Suzuki', day('05'), day('08')],
      ['Ito', day('08'), null],
    ]);

    // On A: a value in the middle forgotten, a later one told; both go in one segment. Tanaka now
    // lasts until Ito: a read from the latest claim before Sato (Ito's) would leave it ending at 5.
    const suzuki = a.facts.list({ history: true }).find((f) => f.object === 'Suzuki' && f.expired_at === null)!;
    a.facts.forget(suzuki.id);
    a.facts.observe([manager('Sato', '10')]);
    const segmentsBefore = target.files.size;
    await syncOnce(syncOf(a), target, markingCipher);
    expect(target.files.size).toBe(segmentsBefore + 1);
    const got = await syncOnce(syncOf(b), target, markingCipher);
    expect(got.applied).toHaveLength(1);

    const expected = [
      ['Tanaka', day('01'), day('08')],
      ['Ito', day('08'), day('10')],
      ['Sato', day('10'), null],
    ];
    expect(spans(a)).toEqual(expected);
    expect(spans(b)).toEqual(expected);
    expect(b.facts.list({ history: true }).some((f) => f.object === 'Suzuki')).toBe(false);
  });

  it('keeps each applied claim under the id its device gave it, so that device can take it back later', async () => {
    // kills slot-resolver.ts:178 (`e.claim?.syncId ?? null` → `&& null`): a claim applied without
    // its sync id could not be found when its device closes the fact, and would keep it open here.
    const [a, b] = [device(), device()];
    const target = memoryTarget();
    a.facts.observe([manager('Tanaka', '01')]);
    await syncOnce(syncOf(a), target, markingCipher);
    await syncOnce(syncOf(b), target, markingCipher);
    const tanaka = a.facts.list({ history: true }).find((f) => f.object === 'Tanaka' && f.expired_at === null)!;
    a.facts.close(tanaka.id, day('20'));
    await syncOnce(syncOf(a), target, markingCipher);
    await syncOnce(syncOf(b), target, markingCipher);
    const expected = [['Tanaka', day('01'), day('20')]];
    expect(spans(a)).toEqual(expected);
    expect(spans(b)).toEqual(expected);
  });
});
