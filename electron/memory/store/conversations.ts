/**
 * Conversations as the chat sees them: the episodes' conversations, listed newest first, renamed,
 * and deleted — either forgetting what was learned from them, or keeping it (then only messages
 * that are the source of a remembered fact stay, detached, as provenance).
 */
import type { EpisodeRecord } from '../../../shared/memory-schema';
import type { Memory } from '../memory';
import { MemoryInputError } from '../memory-errors';

export interface ConversationSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  message_count: number;
}

export interface ChatMessageRecord extends EpisodeRecord {
  /** For assistant messages: the facts that were in the model's context. */
  fact_ids: string[];
}

export function listConversations(memory: Memory): ConversationSummary[] {
  return memory.db
    .prepare<[], ConversationSummary>(
      `SELECT c.id, c.title, c.created_at, COALESCE(MAX(e.created_at), c.updated_at, c.created_at) AS updated_at, COUNT(e.id) AS message_count
       FROM conversations c LEFT JOIN episodes e ON e.conversation_id = c.id
       GROUP BY c.id ORDER BY updated_at DESC, c.id`,
    )
    .all();
}

export function conversationMessages(memory: Memory, conversationId: string): ChatMessageRecord[] {
  requireConversation(memory, conversationId);
  const facts = memory.db.prepare<[string], { fact_id: string }>('SELECT fact_id FROM message_facts WHERE episode_id = ? ORDER BY position');
  return memory.episodes.ofConversation(conversationId).map((e) => ({ ...e, fact_ids: facts.all(e.id).map((r) => r.fact_id) }));
}

export function renameConversation(memory: Memory, conversationId: string, title: string): void {
  const clean = title.trim();
  if (clean === '' || clean.length > 500) throw new MemoryInputError('title must be 1 to 500 characters', 'title');
  requireConversation(memory, conversationId);
  memory.episodes.renameConversation(conversationId, clean);
}

/** Deletes a conversation. forget: also forget every fact learned only from it. */
export function deleteConversation(memory: Memory, conversationId: string, options: { forget: boolean }): { forgottenFacts: string[]; keptMessages: number } {
  requireConversation(memory, conversationId);
  const episodes = memory.episodes.ofConversation(conversationId);
  const forgottenFacts: string[] = [];
  let keptMessages = 0;
  const run = () => {
    for (const episode of episodes) {
      if (options.forget) {
        forgottenFacts.push(...memory.forgetEpisodeInTransaction(episode.id).factIds);
        continue;
      }
      const cited = memory.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM fact_episodes WHERE episode_id = ?').get(episode.id)!.n > 0;
      if (cited) {
        memory.db.prepare('UPDATE episodes SET conversation_id = NULL WHERE id = ?').run(episode.id);
        keptMessages++;
      } else {
        memory.db.prepare('DELETE FROM ingestion_jobs WHERE episode_id = ?').run(episode.id);
        memory.episodes.delete(episode.id);
      }
    }
    memory.db.prepare('DELETE FROM conversations WHERE id = ?').run(conversationId);
  };
  memory.db.transaction(run)();
  memory.notifyForgotten({ factIds: forgottenFacts, entityIds: [], episodeIds: episodes.map((e) => e.id) });
  return { forgottenFacts, keptMessages };
}

export function recordMessageFacts(memory: Memory, episodeId: string, factIds: string[]): void {
  const insert = memory.db.prepare('INSERT OR IGNORE INTO message_facts (episode_id, fact_id, position) VALUES (?, ?, ?)');
  memory.db.transaction(() => factIds.forEach((id, i) => insert.run(episodeId, id, i)))();
}

function requireConversation(memory: Memory, id: string): void {
  if (!memory.episodes.conversation(id)) throw new MemoryInputError(`no conversation with id ${id}`, 'conversation');
}
