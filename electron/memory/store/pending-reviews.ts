/**
 * Review before remembering (issue 15): a memory setting, off by default, kept in the memory itself
 * so that every door (the app, `tempora ingest`, a chat-history backfill) follows it. While it is on,
 * what the model learned from a message (a Learning: plain data) waits here unapplied until the user
 * approves or rejects it (temporal/review-learning.ts). Waiting is not remembering: nothing here is a
 * fact, so the chat model is never given it and search never finds it. A message forgotten while
 * its learning waits takes the waiting learning with it (ON DELETE CASCADE, migration 0016).
 */
import type { Learning } from './learning-record';
import { readSetting, writeSettings } from './settings';
import type { StoreContext } from './store-context';
import type { IsoTime } from '../../../shared/time';

export interface HeldLearning {
  episodeId: string;
  learning: Learning;
  heldAt: IsoTime;
}

/** Whether learned messages wait for review (a setting: store/settings.ts). */
export function reviewing(ctx: Pick<StoreContext, 'db'>): boolean {
  return readSetting(ctx, 'reviewBeforeRemembering');
}

export function setReviewing(ctx: Pick<StoreContext, 'db'>, on: boolean): void {
  writeSettings(ctx, { reviewBeforeRemembering: on });
}

/** Keeps a message's learning for review (replacing one kept before for the same message). */
export function holdLearning(ctx: Pick<StoreContext, 'db' | 'clock'>, learning: Learning): void {
  ctx.db.prepare('INSERT OR REPLACE INTO pending_reviews (episode_id, learning, held_at, rejected_at) VALUES (?, ?, ?, NULL)').run(learning.episodeId, JSON.stringify(learning), ctx.clock.now());
}

/** A message's learning still waiting (not rejected). */
export function heldLearning(ctx: Pick<StoreContext, 'db'>, episodeId: string): HeldLearning | undefined {
  const row = ctx.db.prepare<[string], { episode_id: string; learning: string; held_at: IsoTime }>('SELECT episode_id, learning, held_at FROM pending_reviews WHERE episode_id = ? AND rejected_at IS NULL').get(episodeId);
  return row && { episodeId: row.episode_id, learning: JSON.parse(row.learning) as Learning, heldAt: row.held_at };
}

/** Where a message stands in review: waiting, rejected (when), or neither. */
export function reviewStateOf(ctx: Pick<StoreContext, 'db'>, episodeId: string): { state: 'waiting' } | { state: 'rejected'; at: IsoTime } | null {
  const row = ctx.db.prepare<[string], { rejected_at: IsoTime | null }>('SELECT rejected_at FROM pending_reviews WHERE episode_id = ?').get(episodeId);
  if (!row) return null;
  return row.rejected_at === null ? { state: 'waiting' } : { state: 'rejected', at: row.rejected_at };
}

/** Waiting learnings, newest message first (like every list the user reads). */
export function heldLearnings(ctx: Pick<StoreContext, 'db'>, limit: number): HeldLearning[] {
  return ctx.db
    .prepare<[number], { episode_id: string; learning: string; held_at: IsoTime }>(
      'SELECT p.episode_id, p.learning, p.held_at FROM pending_reviews p JOIN episodes e ON e.id = p.episode_id WHERE p.rejected_at IS NULL ORDER BY e.reference_time DESC, e.created_at DESC, e.id DESC LIMIT ?',
    )
    .all(limit)
    .map((row) => ({ episodeId: row.episode_id, learning: JSON.parse(row.learning) as Learning, heldAt: row.held_at }));
}

export function waitingReviews(ctx: Pick<StoreContext, 'db'>): number {
  return ctx.db.prepare<[], number>('SELECT COUNT(*) FROM pending_reviews WHERE rejected_at IS NULL').pluck().get() ?? 0;
}

/** Removes a waiting learning (it was approved); true when there was one. */
export function dropHeld(ctx: Pick<StoreContext, 'db'>, episodeId: string): boolean {
  return ctx.db.prepare('DELETE FROM pending_reviews WHERE episode_id = ? AND rejected_at IS NULL').run(episodeId).changes > 0;
}

/** Marks a waiting learning rejected: nothing of it is remembered, and the message says so. */
export function rejectHeld(ctx: Pick<StoreContext, 'db' | 'clock'>, episodeId: string): boolean {
  return ctx.db.prepare('UPDATE pending_reviews SET rejected_at = ?, learning = ? WHERE episode_id = ? AND rejected_at IS NULL').run(ctx.clock.now(), '{}', episodeId).changes > 0;
}

/** Drops what waits for review from a conversation that stopped being remembered; returns how many. */
export function dropHeldOfConversation(ctx: Pick<StoreContext, 'db'>, conversationId: string): number {
  return ctx.db.prepare('DELETE FROM pending_reviews WHERE rejected_at IS NULL AND episode_id IN (SELECT id FROM episodes WHERE conversation_id = ?)').run(conversationId).changes;
}
