/**
 * One sync (issue 31; docs/sync.md): upload this device's unsent records as a segment, then apply,
 * device by device and in order, the segments of the others this memory has not applied, one write
 * per segment; then rewrite this device's segments that still hold something forgotten. Every step
 * may stop at any byte and the next sync picks up: an upload is recorded only after the put, so a
 * crash re-uploads (the same number, the stray file removed); a segment is applied whole or not at
 * all, and its cursor moves in the same write. A segment that cannot be read (tampered, cut short, a
 * newer format) is refused by name, and that device waits there while the others still sync (noted
 * for `sync status` until it applies). A device renamed with nothing else to send sends a segment of
 * no records, so the name reaches the others at that sync.
 */
import { createHash } from 'node:crypto';
import type { SyncProgress } from '../../shared/sync-contract';
import { SYNC_FORMAT, type SegmentHeader, type SyncBody, type SyncRecord } from '../../shared/sync-records';
import { decodeSegment, encodeSegment, openSegment, parseSegmentName, recordOf, SegmentError, segmentPrefix, type SegmentCipher, type SegmentName } from './segments';
import { SegmentSpool } from './segment-spool';
import { SegmentChecks } from './segment-checks';
import type { SyncTarget } from './sync-target';
import { readKeyCheckFile } from './sync-crypto';
import { TargetReads } from './target-reads';
import { takeBackOwn, type OwnSegmentsMemory } from './own-segments';
import { withSyncLock } from './sync-lock';
import type { IsoTime } from '../../shared/time';

/** What the runner needs of the memory (memory.sync: electron/memory/sync/sync-store.ts). */
export interface SyncMemory extends OwnSegmentsMemory {
  device(): { id: string; name: string };
  outgoing(limit?: number): { bodies: { at: IsoTime; body: SyncBody }[]; lastOutbox: number; seq: number };
  /** Outbox rows not sent yet. */
  unsent(): number;
  segmentWritten(seq: number, name: string, lastOutbox: number, records: SyncRecord[]): void;
  /** Outbox rows up to `lastOutbox` whose writes are gone make no record: done, with no segment sent. */
  nothingToSend(lastOutbox: number): void;
  /** Whether this device was renamed since its last segment went up (then a sync with nothing to send sends a segment of no records: its header names it). */
  nameToAnnounce(): boolean;
  /**
   * The devices whose next segment this sync refused (their later ones wait), for `sync status`;
   * `considered`: the devices it looked at; `onTarget`: every other device with a segment on the
   * target (one noted before whose segments are gone from it is no longer blocked).
   */
  noteBlocked(considered: string[], refused: { device: string; segment: string; reason: string }[], at: string, onTarget: string[]): void;
  segmentsToRewrite(): { seq: number; name: string; keys: string[] }[];
  purgeDone(): void;
  cursor(device: string): number;
  /** The name another device's last segment applied here gave it (null: none applied yet). */
  nameOf(device: string): string | null;
  apply(header: { device: string; deviceName: string; seq: number }, records: SyncRecord[], options?: { afterRecord?: (index: number) => void }): { applied: boolean; records: number };
  /** Whether this store holds nothing a first sync could meet (then its segments go in as one write). */
  emptyForFirstSync(): boolean;
  /** The folder a first sync sets the segments it downloads aside in (segment-spool.ts): beside the memory. */
  spoolDir(): string;
  /** The file one sync of this memory at a time holds (sync-lock.ts); null for an in-memory store. */
  lockFile(): string | null;
  /** Applies the segments in order, in one write (memory/sync/sync-first.ts). */
  applyFirst(
    segments: Iterable<{ header: SegmentHeader; records(): SyncRecord[] }>,
    options: { afterRecord?: (index: number) => void; onSegment?: (done: number, result: { applied: boolean; records: number }) => void; gatherAtMost?: number; fullTextOnWorker?: boolean },
  ): { applied: boolean; records: number }[];
  /** The sync ended at `at` with the target described as `target`. */
  syncDone(at: string, target: string): void;
}

