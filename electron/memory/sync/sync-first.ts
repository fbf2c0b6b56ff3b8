/**
 * A first sync onto an empty device (issue 31 item 7; docs/sync.md "A first sync in one write"):
 * every segment due from the other devices applied in one write, the way an import loads an empty
 * store — the row triggers (the timeline's rows and lives, live counts, the full-text queue, the
 * vector outbox) and the indexes of the loaded tables are dropped while the segments go in, and what
 * they keep is built once at the end (transfer/bulk-load.ts); what a resolver reads, when it first
 * reads what is stored (applyFirstSync below); what only a forget reads, when the first forget
 * comes. The segments are applied in order by applySegment, so the memory that results is the one
 * the segment-by-segment path makes (the convergence property runs both). A throw anywhere rolls the
 * whole first sync back: the store is empty again and the next sync starts over.
 */
import type { SyncRecord } from '../../../shared/sync-records';
import { startBulkLoad } from '../transfer/bulk-load';
import type { BulkLoadHelper } from '../transfer/bulk-load-helper';
import { isEmptyStore } from '../transfer/store-lookups';
import type { WriteContext } from '../temporal/write-batch';
import { applySegment, onlyAdds, type ApplyOptions, type ApplyResult } from './sync-apply';

export interface DueSegment {
  header: { device: string; deviceName: string; seq: number };
  /** Read when its turn comes (a spooled segment is read from its scratch file then). */
  records(): SyncRecord[];
}

export interface FirstSyncOptions extends ApplyOptions {
  /** Told after each segment applied (inside the write). */
  onSegment?: (done: number, result: ApplyResult) => void;
  /** Claims gathered at most before their slots are resolved and the rest goes segment by segment (default GATHER_AT_MOST). */
  gatherAtMost?: number;
  /** A worker builds the full text while this thread builds the rest (a large first sync): SyncStore.applyFirst starts it. */
  fullTextOnWorker?: boolean;
}

/**
 * Claims a first sync gathers at most (applyFirstSync). Each costs ~1.5 KB of heap until the slots
 * are resolved: at 100k facts (100k claims) the process peaked at 633 MB against 480 MB segment by
 * segment; a million gathered, at 2.6 GB. Past this many, the rest goes segment by segment, as into
 * a store that is not empty (resolving in batches of this many instead measured slower at 1M:
 * docs/benchmarks.md).
 */
export const GATHER_AT_MOST = 150_000;

/** Whether this store holds nothing a first sync could meet: no facts, messages or claims. */
export function isEmptyForFirstSync(ctx: WriteContext): boolean {
  return isEmptyStore(ctx.db) && !ctx.db.prepare('SELECT 1 FROM claims LIMIT 1').get();
}

/**
 * Applies `segments` in order inside the caller's write. Into an empty store, while the segments
 * only add (conversations, messages, claims: most first syncs throughout), their claims are gathered
 * and each slot is resolved once, reading nothing: the store holds nothing of it, and the indexes
 * such reads need are not built until then (bulk.readyForWrites). That happens at the end, or before
 * the first segment that removes something or that comes after GATHER_AT_MOST claims; from there
 * each segment is applied as on its own. A slot's facts are a pure function of its claims, so that
 * is the memory the segment-by-segment path makes (the convergence property draws both). Into a
 * store that is not empty (something was written since the caller looked) they are applied one
 * after another without the bulk load: the same result, at the per-segment cost. `fullTextHelper`
 * (full text only, begun): the bulk load's worker for the full text, unused into a store not empty.
 */
export function applyFirstSync(ctx: WriteContext, segments: Iterable<DueSegment>, options: FirstSyncOptions = {}, fullTextHelper: BulkLoadHelper | null = null): ApplyResult[] {
  const { gatherAtMost = GATHER_AT_MOST, onSegment, fullTextOnWorker: _started, ...applyOptions } = options;
  const bulk = isEmptyForFirstSync(ctx) ? startBulkLoad(ctx.db, fullTextHelper, { queueForSync: false, deletesRows: true }) : null;
  /** The uids of the claims gathered, while gathering. */
  let gathered: Set<string> | null = null;
  if (bulk) {
    gathered = new Set();
    ctx.slots.assumeNothingStored();
  }
  const results: ApplyResult[] = [];
  for (const segment of segments) {
    const records = segment.records();
    if (gathered && (gathered.size >= gatherAtMost || !onlyAdds(records))) {
      // Resolved now, as stored; what follows reads it (and the next part no longer assumes nothing stored).
      ctx.slots.resolvePart();
      bulk!.readyForWrites();
      gathered = null;
    } else if (!gathered && results.length > 0) ctx.slots.resolvePart();
    const result = applySegment(ctx, segment.header, records, bulk ? { ...applyOptions, beforeForget: () => bulk.readyForDeletes(), ...(gathered ? { gathered } : {}) } : applyOptions);
    results.push(result);
    onSegment?.(results.length, result);
  }
  // Resolved before the indexes and triggers come back (a slot resolved after would write through them).
  if (bulk) ctx.slots.commit();
  bulk?.finish(() => {});
  return results;
}
