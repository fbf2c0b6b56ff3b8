/**
 * A first sync's segment checks (sync-runner.ts applyInOneWrite), run on the machine's other core
 * while the rest downloads and while the main thread applies the segments in one write: reading and
 * checking the segments (gunzip, JSON, each record's shape and sha256 id) is about a quarter of a
 * first sync's time on one thread. The worker (segment-check-worker.ts) unzips and parses each
 * segment and checks its records' ids as it is spooled, in order; the main thread takes each result
 * synchronously, inside its write, and checks it against the records' schema (checkSegment).
 *
 * The worker is help, never a dependency: where it cannot be found or started, when its boot fails,
 * when it stalls, or when a spooled file failed to read there, the main thread checks that segment
 * and the rest itself — the same readSegment, the same words for a segment refused.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { SegmentHeader, SyncRecord } from '../../shared/sync-records';
import { startWorkerThread } from '../memory/index';
import { FAILED, POSTED, READING, RUNNING, SENT, SHARED_SLOTS, STATE, STOPPED, TAKEN, type SegmentCheckResult, type SegmentCheckStart, type SpooledMessage, type SpooledSegment } from './segment-check-protocol';
import { checkSegment, readSegment, SegmentError } from './segments';

/** A segment read and checked, or refused in words (it is not applied; its device's later segments wait). */
export type CheckedSegment = { header: SegmentHeader; records: SyncRecord[] } | { refused: string };

/** With no segment posted for this long while one is awaited, the worker is taken as stalled and this thread checks the rest. */
const STALL_MS = 30_000;

interface Helper {
  exited: Promise<number>;
  segments: MessagePort;
  results: MessagePort;
  shared: Int32Array;
}

export class SegmentChecks {
  private readonly spooled: SpooledSegment[] = [];
  private next = 0;
  /** Segments the worker checked (the rest, and any after it stopped helping, this thread did). */
  checkedByWorker = 0;

  /** When the worker has left (its exit code: 0 when it stopped on its own), or null where none started. */
  readonly exited: Promise<number | null>;

  private constructor(private helper: Helper | null) {
    this.exited = helper ? helper.exited : Promise.resolve(null);
  }

  /** Checks segments as they are added: on a worker (`worker`, where one starts), else when taken. */
  static start(options: { worker: boolean }): SegmentChecks {
    return new SegmentChecks(options.worker ? startHelper() : null);
  }

  /** One more spooled segment, after those added before it. */
  add(segment: SpooledSegment): void {
    this.spooled.push(segment);
    this.send(segment);
  }

  /** No more segments will be added. */
  end(): void {
    this.send(null);
  }

  /** The next segment, read and checked (segments are taken in the order added, each once). */
  take(): CheckedSegment {
    const index = this.next++;
    const segment = this.spooled[index];
    if (!segment) throw new Error(`no segment ${index + 1}: ${this.spooled.length} were spooled`);
    const result = this.helper ? this.fromWorker(index) : null;
    if (result && !('failed' in result)) this.checkedByWorker++;
    else this.close();
    try {
      if (!result || 'failed' in result) return readSegment(segment.name, readFileSync(segment.file));
      return 'refused' in result ? { refused: result.refused } : checkSegment(segment.name, result.lines);
    } catch (error) {
      if (error instanceof SegmentError) return { refused: error.message };
      throw error;
    }
  }

  /** Passes over the next segment unread (its device waits on an earlier one refused). */
  skip(): void {
    const index = this.next++;
    if (this.helper && !this.fromWorker(index)) this.close();
  }

  /**
   * Stops the worker (idempotent): what it has not posted is not waited for, but a segment it is
   * reading is — at most one segment's read — and then it leaves on its own. It is never
   * terminated: on Node 20 a worker terminated inside gunzipSync aborts the process.
   */
  close(): void {
    const helper = this.helper;
    if (!helper) return;
    this.helper = null;
    const { shared } = helper;
    Atomics.store(shared, STATE, STOPPED);
    Atomics.notify(shared, TAKEN);
    Atomics.notify(shared, SENT);
    // A worker still reading after STALL_MS is left to finish alone (it is unref'd, and stops after that read).
    for (const until = Date.now() + STALL_MS; Atomics.load(shared, READING) === 1 && Date.now() < until; ) Atomics.wait(shared, READING, 1, 100);
    helper.segments.close();
    helper.results.close();
  }

  private send(message: SpooledMessage): void {
    if (!this.helper) return;
    const { segments, shared } = this.helper;
    segments.postMessage(message);
    Atomics.add(shared, SENT, 1);
    Atomics.notify(shared, SENT);
  }

  /** The worker's result for segment `index`, or null when it will not come (the caller checks it). */
  private fromWorker(index: number): SegmentCheckResult | null {
    const { results, shared } = this.helper!;
    let posted = Atomics.load(shared, POSTED);
    let since = Date.now();
    for (;;) {
      const got = receiveMessageOnPort(results);
      if (got) {
        const result = got.message as SegmentCheckResult;
        if (result.index !== index) return null;
        Atomics.add(shared, TAKEN, 1);
        Atomics.notify(shared, TAKEN);
        return result;
      }
      if (Atomics.load(shared, STATE) !== RUNNING) return null;
      const now = Atomics.load(shared, POSTED);
      if (now !== posted) {
        [posted, since] = [now, Date.now()];
        continue;
      }
      if (Date.now() - since > STALL_MS) return null;
      Atomics.wait(shared, POSTED, posted, 100);
    }
  }
}

function startHelper(): Helper | null {
  const state = new SharedArrayBuffer(SHARED_SLOTS * Int32Array.BYTES_PER_ELEMENT);
  const toWorker = new MessageChannel();
  const fromWorker = new MessageChannel();
  const check: SegmentCheckStart = { state, segments: toWorker.port2, results: fromWorker.port2 };
  let thread: Worker | null;
  try {
    thread = startWorkerThread({ name: 'segment-check-worker', sourceDir: dirname(fileURLToPath(import.meta.url)), data: { check }, failed: { state, index: STATE, value: FAILED }, transferList: [toWorker.port2, fromWorker.port2] });
  } catch {
    thread = null;
  }
  if (!thread) {
    for (const port of [toWorker.port1, fromWorker.port1]) port.close();
    return null;
  }
  // Its failures are seen through the shared state and its results (this thread waits synchronously).
  const worker = thread;
  worker.on('error', () => {});
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  worker.unref();
  return { exited, segments: toWorker.port1, results: fromWorker.port1, shared: new Int32Array(state) };
}
