/**
 * Conversations as the chat sees them: the episodes' conversations, listed newest first, renamed,
 * a message removed (deleting a whole conversation: temporal/conversation-writes.ts). Also which
 * facts each assistant message was given.
 */
import type { ChatMessageRecord, ConversationSummary } from '../../../shared/api-contract';
import type { EpisodeRecord } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';
import { messageLearning } from './message-learning';
import type { StoreContext } from './store-context';

export function listConversations(ctx: StoreContext): ConversationSummary[] {
  return ctx.db
    .prepare<[], Omit<ConversationSummary, 'learn'> & { learn: number }>(
      // Counts kept by triggers (migration 0018): no message is read.
      `SELECT c.id, c.title, c.created_at, COALESCE(c.last_message_at, c.updated_at, c.created_at) AS updated_at, c.message_count, c.learn
       FROM conversations c ORDER BY updated_at DESC, c.id`,
    )
    .all()
    .map((c) => ({ ...c, learn: c.learn !== 0 }));
}

/** Which of a conversation's messages to read: the latest `limit` (all without one), back to a few before `from`. */
export interface MessageWindow {
  limit?: number | undefined;
  /** A message to show (a link to it): the window reaches back to CONTEXT_BEFORE messages before it. */
  from?: string | undefined;
}

/** Messages shown before a linked one, so it is read in its context. */
const CONTEXT_BEFORE = 10;

export function conversationMessages(ctx: StoreContext, conversationId: string, window: MessageWindow = {}): ChatMessageRecord[] {
  requireConversation(ctx, conversationId);
  let linked: EpisodeRecord | undefined;
  if (window.from !== undefined) {
    linked = ctx.episodes.byId(window.from);
    if (!linked || linked.conversation_id !== conversationId) throw new MemoryInputError(`no message ${window.from} in conversation ${conversationId}`, 'from', 'not_found');
  }
  const episodes = window.limit === undefined && linked === undefined ? ctx.episodes.ofConversation(conversationId) : ctx.episodes.ofConversationWindow(conversationId, window.limit ?? 1, linked, CONTEXT_BEFORE);
  const facts = ctx.db.prepare<[string], { fact_id: string }>('SELECT fact_id FROM message_facts WHERE episode_id = ? ORDER BY position');
  return episodes.map((e) => ({ ...e, fact_ids: facts.all(e.id).map((r) => r.fact_id), learning: messageLearning(ctx, e) }));
}

export function renameConversation(ctx: StoreContext, conversationId: string, title: string): void {
  const clean = title.trim();
  if (clean === '' || clean.length > 500) throw new MemoryInputError('title must be 1 to 500 characters', 'title');
  requireConversation(ctx, conversationId);
  ctx.episodes.renameConversation(conversationId, clean);
}

/** Removes a message nothing was learned from (a regenerated answer, a deleted chat) and its job. */
export function deleteMessage(ctx: StoreContext, episodeId: string): void {
  ctx.db.prepare('DELETE FROM ingestion_jobs WHERE episode_id = ?').run(episodeId);
  ctx.episodes.delete(episodeId);
}

export function recordMessageFacts(ctx: StoreContext, episodeId: string, factIds: string[]): void {
  const insert = ctx.db.prepare('INSERT OR IGNORE INTO message_facts (episode_id, fact_id, position) VALUES (?, ?, ?)');
  factIds.forEach((id, i) => insert.run(episodeId, id, i));
}

export function requireConversation(ctx: StoreContext, id: string): void {
  if (!ctx.episodes.conversation(id)) throw new MemoryInputError(`no conversation with id ${id}`, 'conversation', 'not_found');
}
