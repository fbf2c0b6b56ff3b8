/**
 * The names the other devices on a target go by now (docs/sync.md "Faces"): a device's name travels
 * in the header of each segment it writes, so its latest segment says it — a rename with nothing else
 * to send goes up as a segment of no records (sync-runner.ts). Read before a sync names this device,
 * so a name another device on the target already has is refused before anything goes up under it,
 * even at first contact, when this memory has applied none of that device's segments. The check reads
 * through the sync's own TargetReads (target-reads.ts): the listing it reads is the one the sync then
 * uses, and a segment it fetches for its header is the one the sync then applies, not fetched again.
 */
import { gunzipSync } from 'node:zlib';
import { segmentHeader } from '../../shared/sync-records';
import { openSegment, parseSegmentName, SegmentError, type SegmentCipher, type SegmentName } from './segments';
import { SyncTargetError, type SyncTarget } from './sync-target';
import { TargetReads } from './target-reads';

/** What this memory knows of the devices (nothing, for a memory not made yet). */
export interface KnownDevices {
  /** This device's id; null when it has none yet (then every device on the target is another). */
  me: string | null;
  /** The last segment of a device applied here (0: none). */
  cursor(device: string): number;
  /** The name a device had in the last segment of it applied here. */
  nameSeen(device: string): string | undefined;
}

/** Spaces and case aside: "Desk " and "desk" are the same name. */
export const sameName = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

/**
 * Another device on the target that goes by `name` (spaces and case aside), or null. A device whose
 * latest segment this memory has applied is named as applied; another one's latest segment is read
 * (only its header is used; the file is held for the sync that applies it when `target` is that
 * sync's TargetReads). One that does not open is named as last applied here, if ever.
 */
export async function deviceNamedOnTarget(target: SyncTarget, cipher: SegmentCipher, name: string, known: KnownDevices): Promise<{ id: string; name: string } | null> {
  const reads = TargetReads.of(target);
  const latest = new Map<string, SegmentName>();
  for (const file of await reads.list('devices/')) {
    const segment = parseSegmentName(file.name);
    if (!segment || segment.device === known.me) continue;
    if ((latest.get(segment.device)?.seq ?? 0) < segment.seq) latest.set(segment.device, segment);
  }
  for (const [device, segment] of latest) {
    const current = known.cursor(device) >= segment.seq ? known.nameSeen(device) : ((await headerName(reads, cipher, segment)) ?? known.nameSeen(device));
    if (current !== undefined && sameName(current, name)) return { id: device, name: current };
  }
  return null;
}

async function headerName(reads: TargetReads, cipher: SegmentCipher, segment: SegmentName): Promise<string | undefined> {
  try {
    const text = gunzipSync(await openSegment(segment.name, await reads.readAhead(segment.name), cipher)).toString('utf8');
    const end = text.indexOf('\n');
    const header = segmentHeader.safeParse(JSON.parse(end < 0 ? text : text.slice(0, end)));
    return header.success && header.data.device === segment.device ? header.data.deviceName : undefined;
  } catch (error) {
    // Refused by the sync itself, in words; here it only names no one. A file removed since the list names no one either.
    const unreadable = error instanceof SegmentError || error instanceof SyntaxError || (error instanceof SyncTargetError && error.kind === 'missing') || /^Z_/.test(String((error as { code?: unknown }).code));
    if (unreadable) return undefined;
    throw error;
  }
}
