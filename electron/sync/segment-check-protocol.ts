/**
 * How a first sync's segment checks run on the machine's other core (segment-checks.ts, the main
 * thread's side; segment-check-worker.ts, the worker's): the main thread tells the worker of each
 * segment as it is spooled (`segments` port); the worker reads them in order — unzips, parses and
 * checks each record's id (segment-lines.ts) — and posts each on the `results` port, which the main thread reads synchronously
 * (receiveMessageOnPort) inside its write. Counters in a shared Int32Array say how far each side is.
 */
import type { MessagePort } from 'node:worker_threads';
import type { SegmentLines } from './segment-lines';

/** Segments the worker has posted. */
export const POSTED = 0;
/** Segments the main thread has taken. */
export const TAKEN = 1;
/** The worker's state: RUNNING until it could not start (FAILED) or was told to stop (STOPPED). */
export const STATE = 2;
/** Messages the main thread has sent on the `segments` port (a segment spooled, or the end). */
export const SENT = 3;
/**
 * 1 while the worker reads a segment. It sets this before it looks at STATE and clears it after the
 * read, so once the main thread has stored STOPPED and then seen 0 here, no read is under way and
 * none will start. The main thread never terminates the worker inside a read: on Node 20 a worker
 * terminated inside gunzipSync aborts the whole process ("close before init").
 */
export const READING = 4;
export const SHARED_SLOTS = 5;

export const RUNNING = 0;
export const FAILED = 1;
export const STOPPED = 2;

/**
 * The most segments checked and not yet taken (each holds up to a segment's records, a few MB): the
 * checks run ahead while the rest downloads, then stay this far ahead of the one being applied.
 */
export const CHECKED_AHEAD = 8;

export interface SpooledSegment {
  /** The segment's name on the target (what its words and its check name). */
  name: string;
  /** Its opened, still gzipped content in the spool. */
  file: string;
}

/** On the `segments` port: a segment spooled, or null when no more will come. */
export type SpooledMessage = SpooledSegment | null;

export interface SegmentCheckStart {
  state: SharedArrayBuffer;
  segments: MessagePort;
  results: MessagePort;
}

/**
 * One segment read: its lines parsed and its records' ids checked (the main thread checks them
 * against the schema: segments.ts checkSegment), or refused in words (it does not unzip), or failed
 * otherwise (a file that could not be read).
 */
export type SegmentCheckResult = { index: number; lines: SegmentLines } | { index: number; refused: string } | { index: number; failed: string };
