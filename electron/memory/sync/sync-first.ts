/**
 * A first sync onto an empty device (issue 31 item 7; docs/sync.md "A first sync in one write"):
 * every segment due from the other devices applied in one write, the way an import loads an empty
 * store — the row triggers (the timeline's rows and lives, live counts, the full-text queue, the
 * vector outbox) and the indexes no write reads are dropped while the segments go in, and what they
 * keep is built once at the end (transfer/bulk-load.ts); what only a forget reads, when the first
 * forget comes. Each segment is applied exactly as applySegment applies one on its own, in the same
 * order, so the memory that results is the one the segment-by-segment path makes (the convergence
 * property runs both). A throw anywhere rolls the whole first sync back: the store is empty again and
 * the next sync starts over.
 */
import type { SyncRecord } from '../../../shared/sync-records';
import { startBulkLoad, WRITE_PATH_INDEXES } from '../transfer/bulk-load';
import { isEmptyStore } from '../transfer/store-lookups';
import type { WriteContext } from '../temporal/write-batch';
import { applySegment, type ApplyOptions, type ApplyResult } from './sync-apply';

export interface DueSegment {
  header: { device: string; deviceName: string; seq: number };
  /** Read when its turn comes (a spooled segment is read from its scratch file then). */
  records(): SyncRecord[];
}

export interface FirstSyncOptions extends ApplyOptions {
  /** Told after each segment applied (inside the write). */
  onSegment?: (done: number, result: ApplyResult) => void;
}

/** Whether this store holds nothing a first sync could meet: no facts, messages or claims. */
export function isEmptyForFirstSync(ctx: WriteContext): boolean {
  return isEmptyStore(ctx.db) && !ctx.db.prepare('SELECT 1 FROM claims LIMIT 1').get();
}

/**
 * Applies `segments` in order inside the caller's write. Into a store that is not empty (something
 * was written since the caller looked) they are applied one after another without the bulk load:
 * the same result, at the per-segment cost.
 */
export function applyFirstSync(ctx: WriteContext, segments: Iterable<DueSegment>, options: FirstSyncOptions = {}): ApplyResult[] {
  const bulk = isEmptyForFirstSync(ctx) ? startBulkLoad(ctx.db, null, { keepIndexes: WRITE_PATH_INDEXES, queueForSync: false, deletesRows: true }) : null;
  const results: ApplyResult[] = [];
  for (const segment of segments) {
    if (results.length > 0) ctx.slots.resolvePart();
    const result = applySegment(ctx, segment.header, segment.records(), bulk ? { ...options, beforeForget: () => bulk.readyForDeletes() } : options);
    results.push(result);
    options.onSegment?.(results.length, result);
  }
  bulk?.finish(() => {});
  return results;
}
