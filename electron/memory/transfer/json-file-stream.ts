/**
 * An export read from a file of any size without ever holding its text as one string (a memory of
 * a million facts is a longer text than one string can be): the bytes are decoded as they are read
 * and split into records, each parsed by JSON.parse (json-records.ts), into the value JSON.parse
 * would give for the whole. An import reads its file record by record instead (export-records.ts)
 * and comes here only for a file whose records are not in an export's order. A file that is not
 * JSON is said in one sentence with the line and column of the fault.
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { MemoryInputError } from '../memory-errors';
import { JsonFault, JsonRecords } from './json-records';
import { ENDS_MID_CHARACTER, firstNotUtf8, wholeCharactersEnd } from '../../../shared/utf8-text';

export interface ReadProgress {
  bytes: number;
  totalBytes: number;
}

export interface ReadJsonOptions {
  /** How the file is named in errors ("export.json"). */
  label: string;
  /** Told as the bytes are read (once per chunk of 256 KiB). */
  onProgress?: (progress: ReadProgress) => void;
  /** Stops reading; the read then rejects with ReadCancelled. */
  signal?: AbortSignal;
}

/** A file that is not JSON: `detail` says where and why ("line 4, column 13: Unexpected token ','"). */
export class NotJsonError extends MemoryInputError {
  constructor(
    label: string,
    readonly detail: string,
  ) {
    super(`${label} is not JSON: ${detail}`, label);
    this.name = 'NotJsonError';
  }
}

export class ReadCancelled extends Error {
  constructor() {
    super('the read was cancelled');
    this.name = 'ReadCancelled';
  }
}

const CHUNK_BYTES = 256 * 1024;
const BOM = [0xef, 0xbb, 0xbf];

/** Parses the JSON file at `path` piece by piece. Throws NotJsonError (naming the place), ReadCancelled, or the file system's error. */
export async function streamJsonFile(path: string, options: ReadJsonOptions): Promise<unknown> {
  const { signal, onProgress } = options;
  const totalBytes = statSync(path).size;
  // A leading byte-order mark is not JSON: it is skipped, as a text reader would.
  const start = startsWithBom(path) ? BOM.length : 0;
  const file = createReadStream(path, { start, highWaterMark: CHUNK_BYTES });
  // Fatal: bytes that are not UTF-8 (a file saved as Shift_JIS) are refused, never read as U+FFFD.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const records = new JsonRecords();
  let bytes = start;
  // The bytes of a character the last chunk cut short, which the decoder holds for the next one.
  let carried: Uint8Array = new Uint8Array();
  const decode = (chunk?: Buffer): string => {
    try {
      const text = chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
      if (chunk !== undefined) carried = tailOfCutCharacter(carried, chunk);
      return text;
    } catch {
      // The fault is in the carried bytes and this chunk, or a character cut short by the end.
      const joined = chunk === undefined ? carried : Buffer.concat([carried, chunk]);
      const at = bytes - carried.length + Math.max(0, firstNotUtf8(joined, { atEnd: chunk === undefined }));
      // At the end, what the decoder still holds is a character begun and never finished: the file was cut.
      if (chunk === undefined) throw cutMidCharacter(options.label, at);
      throw notUtf8(options.label, at);
    }
  };
  try {
    for await (const chunk of file as AsyncIterable<Buffer>) {
      if (signal?.aborted) throw new ReadCancelled();
      records.push(decode(chunk));
      bytes += chunk.length;
      onProgress?.({ bytes, totalBytes });
    }
    if (signal?.aborted) throw new ReadCancelled();
    records.push(decode());
    return records.end();
  } catch (error) {
    if (error instanceof JsonFault) throw new NotJsonError(options.label, error.message);
    throw error;
  } finally {
    file.destroy();
  }
}

/** The bytes after the last whole character of `carried` + `chunk` (at most three). */
function tailOfCutCharacter(carried: Uint8Array, chunk: Buffer): Uint8Array {
  const last = chunk.length >= 4 ? chunk.subarray(chunk.length - 4) : Buffer.concat([carried, chunk]).subarray(-4);
  return last.subarray(wholeCharactersEnd(last, last.length));
}

function startsWithBom(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(BOM.length);
    return readSync(fd, head, 0, BOM.length, 0) === BOM.length && BOM.every((b, i) => head[i] === b);
  } finally {
    closeSync(fd);
  }
}

/** A UTF-8 file cut off in the middle of the character that begins at byte `at`. */
export function cutMidCharacter(label: string, at: number): NotJsonError {
  return new NotJsonError(label, `${ENDS_MID_CHARACTER} at byte ${at.toLocaleString('en-US')} (was it cut short?)`);
}

/** A file whose bytes stop being UTF-8 at byte `at` (from the file's start). */
export function notUtf8(label: string, at: number): NotJsonError {
  return new NotJsonError(label, `not UTF-8 text at byte ${at.toLocaleString('en-US')}: save the file as UTF-8`);
}
