/**
 * A segment: one device's records, immutable once written (issue 31; docs/sync.md). On the target it
 * is `devices/<device>/segments/<seq>-<hash>`: a header line and one record per line (JSON), gzipped,
 * then sealed by the cipher with its name as associated data (so a segment renamed, swapped or
 * truncated fails to open). Records are content-addressed: a record's id is the sha256 of its
 * canonical JSON (keys sorted) without the id.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { segmentHeader, syncRecord, SYNC_FORMAT, type SegmentHeader, type SyncBody, type SyncRecord } from '../../shared/sync-records';
import type { IsoTime } from '../../shared/time';

/** Seals and opens a segment's bytes, the name as associated data (sync-crypto.ts; tests pass a plain pair). */
export interface SegmentCipher {
  seal(name: string, bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
  open(name: string, bytes: Uint8Array): Uint8Array | Promise<Uint8Array>;
}

/** A segment that cannot be read, in words naming it. */
export class SegmentError extends Error {
  constructor(
    readonly segment: string,
    message: string,
  ) {
    super(message);
    this.name = 'SegmentError';
  }
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

/** A key written as it is inside quotes (every key Tempora's records have); any other is escaped by JSON.stringify. */
const PLAIN_KEY = /^[A-Za-z0-9_]+$/;

/** JSON with every object's keys sorted and undefined members left out: what a record's id hashes. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  // Loops and plain concatenation: a sync hashes every record it writes and every one it reads
  // (2M at a million facts), and this is most of that cost.
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += (i > 0 ? ',' : '') + (canonical(value[i]) ?? '');
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let text = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const member = object[key];
    if (member === undefined) continue;
    text += (first ? '' : ',') + (PLAIN_KEY.test(key) ? `"${key}"` : JSON.stringify(key)) + ':' + (typeof member === 'string' ? JSON.stringify(member) : member === null ? 'null' : canonical(member));
    first = false;
  }
  return text + '}';
}

const sha256 = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');

export function recordOf(device: string, at: IsoTime, body: SyncBody): SyncRecord {
  return { id: sha256(canonical({ device, at, body })), device, at, body };
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
    throw new SegmentError(name, `The segment ${name} could not be opened (${error instanceof Error ? error.message : String(error)}): it was changed or cut short, or sealed with another passphrase.`);
  }
}

/** Checks and reads a segment's opened content (openSegment); anything wrong is a SegmentError naming it. */
export function readSegment(name: string, plain: Uint8Array): { header: SegmentHeader; records: SyncRecord[] } {
  const parsedName = parseSegmentName(name);
  if (!parsedName) throw new SegmentError(name, `${name} is not a segment name Tempora writes.`);
  let lines: string[];
  try {
    lines = gunzipSync(plain).toString('utf8').split('\n').filter((line) => line !== '');
  } catch (error) {
    throw new SegmentError(name, `The segment ${name} could not be opened (${error instanceof Error ? error.message : String(error)}): it was changed or cut short, or sealed with another passphrase.`);
  }
  const json = (line: string | undefined, what: string) => {
    try {
      return JSON.parse(line ?? 'null') as unknown;
    } catch {
      throw new SegmentError(name, `${what} of the segment ${name} is not JSON.`);
    }
  };
  const header = segmentHeader.safeParse(json(lines[0], 'The header'));
  if (!header.success) throw new SegmentError(name, `The segment ${name} has no header Tempora can read.`);
  if (header.data.format > SYNC_FORMAT) throw new SegmentError(name, `The segment ${name} was written by a newer Tempora (format ${header.data.format}; this one reads ${SYNC_FORMAT}): update Tempora on this device.`);
  if (header.data.device !== parsedName.device || header.data.seq !== parsedName.seq) throw new SegmentError(name, `The segment ${name} says it is ${header.data.device} #${header.data.seq}: it is not the file its name says.`);
  const records = lines.slice(1).map((line, i) => {
    const parsed = syncRecord.safeParse(json(line, `Record ${i + 1}`));
    if (!parsed.success) throw new SegmentError(name, `Record ${i + 1} of the segment ${name} is not a record Tempora knows: ${parsed.error.issues[0]?.message ?? 'bad shape'}.`);
    const { id, device, at, body } = parsed.data;
    if (device !== header.data.device || recordOf(device, at, body).id !== id) throw new SegmentError(name, `Record ${i + 1} of the segment ${name} does not match its id.`);
    return parsed.data;
  });
  return { header: header.data, records };
}
