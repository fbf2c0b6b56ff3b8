/**
 * Memory's messages and their learning: storing messages with their learning jobs, applying what
 * the model learned (or holding it for review), what each message taught, Undo and Redo, parked
 * messages, and forgetting a message.
 */
import type { MessageLearning, ParkedMessage, UndoReport } from '../../shared/learning-contract';
import { MemoryInputError } from './memory-errors';
import type { MemoryKernel } from './memory-kernel';
import * as conversations from './store/conversations';
import type { JobRow, JobUsage } from './store/ingestion-jobs';
import { dropUnlearnable, learningToRedo, messageLearning, parkedMessages, recordLearning, retryParkedMessage } from './store/message-learning';
import { appendMessage, learningTotals, type AppendedMessage, type MessageInput } from './store/messages';
import { holdLearning, reviewing, reviewStateOf } from './store/pending-reviews';
import { forgetEpisode, type Forgotten } from './temporal/forget';
import { applyLearning, type Learning } from './temporal/learn';
import { emptyChanges, type SlotChanges } from './temporal/slot-resolver';
import { undoLearning } from './temporal/undo-learning';
import { flushFullText } from './text-search/fts-index';

export class MemoryMessages {
  constructor(private readonly kernel: MemoryKernel) {}

  private get store() {
    return this.kernel.store;
  }

  /** Stores a message and its ingestion job in one transaction (idempotent: see store/messages.ts). */
  append(input: MessageInput): AppendedMessage {
    return this.appendAll([input])[0]!;
  }

  /** Stores messages and their jobs in one transaction; an error names the item (0-based) it is about. */
  appendAll(inputs: readonly MessageInput[], where?: (index: number) => string): AppendedMessage[] {
    return this.kernel.write(
      () =>
        inputs.map((input, index) => {
          try {
            return appendMessage(this.store, input);
          } catch (error) {
            if (!where || !(error instanceof MemoryInputError)) throw error;
            throw new MemoryInputError(`${where(index)}: ${error.message}`, `${where(index)}.${error.where}`, error.code);
          }
        }),
      (appended) => {
        const episodeIds = appended.filter((a) => !a.duplicate).map((a) => a.episode.id);
        return episodeIds.length ? { kind: 'messages', reason: 'message', episodeIds } : null;
      },
    );
  }

  /** Applies what a message taught (see temporal/learn.ts) and completes its job, in one transaction. */
  applyIngestion(jobId: string, learning: Learning, usage: JobUsage): SlotChanges {
    return this.learnJob(jobId, learning, usage, false).changes;
  }

  /**
   * applyIngestion, and in the same transaction the next job claimed: the worker's one commit per
   * learned message (`next` undefined when none may be taken). A process that dies before learning
   * `next` leaves it running, and the next start puts it back in the queue (recoverInterrupted).
   */
  applyIngestionAndClaimNext(jobId: string, learning: Learning, usage: JobUsage): { changes: SlotChanges; next: JobRow | undefined } {
    return this.learnJob(jobId, learning, usage, true);
  }

  private learnJob(jobId: string, learning: Learning, usage: JobUsage, claimNext: boolean): { changes: SlotChanges; next: JobRow | undefined } {
    const { kernel } = this;
    return kernel.write(
      () => {
        const changes = this.applyLearned(jobId, learning, usage);
        return { changes, next: claimNext ? this.store.jobs.claimNext() : undefined };
      },
      ({ changes }) => (kernel.takeHeld() === learning.episodeId ? { kind: 'review', reason: 'review', episodeIds: [learning.episodeId] } : { kind: 'facts', reason: 'learned', changes, episodeIds: [learning.episodeId], learned: kernel.learnedRef(learning.episodeId) }),
    );
  }

