/**
 * Slots waiting to be re-resolved by the temporal rules: a migration that merged two slots into one
 * (0009: predicates normalised) cannot run the rules itself, so it queues the slots, and opening the
 * memory resolves them as an explicit step (Memory.resolveQueuedSlots, a few writes with progress).
 */
import type { Database } from 'better-sqlite3';
import type { WriteBatch } from './write-batch';

export function pendingSlotRefreshes(db: Database): { subject_id: string; predicate: string }[] {
  return db.prepare<[], { subject_id: string; predicate: string }>('SELECT subject_id, predicate FROM slot_refresh_queue ORDER BY subject_id, predicate').all();
}

/** Adds up to `limit` queued slots to the write and takes them off the queue; call inside a write. */
export function refreshQueuedSlots(ctx: { db: Database; slots: WriteBatch }, limit: number): number {
  const pending = pendingSlotRefreshes(ctx.db).slice(0, limit);
  const done = ctx.db.prepare('DELETE FROM slot_refresh_queue WHERE subject_id = ? AND predicate = ?');
  for (const slot of pending) {
    ctx.slots.refresh(slot.subject_id, slot.predicate);
    done.run(slot.subject_id, slot.predicate);
  }
  return pending.length;
}
