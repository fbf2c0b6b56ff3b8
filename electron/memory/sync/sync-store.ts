/**
 * The memory's side of sync as one object (memory.sync): who this device is, what it has not sent,
 * the segments it wrote, and applying another device's segment in one write. `write` is the memory's
 * one way to write (a transaction that resolves the touched slots and indexes full text within it).
 */
import type { SyncRecord } from '../../../shared/sync-records';
import { MemoryInputError } from '../memory-errors';
import type { WriteContext } from '../temporal/write-batch';
import { applySegment, cursorOf, type ApplyOptions, type ApplyResult } from './sync-apply';
import { applyFirstSync, isEmptyForFirstSync, type DueSegment, type FirstSyncOptions } from './sync-first';
import { WAL_AUTOCHECKPOINT_PAGES } from '../transfer/background-checkpoint';
import type { BulkLoadHelper } from '../transfer/bulk-load-helper';
import { alreadySent, deviceNameOf, deviceOf, outgoing, purgeDone, segmentRewritten, segmentsToRewrite, segmentWritten, setStateValue, startOutbox, startOver, stateValue, unsentCount, type Outgoing } from './sync-outgoing';
import { isIsoUtc, type IsoTime } from '../../../shared/time';
import { outboxOn } from '../store/sync-outbox';
import { writeSettings } from '../store/settings';

/** The last sync's time as stored, or null when there is none (or it is not a time this memory wrote). */
function storedTime(text: string | undefined): IsoTime | null {
  return text !== undefined && isIsoUtc(text) ? text : null;
}

export type SyncWriter = <T>(fn: () => T, told: (result: T) => boolean, options?: { attached?: boolean }) => T;

export interface SyncStatus {
  device: { id: string; name: string };
  lastSync: IsoTime | null;
  /** What the last sync synced with, in words ("the folder /x"); null before the first (or one before this was kept). */
  lastTarget: string | null;
  devices: { id: string; name: string; seq: number; appliedAt: IsoTime }[];
  /** Writes recorded here and not yet sent (outbox rows). */
  unsent: number;
  /** Devices whose next segment was refused at the last sync (their later ones wait), with the reason in words. */
  blocked: BlockedDevice[];
}

/** A device whose segment `segment` was refused (`reason`, one sentence naming it) since `since`; its name when one of its segments was applied here. */
export interface BlockedDevice {
  id: string;
  name: string | null;
  segment: string;
  reason: string;
  since: IsoTime;
}

/** The page cache a first sync's one write gets (negative: KiB), given back when it ends. */
const FIRST_SYNC_CACHE_KIB = -262_144;

export class SyncStore {
  /**
   * `file.checkpointInBackground`: copies the WAL into the database file off this thread after a
   * first sync's one write (false where it cannot: the idle checkpoint does it then);
   * `file.spoolDir`: where a first sync sets its segments aside (beside the memory's file);
   * `file.fullTextWorker`: a bulk-load worker for the full text only (null where none can run).
   */
  constructor(
    private readonly store: WriteContext,
    private readonly write: SyncWriter,
    private readonly file: { checkpointInBackground(): boolean; fullTextWorker(): BulkLoadHelper | null; spoolDir: string; lockFile: string | null },
  ) {}

  spoolDir(): string {
    return this.file.spoolDir;
  }

  /** The file one sync of this memory at a time holds, beside the memory's file (null: an in-memory store). */
  lockFile(): string | null {
    return this.file.lockFile;
  }

  device(): { id: string; name: string } {
    const db = this.store.db;
    if (stateValue(db, 'device')) return deviceOf(db);
    return this.write(() => deviceOf(db), () => false);
  }

  /** This device's id (null before it has one: nothing is written to find out) and name. */
  known(): { id: string | null; name: string } {
    const db = this.store.db;
    return { id: stateValue(db, 'device') ?? null, name: deviceNameOf(db) };
  }

  /**
   * Names this device as the others will see it, in the one place its name is kept (the setting
   * `syncDeviceName`, which Settings → Sync shows). A name another device syncing with this memory
   * already has is refused in words (two "Laptop"s could not be told apart), and nothing changes;
   * this device's own name again changes nothing, even if another took it since.
   * A new name is sent at the next sync even when nothing else is (nameToAnnounce).
   */
  setDeviceName(given: string): void {
    const name = given.trim();
    if (name === '' || name.length > 100) throw new MemoryInputError(`A device's name has 1 to 100 characters, not ${name.length}.`, 'deviceName');
    if (this.known().name === name) return;
    const taken = this.nameTakenBy(name);
    if (taken) throw new MemoryInputError(`Another device that syncs with this memory is already named “${taken.name}”: give this one a name of its own.`, 'deviceName');
    const db = this.store.db;
    this.write(() => (writeSettings({ db }, { syncDeviceName: name }), setStateValue(db, 'nameUnsent', '1')), () => false);
  }

