/**
 * Writes to a whole conversation that reach the facts: deleting it — forgetting what was learned
 * from it, or keeping it (then only messages that are the source of a remembered fact stay,
 * detached, as provenance) — and turning its learning off with what it taught undone.
 */
import type { WriteContext } from './write-batch';
import { deleteMessage, requireConversation } from '../store/conversations';
import { learnedMessageIds, setLearning } from '../store/conversation-settings';
import { forgetEpisode, type Forgotten } from './forget';
import { undoLearning } from './undo-learning';

/** Deletes a conversation; call inside a transaction. forget: also forget every fact learned only from it. */
export function deleteConversation(ctx: WriteContext, conversationId: string, options: { forget: boolean }): { forgotten: Forgotten; keptMessages: number } {
  requireConversation(ctx, conversationId);
  const episodes = ctx.episodes.ofConversation(conversationId);
  const factIds: string[] = [];
  const entities = { entityIds: [] as string[], entityNames: [] as string[] };
  let keptMessages = 0;
  for (const episode of episodes) {
    if (options.forget) {
      const gone = forgetEpisode(ctx, episode.id);
      factIds.push(...gone.factIds);
      entities.entityIds.push(...gone.entityIds);
      entities.entityNames.push(...gone.entityNames);
      continue;
    }
    const cited = ctx.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM fact_episodes WHERE episode_id = ?').get(episode.id)!.n > 0;
    if (cited) {
      ctx.db.prepare('UPDATE episodes SET conversation_id = NULL WHERE id = ?').run(episode.id);
      keptMessages++;
    } else {
      deleteMessage(ctx, episode.id);
    }
  }
  ctx.db.prepare('DELETE FROM conversations WHERE id = ?').run(conversationId);
  return { forgotten: { factIds, ...entities, episodeIds: episodes.map((e) => e.id) }, keptMessages };
}

/**
 * Turns learning from a conversation on or off, in the caller's write; forget (when off): also undo
 * what was learned from it, latest message first (later messages may build on earlier ones).
 */
export function setConversationLearning(ctx: WriteContext, conversationId: string, learn: boolean, forget: boolean) {
  setLearning(ctx, conversationId, learn);
  const undone = learn || !forget ? [] : learnedMessageIds(ctx, conversationId).map((id) => undoLearning(ctx, id));
  // The slots the undos touched are resolved once, for all of them; then their reports are made.
  if (undone.length) ctx.slots.commit();
  return {
    undoneMessages: undone.length,
    forgottenFacts: undone.reduce((n, u) => n + u.report().forgotten.length, 0),
    /** Every version forgotten (their vectors go too). */
    forgottenVersions: undone.flatMap((u) => u.forgotten.factIds),
    /** The names only those versions held (forget.ts), with their vectors. */
    forgottenEntities: { entityIds: undone.flatMap((u) => u.forgotten.entityIds), entityNames: undone.flatMap((u) => u.forgotten.entityNames) },
  };
}
