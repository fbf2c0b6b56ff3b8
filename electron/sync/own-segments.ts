/**
 * This device's own segments on the target (docs/sync.md "Own segments"): which of them this memory
 * has no record of, and what it does with them.
 */
import type { SyncRecord } from '../../shared/sync-records';
import { decodeSegment, parseSegmentName, SegmentError, segmentPrefix, type SegmentCipher, type SegmentName } from './segments';
import type { SyncTarget } from './sync-target';

/** What the memory keeps of this device's own segments (memory.sync: electron/memory/sync/sync-store.ts). */
export interface OwnSegmentsMemory {
  /** Noted before each put, until its segmentWritten: a file of that number found later is this memory's own put cut short. */
  putting(seq: number): void;
  /** The number of the put that was cut short (null: none). */
  putCutShort(): number | null;
  /** This device's segments as this memory recorded them. */
  ownSegments(): { seq: number; name: string }[];
  /**
   * A segment of this device that this memory has no record of (a copy of it restored from a backup
   * wrote it): applied here, and kept as one of its own (null records: it cannot be read).
   */
  takeBack(header: { device: string; deviceName: string; seq: number }, name: string, records: SyncRecord[] | null): { records: number };
  /**
   * The target this sync reaches, by its key check's hash: on one this memory has not synced with
   * before (another folder), everything starts over — its own segments from the first, with all it
   * holds, and the others' applied from theirs; true then.
   */
  onTarget(id: string): boolean;
  segmentRewritten(seq: number, name: string, keys: string[]): void;
}

/**
 * This device's segments on the target that this memory has no record of, beyond the last it
 * recorded: a copy of this memory restored from a backup (or one that synced here before it moved
 * away) wrote them. Numbering its next segment after its own last would replace a file the others
 * have applied under that number, and they would never apply the new one; so what they hold is
 * applied here too (records held change nothing), and they are kept as this memory's own, its next
 * segment numbered after them. The one file of the number a put of this memory was cut short at is
 * that put's, replaced by the upload of that number (a stray). A segment recorded under a name the
 * target no longer has (rewritten after a forget by the later copy) is recorded under the name it has.
 */
export async function takeBackOwn(memory: OwnSegmentsMemory, target: SyncTarget, cipher: SegmentCipher, device: string, report: { tookBack: number; refused: string[] }): Promise<void> {
  const recorded = memory.ownSegments();
  const last = recorded.reduce((max, s) => Math.max(max, s.seq), 0);
  const files = (await target.list(segmentPrefix(device))).map((file) => parseSegmentName(file.name)).filter((s): s is SegmentName => s !== undefined && s.device === device);
  const cutShort = memory.putCutShort();
  const beyond = files.filter((s) => s.seq > last).sort((a, b) => a.seq - b.seq || (a.name < b.name ? -1 : 1));
  if (beyond.length > 0 && !beyond.every((s) => s.seq === cutShort)) {
    let previous = 0;
    for (const segment of beyond) {
      if (segment.seq === previous) continue; // a rewrite's two files of one number: the first is kept
      previous = segment.seq;
      try {
        const { header, records } = await decodeSegment(segment.name, await target.get(segment.name), cipher);
        report.tookBack += memory.takeBack({ device, deviceName: header.deviceName, seq: segment.seq }, segment.name, records).records;
      } catch (error) {
        if (!(error instanceof SegmentError)) throw error;
        // Its number is taken all the same: the others may have applied it.
        memory.takeBack({ device, deviceName: '', seq: segment.seq }, segment.name, null);
        report.refused.push(error.message);
      }
    }
  }
  const names = new Set(files.map((s) => s.name));
  for (const own of recorded) {
    if (names.has(own.name)) continue;
    const now = files.filter((s) => s.seq === own.seq);
    if (now.length === 1) memory.segmentRewritten(own.seq, now[0]!.name, []);
  }
}
