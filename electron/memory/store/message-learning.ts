/**
 * What each message's learning changed, recorded in the write that applied it (message_learning,
 * migration 0012), and the state of its learning as a person sees it: waiting, being learned,
 * parked with its error, learned (with the fact versions it added, closed and confirmed), undone,
 * or off (its conversation is not remembered). The Learning it applied is kept with it (migration
 * 0021), so Redo after Undo applies the same learning again. Also the parked messages, to list and retry.
 */
import type { MessageLearning, ParkedMessage, UndoReport } from '../../../shared/learning-contract';
import type { EpisodeRecord, FactRecord } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';
import type { Learning } from './learning-record';
import type { SlotChanges } from './slot-changes';
import { reviewStateOf } from './pending-reviews';
import type { StoreContext } from './store-context';
import { cachedStatement } from './database/statement-cache';
import type { IsoTime } from '../../../shared/time';

export interface LearningRow {
  episode_id: string;
  added: string;
  closed: string;
  confirmed: string;
  learned_at: IsoTime;
  undone_at: IsoTime | null;
  undo_report: string | null;
  /** The Learning applied (JSON), for Redo; null for messages learned before migration 0021. */
  learning: string | null;
}

/** Records what a message's learning changed, and the Learning it applied; call inside the write that applied it. */
export function recordLearning(ctx: StoreContext, episodeId: string, changes: SlotChanges, learning: Learning): void {
  cachedStatement(ctx.db, 'INSERT OR REPLACE INTO message_learning (episode_id, added, closed, confirmed, learned_at, undone_at, undo_report, learning) VALUES (?, ?, ?, ?, ?, NULL, NULL, ?)').run(episodeId, JSON.stringify(changes.created), JSON.stringify(changes.closed), JSON.stringify(changes.confirmed), ctx.clock.now(), JSON.stringify(learning));
}

/**
 * The Learning an undone message applied, to apply again (Redo); refused in words when the message
 * is not undone, was learned before Tempora kept its learning, or is in a conversation that is not
 * remembered.
 */
export function learningToRedo(ctx: StoreContext, episodeId: string): Learning {
  const episode = ctx.episodes.byId(episodeId);
  if (!episode) throw new MemoryInputError(`no message with id ${episodeId}`, 'episodeId', 'not_found');
  const row = learningRow(ctx, episodeId);
  if (!row?.undone_at) throw new MemoryInputError(`message ${episodeId} is not undone: there is nothing to redo`, 'episodeId');
  if (row.learning === null) throw new MemoryInputError(`message ${episodeId} was learned before Tempora kept what each message taught: it cannot be redone`, 'episodeId');
  if (!conversationLearns(ctx, episode.conversation_id)) {
    throw new MemoryInputError(`message ${episodeId} is in a conversation that is not remembered: turn its learning on again first`, 'episodeId');
  }
  return JSON.parse(row.learning) as Learning;
}

export function learningRow(ctx: StoreContext, episodeId: string): LearningRow | undefined {
  return cachedStatement<[string], LearningRow>(ctx.db, 'SELECT * FROM message_learning WHERE episode_id = ?').get(episodeId);
}

export function markUndone(ctx: StoreContext, episodeId: string, report: UndoReport): void {
  ctx.db
    .prepare("INSERT INTO message_learning (episode_id, added, closed, confirmed, learned_at, undone_at, undo_report) VALUES (?, '[]', '[]', '[]', ?, ?, ?) ON CONFLICT (episode_id) DO UPDATE SET undone_at = excluded.undone_at, undo_report = excluded.undo_report")
    .run(episodeId, report.at, report.at, JSON.stringify(report));
}

/** Whether messages of this conversation are learned (true for a message outside any conversation). */
export function conversationLearns(ctx: StoreContext, conversationId: string | null): boolean {
  if (conversationId === null) return true;
  return cachedStatement<[string], { learn: number }>(ctx.db, 'SELECT learn FROM conversations WHERE id = ?').get(conversationId)?.learn !== 0;
}

