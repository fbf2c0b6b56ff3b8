/**
 * A conversation's own settings (migration 0012): whether its messages are learned ("don't learn
 * from this conversation": they are kept, never learned), and where its title came from, so the
 * first message names a conversation nobody named and a rename by the user always wins.
 */
import { MemoryInputError } from '../memory-errors';
import { titleFromMessage } from './conversation-title';
import type { StoreContext } from './store-context';
import { dropHeldOfConversation } from './pending-reviews';
import { cachedStatement } from './database/statement-cache';

export type TitleSource = 'default' | 'message' | 'given';

export const DEFAULT_TITLE = 'New conversation';

/** Turns learning from a conversation on or off; off also takes its messages' unfinished jobs off the queue, and what waits for review. */
export function setLearning(ctx: StoreContext, conversationId: string, learn: boolean): { jobsRemoved: number } {
  const result = ctx.db.prepare('UPDATE conversations SET learn = ? WHERE id = ?').run(learn ? 1 : 0, conversationId);
  if (result.changes !== 1) throw new MemoryInputError(`no conversation with id ${conversationId}`, 'id', 'not_found');
  if (learn) return { jobsRemoved: 0 };
  // A job being learned right now is removed too: applying it finds the conversation off and stops.
  const removed = ctx.db
    .prepare("DELETE FROM ingestion_jobs WHERE status <> 'done' AND episode_id IN (SELECT id FROM episodes WHERE conversation_id = ?)")
    .run(conversationId).changes;
  // What waits for review is dropped as well: approving it later would learn from a conversation
  // that is not remembered.
  dropHeldOfConversation(ctx, conversationId);
  return { jobsRemoved: removed };
}

/** The conversation's messages that were learned and not undone (what "forget what was learned" takes back). */
export function learnedMessageIds(ctx: StoreContext, conversationId: string): string[] {
  return ctx.db
    .prepare<[string], { id: string }>(
      `SELECT e.id FROM episodes e
       WHERE e.conversation_id = ? AND NOT EXISTS (SELECT 1 FROM message_learning m WHERE m.episode_id = e.id AND m.undone_at IS NOT NULL)
         AND (EXISTS (SELECT 1 FROM message_learning m WHERE m.episode_id = e.id) OR EXISTS (SELECT 1 FROM ingestion_jobs j WHERE j.episode_id = e.id AND j.status = 'done'))
       ORDER BY e.reference_time DESC, e.created_at DESC, e.id DESC`,
    )
    .all(conversationId)
    .map((r) => r.id);
}

export function setTitleSource(ctx: StoreContext, conversationId: string, source: TitleSource): void {
  ctx.db.prepare('UPDATE conversations SET title_source = ? WHERE id = ?').run(source, conversationId);
}

/** A conversation nobody named takes its first user message's first line as its title. */
export function titleFromFirstMessage(ctx: StoreContext, conversationId: string, content: string): void {
  cachedStatement(ctx.db, "UPDATE conversations SET title = ?, title_source = 'message' WHERE id = ? AND title_source = 'default'").run(titleFromMessage(content), conversationId);
}