export interface SyncOptions {
  /** Devices to take segments from (default: all): tests sync in subsets. */
  from?: (device: string) => boolean;
  /** Outbox rows to a segment (default: the memory's, 5,000). */
  segmentRows?: number;
  /**
   * Segments due onto an empty store from which they are fetched first and applied in one write
   * (default FIRST_SYNC_IN_ONE_WRITE; tests set 0 or 1 to compare the two paths).
   */
  firstSyncInOneWrite?: number;
  /** Claims that first sync gathers at most before resolving them (memory/sync/sync-first.ts GATHER_AT_MOST; tests set a few). */
  gatherAtMost?: number;
  /**
   * Due segments from which that first sync uses the machine's other core — its segments checked
   * and its full text built on worker threads (default WORKERS_FROM; tests compare).
   */
  workersFrom?: number;
  /** Test seam: runs after each record applied (a throw there is a crash mid-apply). */
  afterRecord?: (index: number) => void;
  /** Told as the sync goes, after each segment: "applied 3 of 12 segments". */
  onProgress?: (progress: SyncProgress) => void;
  now?: () => string;
}

export interface SyncReport {
  /** Records sent (a rename sent alone is a segment of none). */
  sent: number;
  applied: { device: string; seq: number; records: number }[];
  /** Segments refused, each in words. */
  refused: string[];
  /** Devices waiting for a segment that is not on the target though a later one is, each in words. */
  waiting: string[];
  /** This memory had synced with another target: everything was sent again and the others' segments applied from their first. */
  startedOver: boolean;
  /** Records this device had sent from a later copy of this memory (it was restored from a backup), applied here again. */
  tookBack: number;
  rewritten: number;
}

/** Due segments from which a first sync onto an empty store is applied in one write. */
export const FIRST_SYNC_IN_ONE_WRITE = 4;
/**
 * Due segments from which a first sync's checks and full text run on workers (a start, ~0.1 s, is
 * less than the work of this many segments: ~40,000 records).
 */
export const WORKERS_FROM = 8;

/**
 * `plainTarget`: the target, or the TargetReads a name check just before this sync read through
 * (device-names.ts); either way the target's listing is read once a sync (target-reads.ts).
 */
export function syncOnce(memory: SyncMemory, plainTarget: SyncTarget, cipher: SegmentCipher, options: SyncOptions = {}): Promise<SyncReport> {
  // One at a time across processes (the app and `tempora sync --watch`): a SyncBusyError otherwise.
  return withSyncLock(memory.lockFile(), () => syncHeld(memory, plainTarget, cipher, options));
}

