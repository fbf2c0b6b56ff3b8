/**
 * Memory's methods about messages: storing them with their learning jobs, applying what the model
 * learned (or holding it for review), what each message taught, Undo and Redo, conversations and their
 * settings, parked messages, and chat histories imported from ChatGPT and Claude. The facts side is
 * memory.ts; the write machinery memory-core.ts.
 */
import type { ChatMessageRecord, ConversationSummary } from '../../shared/api-contract';
import type { ConversationRecord, EntityRecord } from '../../shared/memory-schema';
import type { MemoryChange } from './memory-api';
import { MemoryInputError } from './memory-errors';
import * as history from './store/chat-history';
import * as conversations from './store/conversations';
import type { JobRow, JobUsage } from './store/ingestion-jobs';
import { appendMessage, learningTotals, type AppendedMessage, type MessageInput } from './store/messages';
import { conversationLearns, dropUnlearnable, learningToRedo, messageLearning, parkedMessages, recordLearning, retryParkedMessage } from './store/message-learning';
import { DEFAULT_TITLE, setTitleSource } from './store/conversation-settings';
import { deleteConversation, setConversationLearning } from './temporal/conversation-writes';
import { undoLearning } from './temporal/undo-learning';
import type { MessageLearning, ParkedMessage, UndoReport } from '../../shared/learning-contract';
import { vocabularyFor, type Vocabulary } from './store/vocabulary';
import { applyLearning, type Learning } from './temporal/learn';
import { emptyChanges, type SlotChanges } from './temporal/slot-resolver';
import { entityCandidates } from './text-search/entity-candidates';
import { flushFullText } from './text-search/fts-index';
import { dropHeld, heldLearning, heldLearnings, holdLearning, rejectHeld, reviewing, reviewStateOf, setReviewing, waitingReviews } from './store/pending-reviews';
import { approvedLearning, proposedFacts, type ApprovedEdit } from './temporal/review-learning';
import type { PendingReview } from '../../shared/review-contract';
import type { Settings } from '../../shared/settings-schema';
import { readSettings, writeSettings } from './store/settings';
import { MemoryCore } from './memory-core';

export class MemoryMessages extends MemoryCore {
  /** Stores a message and its ingestion job in one transaction (idempotent: see store/messages.ts). */
  appendMessage(input: MessageInput): AppendedMessage {
    return this.appendMessages([input])[0]!;
  }

