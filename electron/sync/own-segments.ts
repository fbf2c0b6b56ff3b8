/**
 * This device's own segments on the target (docs/sync.md "Own segments"): which of them this memory
 * has no record of, and what it does with them.
 */
import type { SyncRecord } from '../../shared/sync-records';
import { decodeSegment, parseSegmentName, SegmentError, segmentPrefix, type SegmentCipher, type SegmentName } from './segments';
import type { SyncTarget } from './sync-target';

/** What the memory keeps of this device's own segments (memory.sync: electron/memory/sync/sync-store.ts). */
export interface OwnSegmentsMemory {
  /** Noted before each put (the file's name), until its segmentWritten: that file found later is this memory's own put cut short. */
  putting(name: string): void;
  /** The name of the file whose put was cut short (null: none). */
  putCutShort(): string | null;
  /** This device's segments as this memory recorded them. */
  ownSegments(): { seq: number; name: string }[];
  /**
   * A segment of this device that this memory has no record of (a copy of it restored from a backup
   * wrote it): applied here, and kept as one of its own.
   */
  takeBack(header: { device: string; deviceName: string; seq: number }, name: string, records: SyncRecord[]): { records: number };
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
 * applied here too (records held change nothing), in order, and they are kept as this memory's own,
 * its next segment numbered after them. The one file a put of this memory was cut short at (by its
 * name: `putting`) is that put's, replaced by the upload of its number (a stray). One that cannot be
 * read, or a number missing before a later one (a synced folder still bringing it), stops there, said
 * in words: this sync sends nothing (its next number is not known yet), and the next one goes on
 * from there. A segment recorded under a name the target no longer has (rewritten after a forget by
 * the later copy) is recorded under the name it has. Returns whether this sync may send.
 */
export async function takeBackOwn(memory: OwnSegmentsMemory, target: SyncTarget, cipher: SegmentCipher, device: string, report: { tookBack: number; refused: string[]; waiting: string[] }): Promise<boolean> {
  const recorded = memory.ownSegments();
  const last = recorded.reduce((max, s) => Math.max(max, s.seq), 0);
  const files = (await target.list(segmentPrefix(device))).map((file) => parseSegmentName(file.name)).filter((s): s is SegmentName => s !== undefined && s.device === device);
  renamed(memory, recorded, files);
  const cutShort = memory.putCutShort();
  const beyond = files.filter((s) => s.seq > last).sort((a, b) => a.seq - b.seq || (a.name < b.name ? -1 : 1));
  if (beyond.length === 0 || beyond.every((s) => s.name === cutShort)) return true;
  let next = last + 1;
  for (const segment of beyond) {
    if (segment.seq === next - 1) continue; // a rewrite's two files of one number: the first is kept
    if (segment.seq !== next) {
      report.waiting.push(`Segment ${next} of this device, written by a later copy of this memory, is not on the target, though a later one is: this device sends nothing until it comes (a synced folder may still be bringing it).`);
      return false;
    }
    try {
      const { header, records } = await decodeSegment(segment.name, await target.get(segment.name), cipher);
      report.tookBack += memory.takeBack({ device, deviceName: header.deviceName, seq: segment.seq }, segment.name, records).records;
    } catch (error) {
      if (!(error instanceof SegmentError)) throw error;
      report.refused.push(`${error.message} It was written by a later copy of this memory: this device sends nothing until it can be read.`);
      return false;
    }
    next++;
  }
  return true;
}

/** Own segments recorded under a name the target no longer has, where one file of their number is there now. */
function renamed(memory: OwnSegmentsMemory, recorded: { seq: number; name: string }[], files: SegmentName[]): void {
  const names = new Set(files.map((s) => s.name));
  for (const own of recorded) {
    if (names.has(own.name)) continue;
    const now = files.filter((s) => s.seq === own.seq);
    if (now.length === 1) memory.segmentRewritten(own.seq, now[0]!.name, []);
  }
}