  /** Inside a write: a job's learning applied (or held for review, or dropped) and the job done. */
  private applyLearned(jobId: string, learning: Learning, usage: JobUsage): SlotChanges {
    const { store } = this;
    // Its conversation stopped being remembered while the model worked: nothing is applied.
    if (dropUnlearnable(store, jobId, learning.episodeId)) return emptyChanges();
    if (reviewing(store)) {
      // Review before remembering: the learning waits, unapplied; the job is done.
      holdLearning(store, learning);
      store.jobs.complete(jobId, usage, { added: 0, closed: 0 });
      this.kernel.held = learning.episodeId;
      return emptyChanges();
    }
    applyLearning(store, learning);
    const applied = this.kernel.caused({ kind: 'learned', episode: learning.episodeId });
    store.jobs.complete(jobId, usage, { added: applied.created.length, closed: applied.closed.length });
    recordLearning(store, learning.episodeId, applied, learning);
    return applied;
  }

  /** What learning from these messages cost and gave. */
  learningTotals(episodeIds: string[]) {
    return learningTotals(this.store, episodeIds);
  }

  /** A message's learning: its state, what it added, closed and confirmed, and what an Undo did. */
  learning(episodeId: string): MessageLearning | null {
    const episode = this.store.episodes.byId(episodeId);
    if (!episode) throw new MemoryInputError(`no message with id ${episodeId}`, 'episodeId', 'not_found');
    return messageLearning(this.store, episode);
  }

  /** Takes back what a message taught, in one write (see temporal/undo-learning.ts); the message stays, never learned again. */
  undoLearning(episodeId: string): UndoReport {
    const { kernel, store } = this;
    const review = reviewStateOf(store, episodeId);
    if (review?.state === 'waiting') throw new MemoryInputError(`message ${episodeId} is waiting for review: nothing of it is remembered yet (reject it instead)`, 'episodeId');
    if (review?.state === 'rejected') throw MemoryInputError.at(review.at, (when) => `message ${episodeId} was rejected in review (at ${when}): nothing of it was remembered, so there is nothing to undo`, 'episodeId');
    flushFullText(store.db);
    return kernel.write(
      () => {
        const undone = undoLearning(store, episodeId);
        kernel.settle();
        return { report: undone.report(), forgotten: undone.forgotten };
      },
      (r) => ({ kind: 'forgotten', reason: 'learning undone', forgotten: r.forgotten, learned: kernel.learnedRef(episodeId) }),
    ).report;
  }

  /**
   * After Undo: applies the Learning the message applied before, again, by the same rules and in one
   * write (one change event, as when it was learned); no model reads the message again. The rules
   * resolve it against the memory as it is now, so a later message about the same slot still counts.
   */
  redoLearning(episodeId: string): MessageLearning {
    const { kernel, store } = this;
    kernel.write(
      () => {
        const learning = learningToRedo(store, episodeId);
        applyLearning(store, learning);
        const applied = kernel.caused({ kind: 'learned', episode: episodeId });
        recordLearning(store, episodeId, applied, learning);
        return applied;
      },
      (changes) => ({ kind: 'facts', reason: 'learned', changes, episodeIds: [episodeId], learned: kernel.learnedRef(episodeId) }),
    );
    return this.learning(episodeId)!;
  }

  /** Messages whose learning failed too often, with their conversation and error. */
  parked(): ParkedMessage[] {
    return parkedMessages(this.store);
  }

  /** Puts one parked message back in the learning queue. */
  retryParked(episodeId: string): void {
    this.kernel.write(() => retryParkedMessage(this.store, episodeId), () => null);
  }

  /** Removes messages nothing was learned from (a regenerated answer). */
  delete(episodeIds: string[]): void {
    if (episodeIds.length === 0) return;
    this.kernel.write(
      () => episodeIds.forEach((id) => conversations.deleteMessage(this.store, id)),
      () => ({ kind: 'forgotten', reason: 'forget', forgotten: { factIds: [], entityIds: [], entityNames: [], episodeIds } }),
    );
  }

  /** Forgets a message and what only it taught (temporal/forget.ts). */
  forget(id: string): Forgotten {
    return this.kernel.forget(() => forgetEpisode(this.store, id));
  }

  /** Remembers which facts an assistant message was given. */
  recordFacts(episodeId: string, factIds: string[]): void {
    if (factIds.length === 0) return;
    this.kernel.write(() => conversations.recordMessageFacts(this.store, episodeId, factIds), () => ({ kind: 'messages', reason: 'message', episodeIds: [episodeId] }));
  }
}