async function syncHeld(memory: SyncMemory, plainTarget: SyncTarget, cipher: SegmentCipher, options: SyncOptions): Promise<SyncReport> {
  const target = TargetReads.of(plainTarget);
  const me = memory.device();
  const report: SyncReport = { sent: 0, applied: [], refused: [], waiting: [], startedOver: false, tookBack: 0, rewritten: 0 };
  const upload = async (seq: number, lastOutbox: number, records: SyncRecord[]) => {
    const { name, bytes } = await encodeSegment({ format: SYNC_FORMAT, device: me.id, deviceName: me.name, seq }, records, cipher);
    // A crash after an earlier put of this number and before it was recorded left a stray file.
    for (const stray of await target.list(`${segmentPrefix(me.id)}${String(seq).padStart(8, '0')}-`)) if (stray.name !== name) await target.remove(stray.name);
    memory.putting(name);
    await target.put(name, bytes);
    memory.segmentWritten(seq, name, lastOutbox, records);
  };

  // 0. Which target this is, by its key check (a target without one is a test's).
  const check = await readKeyCheckFile(target);
  if (check !== null) report.startedOver = memory.onTarget(createHash('sha256').update(check).digest('hex'));
  const maySend = await takeBackOwn(memory, target, cipher, me.id, report);

  // 1. What this device wrote since its last sync, a segment at a time (each recorded as sent once it
  // is on the target); nothing while a later copy's segment cannot be taken back yet.
  if (maySend) {
    let out = memory.outgoing(options.segmentRows);
    for (; out.lastOutbox > 0; out = memory.outgoing(options.segmentRows)) {
      const records = out.bodies.map((b) => recordOf(me.id, b.at, b.body));
      // Rows whose writes are gone (forgotten since, here or by a later copy taken back) make no record: no segment of none.
      if (records.length === 0) {
        memory.nothingToSend(out.lastOutbox);
        continue;
      }
      await upload(out.seq, out.lastOutbox, records);
      report.sent += records.length;
      options.onProgress?.({ phase: 'upload', done: report.sent, total: report.sent + memory.unsent(), records: report.sent });
    }
    // A rename with nothing else to send reaches the target now, as a segment of no records: the
    // others see the name in its header, and a device joining later finds it taken.
    if (memory.nameToAnnounce()) await upload(out.seq, 0, []);
  }

  // 2. The others' segments this memory has not applied, each device's in order.
  const byDevice = new Map<string, SegmentName[]>();
  const onTarget = new Set<string>();
  for (const file of await target.list('devices/')) {
    const segment = parseSegmentName(file.name);
    if (!segment || segment.device === me.id) continue;
    onTarget.add(segment.device);
    if (options.from && !options.from(segment.device)) continue;
    byDevice.set(segment.device, [...(byDevice.get(segment.device) ?? []), segment]);
  }
  const gaps: { device: string; seq: number }[] = [];
  const due = [...byDevice.values()].map((list) => followingOn(list, memory.cursor(list[0]!.device), gaps));
  const total = due.reduce((n, list) => n + list.length, 0);
  const refused: Refusal[] = [];
  if (total > 0 && total >= (options.firstSyncInOneWrite ?? FIRST_SYNC_IN_ONE_WRITE) && memory.emptyForFirstSync()) await applyInOneWrite(memory, target, cipher, due, total, refused, report, options);
  else await applyEach(memory, target, cipher, due, total, refused, report, options);
  report.refused.push(...refused.map((r) => r.reason));
  // Said once this sync's segments are applied: a device's first, applied now, gave it its name.
  const missing = gaps.map((gap) => waitingFor(gap.device, gap.seq, memory.nameOf(gap.device)));
  report.waiting.push(...missing.map((r) => r.reason));
  memory.noteBlocked([...byDevice.keys()], [...missing, ...refused], options.now?.() ?? new Date().toISOString(), [...onTarget]);

  // 3. This device's segments that still hold what was forgotten since: rewritten without it.
  const rewrites = memory.segmentsToRewrite();
  for (const rewrite of rewrites) {
    const { header, records } = await decodeSegment(rewrite.name, await target.get(rewrite.name), cipher);
    const drop = new Set(rewrite.keys);
    const kept = records.filter((r) => !drop.has(contentKey(r.body)));
    const { name, bytes } = await encodeSegment(header, kept, cipher);
    await target.put(name, bytes);
    memory.segmentRewritten(rewrite.seq, name, rewrite.keys);
    if (name !== rewrite.name) await target.remove(rewrite.name);
    report.rewritten++;
    options.onProgress?.({ phase: 'rewrite', done: report.rewritten, total: rewrites.length, records: 0 });
  }
  memory.purgeDone();
  memory.syncDone(options.now?.() ?? new Date().toISOString(), plainTarget.describe);
  return report;
}

/**
 * A device's segments after its cursor that follow on from it, in order. A number missing (a folder
 * that Syncthing, Dropbox or OneDrive is still filling may bring a later file first; a file removed)
 * stops the device there (noted in `gaps`, said in words once this sync has applied what it could):
 * applying the later ones would move its cursor past the missing one, which would never be applied. Two files of one number (a segment rewritten,
 * the old file not yet removed) are both kept: the second applies nothing.
 */
function followingOn(list: SegmentName[], cursor: number, gaps: { device: string; seq: number }[]): SegmentName[] {
  const due: SegmentName[] = [];
  let next = cursor + 1;
  for (const segment of list.filter((s) => s.seq > cursor).sort((a, b) => a.seq - b.seq)) {
    if (segment.seq === next - 1) due.push(segment);
    else if (segment.seq === next) {
      due.push(segment);
      next++;
    } else {
      gaps.push({ device: segment.device, seq: next });
      break;
    }
  }
  return due;
}

/** The wait for a missing segment, in words: the device by the name its segments gave it here, by its id when none has applied yet. */
function waitingFor(id: string, seq: number, name: string | null): Refusal {
  const device = name === null ? `device ${id}` : `${name} (${id.slice(0, 8)})`;
  const segment = `${segmentPrefix(id)}${String(seq).padStart(8, '0')}`;
  return { device: id, segment, reason: `Segment ${seq} of ${device} is not on the target, though a later one is: its later segments wait for it (a synced folder may still be bringing it).` };
}

