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
import { deviceOf, outgoing, purgeDone, segmentRewritten, segmentsToRewrite, segmentWritten, setStateValue, startOutbox, stateValue, unsentCount, type Outgoing } from './sync-outgoing';
import { isIsoUtc, type IsoTime } from '../../../shared/time';
import { outboxOn } from '../store/sync-outbox';

/** The last sync's time as stored, or null when there is none (or it is not a time this memory wrote). */
function storedTime(text: string | undefined): IsoTime | null {
  return text !== undefined && isIsoUtc(text) ? text : null;
}

export type SyncWriter = <T>(fn: () => T, told: (result: T) => boolean) => T;

export interface SyncStatus {
  device: { id: string; name: string };
  lastSync: IsoTime | null;
  devices: { id: string; name: string; seq: number; appliedAt: IsoTime }[];
  /** Writes recorded here and not yet sent (outbox rows). */
  unsent: number;
}

/** The page cache a first sync's one write gets (negative: KiB), given back when it ends. */
const FIRST_SYNC_CACHE_KIB = -262_144;

export class SyncStore {
  /**
   * `file.checkpointInBackground`: copies the WAL into the database file off this thread after a
   * first sync's one write (false where it cannot: the idle checkpoint does it then);
   * `file.spoolDir`: where a first sync sets its segments aside (beside the memory's file).
   */
  constructor(
    private readonly store: WriteContext,
    private readonly write: SyncWriter,
    private readonly file: { checkpointInBackground(): boolean; spoolDir: string },
  ) {}

  spoolDir(): string {
    return this.file.spoolDir;
  }

  device(): { id: string; name: string } {
    const db = this.store.db;
    if (stateValue(db, 'device')) return deviceOf(db);
    return this.write(() => deviceOf(db), () => false);
  }

  /**
   * Names this device as the others will see it. A name another device syncing with this memory
   * already has is refused in words (two "Laptop"s could not be told apart), and nothing changes;
   * this device's own name again changes nothing (each sync names it), even if another took it since.
   */
  setDeviceName(name: string): void {
    if (this.device().name === name) return;
    const taken = this.nameTakenBy(name);
    if (taken) throw new MemoryInputError(`Another device that syncs with this memory is already named “${taken.name}”: give this one a name of its own.`, 'deviceName');
    this.write(() => setStateValue(this.store.db, 'deviceName', name), () => false);
  }

  /** Another device seen here by that name (spaces and case aside), or null. */
  nameTakenBy(name: string): { id: string; name: string } | null {
    const folded = name.trim().toLocaleLowerCase();
    const me = this.device().id;
    return this.status().devices.find((d) => d.id !== me && d.name.trim().toLocaleLowerCase() === folded) ?? null;
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

  segmentWritten(seq: number, name: string, lastOutbox: number, records: SyncRecord[]): void {
    this.write(() => segmentWritten(this.store.db, seq, name, lastOutbox, records), () => false);
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
    // The write reads and extends the indexes it keeps (random ids) across the whole store: with the
    // usual 32 MB of page cache a million facts took 258 s, with 256 MB 198 s (docs/benchmarks.md).
    const db = this.store.db;
    const usual = db.pragma('cache_size', { simple: true }) as number;
    db.pragma(`cache_size = ${FIRST_SYNC_CACHE_KIB}`);
    // The whole store goes through the WAL: neither its commit nor the next write's copies it into
    // the file (SQLite's automatic checkpoint, on this thread); a worker does, after
    // (transfer/background-checkpoint.ts; MemoryKernel.checkpointInBackground).
    db.pragma('wal_autocheckpoint = 0');
    let applied = false;
    try {
      const results = this.write(() => (startOutbox(db), applyFirstSync(this.store, segments, options)), (done) => done.some((r) => r.applied));
      applied = results.some((r) => r.applied);
      return results;
    } finally {
      db.pragma(`cache_size = ${usual}`);
      // On again once the worker has copied the WAL (or now, when none copies it).
      if (!(applied && this.file.checkpointInBackground())) db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    }
  }

  syncDone(at: IsoTime): void {
    this.write(() => setStateValue(this.store.db, 'lastSync', at), () => false);
  }

  unsent(): number {
    return unsentCount(this.store.db);
  }

  status(): SyncStatus {
    const db = this.store.db;
    return {
      device: this.device(),
      lastSync: storedTime(stateValue(db, 'lastSync')),
      devices: db.prepare<[], { id: string; name: string; seq: number; appliedAt: IsoTime }>('SELECT device AS id, name, seq, applied_at AS appliedAt FROM sync_cursors ORDER BY name, device').all(),
      unsent: this.unsent(),
    };
  }
}
