/**
 * A segment: one device's records, immutable once written (issue 31; docs/sync.md). On the target it
 * is `devices/<device>/segments/<seq>-<hash>`: a header line and one record per line (JSON), gzipped,
 * then sealed by the cipher with its name as associated data (so a segment renamed, swapped or
 * truncated fails to open). Records are content-addressed: a record's id is the sha256 of its
 * canonical JSON (keys sorted) without the id.
 */
import { gzipSync } from 'node:zlib';
import { segmentHeader, syncRecord, SYNC_FORMAT, type SegmentHeader, type SyncBody, type SyncRecord } from '../../shared/sync-records';
import type { IsoTime } from '../../shared/time';
import { recordIdOf, segmentLines, SegmentError, sha256, type SegmentLines } from './segment-lines';

export { canonical, SegmentError } from './segment-lines';

/** Seals and opens a segment's bytes, the name as associated data (sync-crypto.ts; tests pass a plain pair). */
export interface SegmentCipher {
  seal(name: string, bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
  open(name: string, bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

const SEGMENT_NAME = /^devices\/([0-9a-f]{32})\/segments\/(\d{8})-([0-9a-f]{16})$/;

export interface SegmentName {
  name: string;
  device: string;
  seq: number;
}

export const segmentPrefix = (device: string) => `devices/${device}/segments/`;
export const segmentNameOf = (device: string, seq: number, hash: string) => `${segmentPrefix(device)}${String(seq).padStart(8, '0')}-${hash.slice(0, 16)}`;

/** A target file's name read as a segment's (undefined: not one of ours). */
export function parseSegmentName(name: string): SegmentName | undefined {
  const match = SEGMENT_NAME.exec(name);
  return match ? { name, device: match[1]!, seq: Number(match[2]) } : undefined;
}

export function recordOf(device: string, at: IsoTime, body: SyncBody): SyncRecord {
  return { id: recordIdOf(device, at, body), device, at, body };
}

export async function encodeSegment(header: SegmentHeader, records: SyncRecord[], cipher: SegmentCipher): Promise<{ name: string; bytes: Uint8Array }> {
  const text = [JSON.stringify(header), ...records.map((r) => JSON.stringify(r))].join('\n') + '\n';
  const plain = gzipSync(Buffer.from(text, 'utf8'));
  const name = segmentNameOf(header.device, header.seq, sha256(plain));
  return { name, bytes: await cipher.seal(name, plain) };
}

/** Opens, checks and reads a segment; anything wrong is a SegmentError naming it (and nothing of it is applied). */
export async function decodeSegment(name: string, bytes: Uint8Array, cipher: SegmentCipher): Promise<{ header: SegmentHeader; records: SyncRecord[] }> {
  return readSegment(name, await openSegment(name, bytes, cipher));
}

/** A segment's content as sealed (still gzipped); a file that does not open is a SegmentError naming it. */
export async function openSegment(name: string, bytes: Uint8Array, cipher: SegmentCipher): Promise<Uint8Array> {
  if (!parseSegmentName(name)) throw new SegmentError(name, `${name} is not a segment name Tempora writes.`);
  try {
    return await cipher.open(name, bytes);
  } catch (error) {
    if (error instanceof SegmentError) throw error;
    // One sentence naming the file once (the cipher's own words name it too).
    if ((error as { kind?: unknown }).kind === 'newer-format') throw new SegmentError(name, `The segment ${name} was sealed by a newer Tempora: update Tempora on this device.`);
    throw new SegmentError(name, `The segment ${name} could not be opened (it was changed or cut short, renamed, or sealed with another passphrase).`);
  }
}

/** Checks and reads a segment's opened content (openSegment); anything wrong is a SegmentError naming it. */
export function readSegment(name: string, plain: Uint8Array): { header: SegmentHeader; records: SyncRecord[] } {
  if (!parseSegmentName(name)) throw new SegmentError(name, `${name} is not a segment name Tempora writes.`);
  return checkSegment(name, segmentLines(name, plain));
}

/**
 * Checks a segment's parsed lines (segmentLines, here or on a worker thread) against the records'
 * schema, in order: the header, then each record's shape and id; the first fault is a SegmentError
 * naming it.
 */
export function checkSegment(name: string, lines: SegmentLines): { header: SegmentHeader; records: SyncRecord[] } {
  const parsedName = parseSegmentName(name);
  if (!parsedName) throw new SegmentError(name, `${name} is not a segment name Tempora writes.`);
  const notJson = new Set(lines.notJson);
  const json = (i: number, what: string) => {
    if (notJson.has(i)) throw new SegmentError(name, `${what} of the segment ${name} is not JSON.`);
    return lines.values[i] ?? null;
  };
  const header = segmentHeader.safeParse(json(0, 'The header'));
  if (!header.success) throw new SegmentError(name, `The segment ${name} has no header Tempora can read.`);
  if (header.data.format > SYNC_FORMAT) throw new SegmentError(name, `The segment ${name} was written by a newer Tempora (format ${header.data.format}; this one reads ${SYNC_FORMAT}): update Tempora on this device.`);
  if (header.data.device !== parsedName.device || header.data.seq !== parsedName.seq) throw new SegmentError(name, `The segment ${name} says it is ${header.data.device} #${header.data.seq}: it is not the file its name says.`);
  const records: SyncRecord[] = [];
  for (let i = 1; i < lines.values.length; i++) {
    const parsed = syncRecord.safeParse(json(i, `Record ${i}`));
    if (!parsed.success) throw new SegmentError(name, `Record ${i} of the segment ${name} is not a record Tempora knows: ${parsed.error.issues[0]?.message ?? 'bad shape'}.`);
    if (parsed.data.device !== header.data.device || !lines.idMatches[i - 1]) throw new SegmentError(name, `Record ${i} of the segment ${name} does not match its id.`);
    records.push(parsed.data);
  }
  return { header: header.data, records };
}