/** A segment refused, in words (one sentence naming it), and the device it stops. */
interface Refusal {
  device: string;
  segment: string;
  reason: string;
}

/** Each segment in its own write, each device's in order. */
async function applyEach(memory: SyncMemory, target: SyncTarget, cipher: SegmentCipher, due: SegmentName[][], total: number, refused: Refusal[], report: SyncReport, options: SyncOptions): Promise<void> {
  let done = 0;
  let recordsApplied = 0;
  for (const list of due) {
    for (const segment of list) {
      try {
        const { header, records } = await decodeSegment(segment.name, await target.get(segment.name), cipher);
        const result = memory.apply({ device: header.device, deviceName: header.deviceName, seq: header.seq }, records, options.afterRecord ? { afterRecord: options.afterRecord } : {});
        if (result.applied) report.applied.push({ device: header.device, seq: header.seq, records: result.records });
        recordsApplied += result.records;
      } catch (error) {
        if (!(error instanceof SegmentError)) throw error;
        refused.push({ device: segment.device, segment: segment.name, reason: error.message });
        break; // this device's later segments wait for this one
      }
      options.onProgress?.({ phase: 'apply', done: ++done, total, records: recordsApplied });
    }
  }
}

/**
 * A first sync onto an empty store: every due segment fetched and opened into a spool (nothing is
 * written to the memory yet), then all applied in one write, which loads them the way an import
 * loads an empty store (memory/sync/sync-first.ts). Each segment is read and checked as soon as it
 * is spooled, on the machine's other core where a worker starts (segment-checks.ts), and taken in
 * order inside the write: one that cannot be read is refused as on the other path, and its device's
 * later segments wait. A crash anywhere leaves the store empty, and the next sync starts over.
 */
async function applyInOneWrite(memory: SyncMemory, target: SyncTarget, cipher: SegmentCipher, due: SegmentName[][], total: number, refused: Refusal[], report: SyncReport, options: SyncOptions): Promise<void> {
  const spool = new SegmentSpool(memory.spoolDir());
  const onWorkers = total >= (options.workersFrom ?? WORKERS_FROM);
  const checks = SegmentChecks.start({ worker: onWorkers });
  try {
    let fetched = 0;
    for (const list of due) {
      for (const segment of list) {
        try {
          const file = spool.add(segment, await openSegment(segment.name, await target.get(segment.name), cipher));
          checks.add({ name: segment.name, file });
        } catch (error) {
          if (!(error instanceof SegmentError)) throw error;
          refused.push({ device: segment.device, segment: segment.name, reason: error.message });
          break; // this device's later segments wait for this one
        }
        options.onProgress?.({ phase: 'download', done: ++fetched, total, records: 0 });
      }
    }
    checks.end();
    const spooled = spool.segments();
    const headers: SegmentHeader[] = [];
    const waiting = new Set<string>();
    function* checked(): Generator<{ header: SegmentHeader; records(): SyncRecord[] }> {
      for (const { segment } of spooled) {
        if (waiting.has(segment.device)) {
          checks.skip();
          continue;
        }
        const decoded = checks.take();
        if ('refused' in decoded) {
          refused.push({ device: segment.device, segment: segment.name, reason: decoded.refused });
          waiting.add(segment.device);
          continue;
        }
        headers.push(decoded.header);
        yield { header: decoded.header, records: () => decoded.records };
      }
    }
    let recordsApplied = 0;
    const results = memory.applyFirst(checked(), {
      ...(options.afterRecord ? { afterRecord: options.afterRecord } : {}),
      ...(options.gatherAtMost === undefined ? {} : { gatherAtMost: options.gatherAtMost }),
      fullTextOnWorker: onWorkers,
      onSegment: (done, result) => {
        recordsApplied += result.records;
        options.onProgress?.({ phase: 'apply', done, total: fetched, records: recordsApplied });
      },
    });
    results.forEach((result, i) => {
      if (result.applied) report.applied.push({ device: headers[i]!.device, seq: headers[i]!.seq, records: result.records });
    });
  } finally {
    checks.close();
    spool.close();
  }
}

function contentKey(body: SyncBody): string {
  if (body.kind === 'claim') return `claim:${body.uid}`;
  if (body.kind === 'episode') return `episode:${body.id}`;
  return '';
}