  /** Another device seen here by that name (spaces and case aside), or null. */
  nameTakenBy(name: string): { id: string; name: string } | null {
    const folded = name.trim().toLocaleLowerCase();
    const me = this.known().id;
    return this.devicesSeen().find((d) => d.id !== me && d.name.trim().toLocaleLowerCase() === folded) ?? null;
  }

  /**
   * The target this sync reaches, by `id` (its key check's hash): the first one is kept; on another,
   * everything starts over (startOver) and true is returned.
   */
  onTarget(id: string): boolean {
    const db = this.store.db;
    const before = stateValue(db, 'target');
    if (before === id) return false;
    return this.write(() => {
      if (before !== undefined) startOver(db);
      setStateValue(db, 'target', id);
      return before !== undefined;
    }, () => false);
  }

  /** Whether this device was named since its last segment went up: the next sync sends the name alone if it has nothing else. */
  nameToAnnounce(): boolean {
    return stateValue(this.store.db, 'nameUnsent') === '1';
  }

  /**
   * What this device has not sent (the next segment's worth), read in one transaction. The first
   * call turns the outbox on (a sync uploads before it applies: nothing another device wrote is
   * here yet to be queued as this device's).
   */
  outgoing(limit?: number): Outgoing {
    const db = this.store.db;
    if (!outboxOn(db)) this.write(() => startOutbox(db), () => false);
    return db.transaction(() => outgoing(db, limit))();
  }

  /** Outbox rows up to `lastOutbox` made no record (what they named is gone): done, with no segment sent. */
  nothingToSend(lastOutbox: number): void {
    this.write(() => this.store.db.prepare('DELETE FROM sync_outbox WHERE seq <= ?').run(lastOutbox), () => false);
  }

  /** A segment of this device is on the target (its header carries this device's name: nothing is left to announce). */
  segmentWritten(seq: number, name: string, lastOutbox: number, records: SyncRecord[]): void {
    const db = this.store.db;
    this.write(() => (segmentWritten(db, seq, name, lastOutbox, records), db.prepare("DELETE FROM sync_state WHERE key = 'nameUnsent'").run()), () => false);
  }

  putting(name: string): void {
    this.write(() => setStateValue(this.store.db, 'putting', name), () => false);
  }

  putCutShort(): string | null {
    return stateValue(this.store.db, 'putting') ?? null;
  }

  /**
   * A segment of this device that this memory has no record of (a copy restored from a backup wrote
   * it), in one write: applied as another device's is, and kept as one of its own (sync-runner.ts
   * takeBackOwn).
   */
  takeBack(header: { device: string; deviceName: string; seq: number }, name: string, records: SyncRecord[]): ApplyResult {
    const db = this.store.db;
    return this.write(
      () => {
        startOutbox(db);
        const result = applySegment(this.store, header, records);
        alreadySent(db, records);
        // A cursor is for another device's segments: this device's own are in sync_segments.
        db.prepare('DELETE FROM sync_cursors WHERE device = ?').run(header.device);
        segmentWritten(db, header.seq, name, 0, records);
        return result;
      },
      (result) => result.applied,
    );
  }

  /**
   * The devices whose next segment this sync refused, replacing what was noted for the devices it
   * looked at (`considered`); a device it did not look at keeps what was noted before, unless it has
   * no segment on the target any more (`onTarget`: the user removed its files): nothing of it waits.
   */
  noteBlocked(considered: string[], refused: { device: string; segment: string; reason: string }[], at: IsoTime, onTarget: string[]): void {
    const db = this.store.db;
    const before = this.blockedNoted();
    const looked = new Set(considered);
    const there = new Set(onTarget);
    const kept = before.filter((b) => !looked.has(b.id) && there.has(b.id));
    const now = refused.map((r) => ({ id: r.device, segment: r.segment, reason: r.reason, since: before.find((b) => b.id === r.device && b.segment === r.segment)?.since ?? at }));
    const all = [...kept, ...now];
    if (all.length === 0 && before.length === 0) return;
    this.write(() => setStateValue(db, 'blocked', JSON.stringify(all)), () => false);
  }

  private blockedNoted(): Omit<BlockedDevice, 'name'>[] {
    const text = stateValue(this.store.db, 'blocked');
    if (text === undefined) return [];
    try {
      const list = JSON.parse(text) as unknown;
      return Array.isArray(list) ? (list as Omit<BlockedDevice, 'name'>[]) : [];
    } catch {
      return [];
    }
  }

  /** The other devices this memory has applied segments of, each with the name its last one gave (nothing is written to find out). */
  devicesSeen(): SyncStatus['devices'] {
    return this.store.db.prepare<[], { id: string; name: string; seq: number; appliedAt: IsoTime }>('SELECT device AS id, name, seq, applied_at AS appliedAt FROM sync_cursors ORDER BY name, device').all();
  }

