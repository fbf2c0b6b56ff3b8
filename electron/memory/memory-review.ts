/**
 * Memory's review before remembering: whether learned messages wait for the user, what waits, and
 * the user's decision — approved (applied now by the rules, as one write) or rejected (nothing of
 * it remembered; the message kept).
 */
import type { PendingReview } from '../../shared/review-contract';
import { MemoryInputError } from './memory-errors';
import type { MemoryKernel } from './memory-kernel';
import { conversationLearns, recordLearning } from './store/message-learning';
import { dropHeld, heldLearning, heldLearnings, rejectHeld, reviewing, setReviewing, waitingReviews } from './store/pending-reviews';
import { applyLearning } from './temporal/learn';
import { approvedLearning, proposedFacts, type ApprovedEdit } from './temporal/review-learning';
import type { SlotChanges } from './temporal/slot-resolver';

export class MemoryReview {
  constructor(private readonly kernel: MemoryKernel) {}

  /** Whether learned messages wait for the user's review before anything is remembered, and how many wait. */
  status(): { reviewBeforeRemembering: boolean; waiting: number } {
    return { reviewBeforeRemembering: reviewing(this.kernel.store), waiting: waitingReviews(this.kernel.store) };
  }

  /** Turns review before remembering on or off (what already waits stays, to be decided). */
  setBeforeRemembering(on: boolean): { reviewBeforeRemembering: boolean; waiting: number } {
    const { store } = this.kernel;
    store.db.transaction(() => setReviewing(store, on)).immediate();
    return this.status();
  }

  /** Learned messages waiting for review, oldest first, with what each proposes. */
  pending(limit = 500): PendingReview[] {
    const { store } = this.kernel;
    return heldLearnings(store, limit).flatMap(({ episodeId, learning, heldAt }) => {
      const episode = store.episodes.byId(episodeId);
      if (!episode) return [];
      const conversation = episode.conversation_id === null ? undefined : store.episodes.conversation(episode.conversation_id);
      return [{ episodeId, conversationId: episode.conversation_id, conversationTitle: conversation?.title ?? null, content: episode.content, referenceTime: episode.reference_time, heldAt, facts: proposedFacts(store, learning), agent: learning.agent ?? null }];
    });
  }

  /**
   * Approves a waiting learning (with `edits`: some facts left out or corrected first): it is applied
   * now by the rules, as one write, and recorded as that message's learning. Returns the net change.
   */
  approve(episodeId: string, edits: readonly ApprovedEdit[] = []): SlotChanges {
    const { kernel } = this;
    const { store } = kernel;
    return kernel.write(
      () => {
        const held = heldLearning(store, episodeId);
        if (!held) throw new MemoryInputError(`message ${episodeId} has nothing waiting for review`, 'episodeId', 'not_found');
        const episode = store.episodes.byId(episodeId);
        if (episode && !conversationLearns(store, episode.conversation_id)) {
          throw new MemoryInputError(`message ${episodeId} is in a conversation that is not remembered: turn its learning on again first, or reject it`, 'episodeId');
        }
        const learning = approvedLearning(held.learning, edits);
        dropHeld(store, episodeId);
        applyLearning(store, learning);
        const applied = kernel.caused({ kind: 'learned', episode: episodeId });
        recordLearning(store, episodeId, applied, learning);
        return applied;
      },
      (changes) => ({ kind: 'facts', reason: 'learned', changes, episodeIds: [episodeId], learned: kernel.learnedRef(episodeId) }),
    );
  }

  /** Rejects a waiting learning: nothing of it is remembered; the message itself is kept. */
  reject(episodeId: string): void {
    this.kernel.write(
      () => {
        if (!rejectHeld(this.kernel.store, episodeId)) throw new MemoryInputError(`message ${episodeId} has nothing waiting for review`, 'episodeId', 'not_found');
      },
      () => ({ kind: 'review', reason: 'review', episodeIds: [episodeId] }),
    );
  }
}