  /** Stores messages and their jobs in one transaction; an error names the item (0-based) it is about. */
  appendMessages(inputs: readonly MessageInput[], where?: (index: number) => string): AppendedMessage[] {
    return this.write(
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
    return this.write(
      () => {
        const changes = this.applyLearned(jobId, learning, usage);
        return { changes, next: claimNext ? this.store.jobs.claimNext() : undefined };
      },
      ({ changes }) => (this.takeHeld() === learning.episodeId ? { kind: 'review', reason: 'review', episodeIds: [learning.episodeId] } : { kind: 'facts', reason: 'learned', changes, episodeIds: [learning.episodeId], learned: this.learnedRef(learning.episodeId) }),
    );
  }

  /** Inside a write: a job's learning applied (or held for review, or dropped) and the job done. */
  private applyLearned(jobId: string, learning: Learning, usage: JobUsage): SlotChanges {
    // Its conversation stopped being remembered while the model worked: nothing is applied.
    if (dropUnlearnable(this.store, jobId, learning.episodeId)) return emptyChanges();
    if (reviewing(this.store)) {
      // Review before remembering: the learning waits, unapplied; the job is done.
      holdLearning(this.store, learning);
      this.store.jobs.complete(jobId, usage, { added: 0, closed: 0 });
      this.held = learning.episodeId;
      return emptyChanges();
    }
    applyLearning(this.store, learning);
    const applied = this.caused({ kind: 'learned', episode: learning.episodeId });
    this.store.jobs.complete(jobId, usage, { added: applied.created.length, closed: applied.closed.length });
    recordLearning(this.store, learning.episodeId, applied, learning);
    return applied;
  }

  /** Whether learned messages wait for the user's review before anything is remembered, and how many wait. */
  reviewSettings(): { reviewBeforeRemembering: boolean; waiting: number } {
    return { reviewBeforeRemembering: reviewing(this.store), waiting: waitingReviews(this.store) };
  }

  /** Tempora's settings (shared/settings-schema.ts), kept here so that every door reads the same. */
  settings(): Settings {
    return readSettings(this.store);
  }

  /** Changes the settings named in `patch`; a value the schema refuses changes nothing. Returns them all. */
  updateSettings(patch: Partial<Settings>): Settings {
    return this.store.db.transaction(() => writeSettings(this.store, patch)).immediate();
  }

  /** Turns review before remembering on or off (what already waits stays, to be decided). */
  setReviewBeforeRemembering(on: boolean): { reviewBeforeRemembering: boolean; waiting: number } {
    this.store.db.transaction(() => setReviewing(this.store, on)).immediate();
    return this.reviewSettings();
  }

  /** Learned messages waiting for review, oldest first, with what each proposes. */
  pendingReviews(limit = 500): PendingReview[] {
    return heldLearnings(this.store, limit).flatMap(({ episodeId, learning, heldAt }) => {
      const episode = this.store.episodes.byId(episodeId);
      if (!episode) return [];
      const conversation = episode.conversation_id === null ? undefined : this.store.episodes.conversation(episode.conversation_id);
      return [{ episodeId, conversationId: episode.conversation_id, conversationTitle: conversation?.title ?? null, content: episode.content, referenceTime: episode.reference_time, heldAt, facts: proposedFacts(this.store, learning), agent: learning.agent ?? null }];
    });
  }

  /**
   * Approves a waiting learning (with `edits`: some facts left out or corrected first): it is applied
   * now by the rules, as one write, and recorded as that message's learning. Returns the net change.
   */
  approveReview(episodeId: string, edits: readonly ApprovedEdit[] = []): SlotChanges {
    return this.write(
      () => {
        const held = heldLearning(this.store, episodeId);
        if (!held) throw new MemoryInputError(`message ${episodeId} has nothing waiting for review`, 'episodeId', 'not_found');
        const episode = this.store.episodes.byId(episodeId);
        if (episode && !conversationLearns(this.store, episode.conversation_id)) {
          throw new MemoryInputError(`message ${episodeId} is in a conversation that is not remembered: turn its learning on again first, or reject it`, 'episodeId');
        }
        const learning = approvedLearning(held.learning, edits);
        dropHeld(this.store, episodeId);
        applyLearning(this.store, learning);
        const applied = this.caused({ kind: 'learned', episode: episodeId });
        recordLearning(this.store, episodeId, applied, learning);
        return applied;
      },
      (changes) => ({ kind: 'facts', reason: 'learned', changes, episodeIds: [episodeId], learned: this.learnedRef(episodeId) }),
    );
  }

  /** Rejects a waiting learning: nothing of it is remembered; the message itself is kept. */
  rejectReview(episodeId: string): void {
    this.write(
      () => {
        if (!rejectHeld(this.store, episodeId)) throw new MemoryInputError(`message ${episodeId} has nothing waiting for review`, 'episodeId', 'not_found');
      },
      () => ({ kind: 'review', reason: 'review', episodeIds: [episodeId] }),
    );
  }

  /** The entities and predicates a message's extraction prompt should offer the model. */
  vocabularyFor(content: string): Vocabulary {
    return vocabularyFor(this.store, content);
  }

  /** Stored entities whose names share a piece of `name` (for entity resolution). */
  entityCandidates(name: string): EntityRecord[] {
    return entityCandidates(this.store, name);
  }

  /** Open live facts about a subject with their object's name, latest first. */
  openFactsAbout(subjectId: string, limit = 200) {
    return this.store.rows.openAbout(subjectId, limit);
  }

  /** What learning from these messages cost and gave. */
  learningTotals(episodeIds: string[]) {
    return learningTotals(this.store, episodeIds);
  }

  /** Stores conversations of a ChatGPT or Claude export with their provenance, in one transaction; known messages are skipped (store/chat-history.ts). */
  importHistoryConversations(inputs: readonly history.HistoryConversationInput[]): history.HistoryImportResult[] {
    return this.write(
      () => inputs.map((input) => history.importHistoryConversation(this.store, input)),
      (results) => {
        const episodeIds = results.flatMap((r) => r.episodeIds);
        return episodeIds.length ? { kind: 'messages', reason: 'message', episodeIds } : null;
      },
    );
  }

  /** Of these message ids of an export, the ones an earlier import stored. */
  knownHistoryMessages(source: history.HistorySource, ids: readonly string[]): Set<string> {
    return history.knownHistoryMessages(this.store.db, source, ids);
  }

  /** The backfill of imported messages: where it stands, pause (kept across restarts), resume, cancel. */
  backfillStatus(): history.BackfillStatus {
    return history.backfillStatus(this.store.db, this.clock.now());
  }

  setBackfillPaused(paused: boolean): void {
    history.setBackfillPaused(this.store.db, paused);
  }

  /** The imported messages not yet learned are not learned (they stay stored, and can be requeued); returns how many. */
  cancelBackfill(): number {
    return history.cancelBackfill(this.store.db, this.clock.now());
  }

  /** Takes a cancel back: the cancelled imported messages wait to be learned again; returns how many. */
  requeueBackfill(): number {
    return history.requeueBackfill(this.store.db, this.clock.now());
  }

  listConversations(): ConversationSummary[] {
    return conversations.listConversations(this.store);
  }

  conversationMessages(conversationId: string): ChatMessageRecord[] {
    return conversations.conversationMessages(this.store, conversationId);
  }

  /** Without a title it is "New conversation" until its first message names it. */
  createConversation(title?: string): ConversationRecord {
    return this.write(
      () => {
        const record = this.store.episodes.createConversation(title ?? DEFAULT_TITLE);
        if (title === undefined) setTitleSource(this.store, record.id, 'default');
        return record;
      },
      (c) => ({ kind: 'conversations', reason: 'conversation', conversationIds: [c.id] }),
    );
  }

  /** A title the user gives always wins: the first message no longer names it. */
  renameConversation(conversationId: string, title: string): void {
    this.write(
      () => (conversations.renameConversation(this.store, conversationId, title), setTitleSource(this.store, conversationId, 'given')),
      () => ({ kind: 'conversations', reason: 'conversation', conversationIds: [conversationId] }),
    );
  }

  /** A message's learning: its state, what it added, closed and confirmed, and what an Undo did. */
  messageLearning(episodeId: string): MessageLearning | null {
    const episode = this.store.episodes.byId(episodeId);
    if (!episode) throw new MemoryInputError(`no message with id ${episodeId}`, 'episodeId', 'not_found');
    return messageLearning(this.store, episode);
  }

  /** Takes back what a message taught, in one write (see temporal/undo-learning.ts); the message stays, never learned again. */
  undoLearning(episodeId: string): UndoReport {
    const review = reviewStateOf(this.store, episodeId);
    if (review?.state === 'waiting') throw new MemoryInputError(`message ${episodeId} is waiting for review: nothing of it is remembered yet (reject it instead)`, 'episodeId');
    if (review?.state === 'rejected') throw new MemoryInputError(`message ${episodeId} was rejected in review (at ${review.at}): nothing of it was remembered, so there is nothing to undo`, 'episodeId');
    flushFullText(this.store.db);
    return this.write(
      () => {
        const undone = undoLearning(this.store, episodeId);
        this.settle();
        return { report: undone.report(), forgotten: undone.forgotten };
      },
      (r) => ({ kind: 'forgotten', reason: 'learning undone', forgotten: r.forgotten, learned: this.learnedRef(episodeId) }),
    ).report;
  }

  /**
   * After Undo: applies the Learning the message applied before, again, by the same rules and in one
   * write (one change event, as when it was learned); no model reads the message again. The rules
   * resolve it against the memory as it is now, so a later message about the same slot still counts.
   */
  redoLearning(episodeId: string): MessageLearning {
    this.write(
      () => {
        const learning = learningToRedo(this.store, episodeId);
        applyLearning(this.store, learning);
        const applied = this.caused({ kind: 'learned', episode: episodeId });
        recordLearning(this.store, episodeId, applied, learning);
        return applied;
      },
      (changes) => ({ kind: 'facts', reason: 'learned', changes, episodeIds: [episodeId], learned: this.learnedRef(episodeId) }),
    );
    return this.messageLearning(episodeId)!;
  }

  /**
   * learn: false keeps the conversation's messages and learns none of them (its unfinished jobs
   * leave the queue); forget: also undo what was already learned from it, latest message first.
   */
  setConversationLearning(conversationId: string, learn: boolean, options: { forget?: boolean } = {}): { learn: boolean; undoneMessages: number; forgottenFacts: number; forgottenVersions: string[] } {
    flushFullText(this.store.db);
    const result = this.write(
      () => setConversationLearning(this.store, conversationId, learn, options.forget === true),
      (r): MemoryChange =>
        r.undoneMessages > 0
          ? { kind: 'forgotten', reason: 'learning undone', forgotten: { factIds: r.forgottenVersions, ...r.forgottenEntities, episodeIds: [] } }
          : { kind: 'conversations', reason: 'conversation', conversationIds: [conversationId] },
    );
    const { forgottenEntities: _entities, ...told } = result;
    return { learn, ...told };
  }

  /** Messages whose learning failed too often, with their conversation and error. */
  parkedMessages(): ParkedMessage[] {
    return parkedMessages(this.store);
  }

  /** Puts one parked message back in the learning queue. */
  retryParkedMessage(episodeId: string): void {
    this.write(() => retryParkedMessage(this.store, episodeId), () => null);
  }

  /** Deletes a conversation. forget: also forget every fact learned only from it. */
  deleteConversation(conversationId: string, options: { forget: boolean }): { forgottenFacts: string[]; keptMessages: number } {
    flushFullText(this.store.db);
    const result = this.write(
      () => deleteConversation(this.store, conversationId, options),
      (r) => ({ kind: 'forgotten', reason: 'conversation deleted', forgotten: r.forgotten }),
    );
    return { forgottenFacts: result.forgotten.factIds, keptMessages: result.keptMessages };
  }

  /** Removes messages nothing was learned from (a regenerated answer). */
  deleteMessages(episodeIds: string[]): void {
    if (episodeIds.length === 0) return;
    this.write(
      () => episodeIds.forEach((id) => conversations.deleteMessage(this.store, id)),
      () => ({ kind: 'forgotten', reason: 'forget', forgotten: { factIds: [], entityIds: [], entityNames: [], episodeIds } }),
    );
  }

  /** Remembers which facts an assistant message was given. */
  recordMessageFacts(episodeId: string, factIds: string[]): void {
    if (factIds.length === 0) return;
    this.write(() => conversations.recordMessageFacts(this.store, episodeId, factIds), () => ({ kind: 'messages', reason: 'message', episodeIds: [episodeId] }));
  }
}
