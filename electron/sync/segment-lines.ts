/**
 * The part of reading a segment that needs nothing but Node (segments.ts does the rest, with the
 * records' schema): its content unzipped, split into lines and each parsed as JSON, and each
 * record's id checked against its content — a record's id is the sha256 of its canonical JSON
 * (keys sorted) without the id. A first sync does this on a worker thread (segment-check-worker.ts),
 * which imports nothing else: in a package it runs from app.asar.unpacked, where the app's other
 * JavaScript packages are not.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';

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

export const sha256 = (text: string | Uint8Array): string => createHash('sha256').update(text).digest('hex');

/** The id of a record with this content. */
export const recordIdOf = (device: unknown, at: unknown, body: unknown): string => sha256(canonical({ device, at, body }));

/** A segment's lines as JSON, before its schema is checked. */
export interface SegmentLines {
  /** Each line's value (the header first); null where a line is not JSON (listed in notJson). */
  values: unknown[];
  /** The lines that are not JSON, by index. */
  notJson: number[];
  /** For each record (line 1 on): whether its id is the one its content hashes to. */
  idMatches: boolean[];
}

/** Unzips and parses an opened segment; one that does not unzip is a SegmentError naming it. */
export function segmentLines(name: string, plain: Uint8Array): SegmentLines {
  let lines: string[];
  try {
    lines = gunzipSync(plain).toString('utf8').split('\n').filter((line) => line !== '');
  } catch {
    throw new SegmentError(name, `The segment ${name} could not be opened (it was changed or cut short: its content does not unzip).`);
  }
  const values: unknown[] = [];
  const notJson: number[] = [];
  const idMatches: boolean[] = [];
  lines.forEach((line, i) => {
    let value: unknown = null;
    try {
      value = JSON.parse(line) as unknown;
    } catch {
      notJson.push(i);
    }
    values.push(value);
    if (i === 0) return;
    const record = value as { id?: unknown; device?: unknown; at?: unknown; body?: unknown } | null;
    idMatches.push(typeof record === 'object' && record !== null && typeof record.id === 'string' && recordIdOf(record.device, record.at, record.body) === record.id);
  });
  return { values, notJson, idMatches };
}