  /** This device's segments: seq → name on the target. */
  ownSegments(): { seq: number; name: string }[] {
    return this.store.db.prepare<[], { seq: number; name: string }>('SELECT seq, name FROM sync_segments ORDER BY seq').all();
  }

  segmentsToRewrite(): { seq: number; name: string; keys: string[] }[] {
    return segmentsToRewrite(this.store.db);
  }

  segmentRewritten(seq: number, name: string, keys: string[]): void {
    this.write(() => segmentRewritten(this.store.db, seq, name, keys), () => false);
  }

  purgeDone(): void {
    this.write(() => purgeDone(this.store.db), () => false);
  }

  cursor(device: string): number {
    return cursorOf(this.store, device);
  }

  /** The name another device's last segment applied here gave it (null: none applied yet). */
  nameOf(device: string): string | null {
    return this.store.db.prepare<[string], string>('SELECT name FROM sync_cursors WHERE device = ?').pluck().get(device) ?? null;
  }

  /** Applies another device's segment in one write; a throw anywhere rolls all of it back. */
  apply(header: { device: string; deviceName: string; seq: number }, records: SyncRecord[], options: ApplyOptions = {}): ApplyResult {
    // The outbox goes on first (if this device has not synced before): what is stored now is this
    // device's own; what the segment brings never enters it.
    return this.write(() => (startOutbox(this.store.db), applySegment(this.store, header, records, options)), (result) => result.applied);
  }

  /** Whether a first sync would find nothing here (sync-first.ts): no facts, messages or claims. */
  emptyForFirstSync(): boolean {
    return isEmptyForFirstSync(this.store);
  }

  /** Applies every segment of a first sync in one write, in order (sync-first.ts); a throw anywhere rolls all of it back. */
  applyFirst(segments: Iterable<DueSegment>, options: FirstSyncOptions = {}): ApplyResult[] {
    // Past its first GATHER_AT_MOST claims (sync-first.ts) the write reads and extends the indexes a
    // resolver reads (random ids) across the whole store: with the usual 32 MB of page cache a
    // million facts took 258 s, with 256 MB 198 s (docs/benchmarks.md).
    const db = this.store.db;
    const usual = db.pragma('cache_size', { simple: true }) as number;
    db.pragma(`cache_size = ${FIRST_SYNC_CACHE_KIB}`);
    // The whole store goes through the WAL: neither its commit nor the next write's copies it into
    // the file (SQLite's automatic checkpoint, on this thread); a worker does, after
    // (transfer/background-checkpoint.ts; MemoryKernel.checkpointInBackground).
    db.pragma('wal_autocheckpoint = 0');
    let helper: BulkLoadHelper | null = null;
    let applied = false;
    try {
      // Started outside the write (it attaches its scratch database), while the store is still
      // empty; the write then locks the memory's database alone, so the worker can write its own.
      helper = options.fullTextOnWorker && this.emptyForFirstSync() ? this.file.fullTextWorker() : null;
      helper?.begin();
      const results = this.write(() => (startOutbox(db), applyFirstSync(this.store, segments, options, helper)), (done) => done.some((r) => r.applied), { attached: helper !== null });
      applied = results.some((r) => r.applied);
      return results;
    } finally {
      // Its work is in the write or thrown away with it: it closes and removes its scratch database
      // (never at the cost of the write's own error or of the settings put back below).
      try {
        helper?.finish(null);
      } catch {
        // detached at the latest when the connection closes; the worker removes the file as it exits
      }
      db.pragma(`cache_size = ${usual}`);
      // On again once the worker has copied the WAL (or now, when none copies it).
      if (!(applied && this.file.checkpointInBackground())) db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    }
  }

  /** A sync ended at `at` with `target` (its words: "the folder /x"), which `status` says as the last one. */
  syncDone(at: IsoTime, target: string): void {
    this.write(() => {
      setStateValue(this.store.db, 'lastSync', at);
      setStateValue(this.store.db, 'lastTarget', target);
    }, () => false);
  }

  /** What the last sync synced with, in words; null before the first. Only reads (a read-only memory answers too). */
  lastTarget(): string | null {
    return stateValue(this.store.db, 'lastTarget') ?? null;
  }

  unsent(): number {
    return unsentCount(this.store.db);
  }

  status(): SyncStatus {
    const db = this.store.db;
    const devices = this.devicesSeen();
    return {
      device: this.device(),
      lastSync: storedTime(stateValue(db, 'lastSync')),
      lastTarget: this.lastTarget(),
      devices,
      unsent: this.unsent(),
      blocked: this.blockedNoted().map((b) => ({ ...b, name: devices.find((d) => d.id === b.id)?.name ?? null })),
    };
  }
}
