/**
 * Messages in: each stored once as an episode (append-only), with the ingestion job that will learn
 * from it, in the caller's transaction. Idempotent: a message with the same id (given, or derived
 * from conversation, role, time and content) is stored once.
 */
import { episodeRole, type EpisodeRecord, type EpisodeRole } from '../../../shared/memory-schema';
import { toIsoUtc } from '../../../shared/time';
import { unknownZoneMessage } from '../../../shared/time-zone';
import { MemoryInputError } from '../memory-errors';
import { episodeZoneOf } from '../../../shared/time-zone';
import { messageIdOf } from './episode-store';
import { titleFromFirstMessage } from './conversation-settings';
import type { JobRow } from './ingestion-jobs';
import { conversationLearns } from './message-learning';
import type { StoreContext } from './store-context';
import type { IsoTime } from '../../../shared/time';

export interface MessageInput {
  role: EpisodeRole;
  content: string;
  /** When it was said (ISO-8601, any offset). */
  time: string;
  /** The writer's IANA zone ("Asia/Tokyo"), kept with the message so its dates are read there. */
  timeZone?: string;
  conversation?: string;
  conversationTitle?: string;
  id?: string;
  /** false: store without learning from it (e.g. assistant chatter). */
  learn?: boolean;
}

export interface AppendedMessage {
  episode: EpisodeRecord;
  job: JobRow | undefined;
  duplicate: boolean;
}

/** Checks a message; errors name the field. */
export function checkMessage(input: MessageInput): { role: EpisodeRole; referenceTime: IsoTime; zone: { utcOffset: string | null; timeZone: string | null } } {
  const role = episodeRole.safeParse(input.role);
  if (!role.success) throw new MemoryInputError(`role must be one of ${episodeRole.options.join(', ')}`, 'role');
  if (typeof input.content !== 'string' || input.content.trim() === '') throw new MemoryInputError('content must be a non-empty string', 'content');
  let referenceTime: IsoTime;
  try {
    referenceTime = toIsoUtc(input.time);
  } catch (error) {
    throw new MemoryInputError(`time: ${(error as Error).message}`, 'time');
  }
  try {
    return { role: role.data, referenceTime, zone: episodeZoneOf(input.time, input.timeZone) };
  } catch {
    throw new MemoryInputError(`timeZone: ${unknownZoneMessage(String(input.timeZone))}`, 'timeZone');
  }
}

/** Stores one checked message and its job; call inside a transaction. */
export function appendMessage(ctx: StoreContext, input: MessageInput): AppendedMessage {
  const { role, referenceTime, zone } = checkMessage(input);
  const conversationId = input.conversation ?? null;
  const id = input.id ?? messageIdOf(conversationId, role, referenceTime, input.content);
  const existing = ctx.episodes.byId(id);
  if (existing) return { episode: existing, job: ctx.jobs.byEpisode(id), duplicate: true };
  if (conversationId !== null) ctx.episodes.ensureConversation(conversationId, input.conversationTitle ?? conversationId);
  const episode = ctx.episodes.append({ id, role, content: input.content, referenceTime, conversationId, ...zone });
  // A conversation that is not remembered keeps its messages and learns none of them.
  const job = input.learn === false || !conversationLearns(ctx, conversationId) ? undefined : ctx.jobs.enqueue(episode.id);
  if (conversationId !== null && role === 'user') titleFromFirstMessage(ctx, conversationId, input.content);
  return { episode, job, duplicate: false };
}

/** What learning some messages cost and gave: jobs, model calls and tokens, facts added and closed, jobs parked. */
export interface LearningTotals {
  jobs: number;
  calls: number;
  prompt: number;
  completion: number;
  added: number;
  closed: number;
  parked: number | null;
}

const TOTALS = `SELECT COUNT(*) AS jobs, TOTAL(model_calls) AS calls, TOTAL(prompt_tokens) AS prompt, TOTAL(completion_tokens) AS completion,
              TOTAL(facts_added) AS added, TOTAL(facts_closed) AS closed, SUM(status = 'parked') AS parked
       FROM ingestion_jobs`;

/** What learning from these messages cost and gave (the `tempora ingest` summary). */
export function learningTotals(ctx: StoreContext, episodeIds: string[]): LearningTotals {
  return ctx.db.prepare(`${TOTALS} WHERE episode_id IN (SELECT value FROM json_each(?))`).get(JSON.stringify(episodeIds)) as LearningTotals;
}

/** The same for every imported message queued to be learned (the backfill lane, 1): the `tempora import-chats --model` summary. */
export function backfillTotals(ctx: Pick<StoreContext, 'db'>): LearningTotals {
  return ctx.db.prepare(`${TOTALS} WHERE lane = 1`).get() as LearningTotals;
}
