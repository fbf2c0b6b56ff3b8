/**
 * An export read from a file of any size without ever holding its text as one string (a memory of
 * a million facts is a longer text than one string can be): the bytes stream through a JSON
 * tokenizer (stream-json) and are assembled into the value JSON.parse would give. `tempora import`
 * of a large file and the screens' uploaded imports (engine/import-uploads.ts) both read here.
 *
 * A file that is not JSON is said in one sentence with the line and column of the fault: the
 * tokenizer knows no positions, so a file small enough to be one string (any file a person edited)
 * is read again whole, only then, to find them (shared/json-position.ts).
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs';
import parserStream from 'stream-json';
import Assembler from 'stream-json/assembler.js';
import { describeJsonError } from '../../../shared/json-position';
import { MemoryInputError } from '../memory-errors';

export interface ReadProgress {
  bytes: number;
  totalBytes: number;
}

export interface ReadJsonOptions {
  /** How the file is named in errors ("export.json"). */
  label: string;
  /** Told as the bytes are read (once per chunk of about a MiB). */
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

/** Up to this size, a file that turns out not to be JSON is read whole to say the line and column. */
const LOCATE_FAULTS_UP_TO = 256 * 1024 * 1024;
const CHUNK_BYTES = 1 << 20;
const BOM = [0xef, 0xbb, 0xbf];

/** Parses the JSON file at `path` as a stream. Throws NotJsonError (naming the place), ReadCancelled, or the file system's error. */
export async function streamJsonFile(path: string, options: ReadJsonOptions): Promise<unknown> {
  const { signal, onProgress } = options;
  const totalBytes = statSync(path).size;
  // A leading byte-order mark is not JSON: it is skipped, as a text reader would.
  const start = startsWithBom(path) ? BOM.length : 0;
  const file = createReadStream(path, { start, highWaterMark: CHUNK_BYTES });
  const tokens = parserStream();
  let bytes = start;
  let abort: (() => void) | undefined;
  const value = new Promise<unknown>((done, fail) => {
    Assembler.connectTo(tokens, { onDone: (asm) => done(asm.current) });
    tokens.on('error', fail);
    tokens.on('end', () => fail(new Error('the file ends before the JSON value does')));
    file.on('error', fail);
    abort = () => fail(new ReadCancelled());
    if (signal?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
  });
  file.on('data', (chunk) => {
    bytes += chunk.length;
    onProgress?.({ bytes, totalBytes });
  });
  file.pipe(tokens);
  try {
    return await value;
  } catch (error) {
    if (error instanceof ReadCancelled || (error as NodeJS.ErrnoException).code !== undefined) throw error;
    throw notJson(path, options.label, totalBytes, bytes, error as Error);
  } finally {
    if (abort) signal?.removeEventListener('abort', abort);
    file.destroy();
    tokens.destroy();
  }
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

/** The fault in words: its line and column where the file can be read whole, else about how far in it is. */
function notJson(path: string, label: string, totalBytes: number, bytesRead: number, error: Error): NotJsonError {
  const streamed = error.message.replace(/^Parser cannot parse input: /, '');
  if (totalBytes > LOCATE_FAULTS_UP_TO) return new NotJsonError(label, `${streamed} (in the MiB before byte ${bytesRead.toLocaleString('en')})`);
  const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  try {
    JSON.parse(text);
  } catch (parseError) {
    return new NotJsonError(label, withoutQuotedText(describeJsonError(text, parseError)));
  }
  return new NotJsonError(label, streamed);
}

/** V8 quotes the text around a fault (`Unexpected token ',', ..."facts": [,]..." is not valid JSON`); the line and column say where already. */
function withoutQuotedText(message: string): string {
  return message.replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
}
