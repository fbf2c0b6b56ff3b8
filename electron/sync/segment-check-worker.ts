/**
 * The worker thread of a first sync in one write (segment-checks.ts): reads each spooled segment as
 * the main thread tells of it — unzipped, each line parsed, each record's id checked against its
 * content (segment-lines.ts) — and posts it, in order, at most CHECKED_AHEAD ahead of the main
 * thread, so this runs on the other core while the rest downloads and while the main thread writes.
 * It imports nothing but Node and segment-lines.ts (in a package it runs from app.asar.unpacked,
 * where the app's JavaScript packages are not). Every failure is posted, never thrown: the main
 * thread, waiting synchronously, cannot hear an error event.
 */
import { readFileSync } from 'node:fs';
import { receiveMessageOnPort, workerData } from 'node:worker_threads';
import { CHECKED_AHEAD, POSTED, READING, RUNNING, SENT, STATE, TAKEN, type SegmentCheckResult, type SegmentCheckStart, type SpooledMessage, type SpooledSegment } from './segment-check-protocol';
import { segmentLines, SegmentError } from './segment-lines';

const { state, segments, results } = (workerData as { check: SegmentCheckStart }).check;
const shared = new Int32Array(state);
const running = () => Atomics.load(shared, STATE) === RUNNING;

function check(index: number, { name, file }: SpooledSegment): SegmentCheckResult {
  try {
    return { index, lines: segmentLines(name, readFileSync(file)) };
  } catch (error) {
    if (error instanceof SegmentError) return { index, refused: error.message };
    return { index, failed: error instanceof Error ? error.message : String(error) };
  }
}

/** The next segment spooled (null: no more, or told to stop), waiting for it if need be. */
function nextSpooled(): SpooledSegment | null {
  while (running()) {
    const sent = Atomics.load(shared, SENT);
    const got = receiveMessageOnPort(segments);
    if (got) return got.message as SpooledMessage;
    Atomics.wait(shared, SENT, sent, 1_000);
  }
  return null;
}

/** Waits until fewer than CHECKED_AHEAD of the posted are untaken (false: told to stop). */
function roomFor(index: number): boolean {
  while (running()) {
    const taken = Atomics.load(shared, TAKEN);
    if (index - taken < CHECKED_AHEAD) return true;
    Atomics.wait(shared, TAKEN, taken, 1_000);
  }
  return false;
}

/** Checks a segment unless told to stop (null): READING is set before STATE is looked at (segment-check-protocol.ts). */
function checkUnlessStopped(index: number, segment: SpooledSegment): SegmentCheckResult | null {
  Atomics.store(shared, READING, 1);
  try {
    return running() ? check(index, segment) : null;
  } finally {
    Atomics.store(shared, READING, 0);
    Atomics.notify(shared, READING);
  }
}

for (let index = 0, segment = nextSpooled(); segment && roomFor(index); index++, segment = nextSpooled()) {
  const result = checkUnlessStopped(index, segment);
  if (!result) break;
  results.postMessage(result);
  Atomics.add(shared, POSTED, 1);
  Atomics.notify(shared, POSTED);
}