/** A message's learning as a person sees it; null for one that is not for learning (an assistant's answer). */
export function messageLearning(ctx: StoreContext, episode: EpisodeRecord): MessageLearning | null {
  const row = learningRow(ctx, episode.id);
  const job = ctx.jobs.byEpisode(episode.id);
  const base = { episodeId: episode.id, conversationId: episode.conversation_id, error: null, added: [], closed: [], confirmed: [], recorded: false, canUndo: false, canRedo: false, undo: null };
  if (row) {
    const facts = (ids: string) => (JSON.parse(ids) as string[]).map((id) => ctx.rows.record(id)).filter((f): f is FactRecord => f !== undefined);
    const undo = row.undo_report === null ? null : (JSON.parse(row.undo_report) as UndoReport);
    const done = row.undone_at === null;
    const canRedo = !done && row.learning !== null && conversationLearns(ctx, episode.conversation_id);
    return { ...base, state: done ? 'learned' : 'undone', added: facts(row.added), closed: facts(row.closed), confirmed: facts(row.confirmed), recorded: true, canUndo: done, canRedo, undo };
  }
  if (episode.role === 'user' && !conversationLearns(ctx, episode.conversation_id)) return { ...base, state: 'off' };
  const review = reviewStateOf(ctx, episode.id);
  if (review) return { ...base, state: review.state === 'waiting' ? 'review' : 'rejected' };
  // A message whose imported learning was cancelled waits for nothing (until requeued).
  if (!job || ctx.jobs.isCancelled(job.id)) return null;
  switch (job.status) {
    case 'pending':
      return { ...base, state: 'pending', error: job.last_error };
    case 'running':
      return { ...base, state: 'learning' };
    case 'parked':
      return { ...base, state: 'parked', error: job.last_error ?? 'it failed too often' };
    case 'done':
      // Learned before Tempora recorded what each message changed: Undo would have no report to give.
      return { ...base, state: 'learned' };
  }
}

/** The messages whose learning failed too often, oldest first, with their conversation and error. */
export function parkedMessages(ctx: StoreContext, limit = 500): ParkedMessage[] {
  return ctx.db
    .prepare<[number], ParkedMessage>(
      `SELECT e.id AS episodeId, e.conversation_id AS conversationId, c.title AS conversationTitle, e.role, e.content, e.reference_time AS referenceTime,
              COALESCE(j.last_error, 'it failed too often') AS error, j.attempts, j.updated_at AS parkedAt
       FROM ingestion_jobs j JOIN episodes e ON e.id = j.episode_id LEFT JOIN conversations c ON c.id = e.conversation_id
       WHERE j.status = 'parked' ORDER BY j.created_at, j.id LIMIT ?`,
    )
    .all(limit);
}

/** Puts one parked message back in the queue; a message that is not parked is refused in words. */
export function retryParkedMessage(ctx: StoreContext, episodeId: string): void {
  const job = ctx.jobs.byEpisode(episodeId);
  if (!ctx.episodes.byId(episodeId)) throw new MemoryInputError(`no message with id ${episodeId}`, 'episodeId', 'not_found');
  if (!job || job.status !== 'parked') {
    const state = job ? (job.status === 'done' ? 'already learned' : `${job.status === 'running' ? 'being learned' : 'waiting'} already`) : 'not in the learning queue';
    throw new MemoryInputError(`message ${episodeId} is not parked: it is ${state}`, 'episodeId');
  }
  ctx.db.prepare("UPDATE ingestion_jobs SET status = 'pending', attempts = 0, updated_at = ? WHERE id = ? AND status = 'parked'").run(ctx.clock.now(), job.id);
}

/**
 * A job whose message must not be learned (its conversation was set not to be remembered while the
 * model worked, or the message was undone): the job leaves the queue and nothing is applied.
 */
export function dropUnlearnable(ctx: StoreContext, jobId: string, episodeId: string): boolean {
  const episode = ctx.episodes.byId(episodeId);
  const undone = learningRow(ctx, episodeId)?.undone_at != null;
  if (episode && !undone && conversationLearns(ctx, episode.conversation_id)) return false;
  ctx.db.prepare('DELETE FROM ingestion_jobs WHERE id = ?').run(jobId);
  return true;
}
