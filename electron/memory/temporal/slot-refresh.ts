/**
 * Slots waiting to be re-resolved by the temporal rules: a migration that merged two slots into one
 * (0009: predicates normalised) cannot run the rules itself, so it queues the slots and the store
 * resolves them when it opens, in one write.
 */
import type { Database } from 'better-sqlite3';
import type { WriteBatch } from './write-batch';

export function pendingSlotRefreshes(db: Database): { subject_id: string; predicate: string }[] {
  return db.prepare<[], { subject_id: string; predicate: string }>('SELECT subject_id, predicate FROM slot_refresh_queue ORDER BY subject_id, predicate').all();
}

/** Re-resolves every queued slot and empties the queue; call inside a write. */
export function refreshQueuedSlots(ctx: { db: Database; slots: WriteBatch }): number {
  const pending = pendingSlotRefreshes(ctx.db);
  for (const slot of pending) ctx.slots.refresh(slot.subject_id, slot.predicate);
  ctx.db.exec('DELETE FROM slot_refresh_queue');
  return pending.length;
}
