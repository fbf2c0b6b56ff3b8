/**
 * Chat histories imported from other assistants (ChatGPT, Claude): each conversation stored with
 * its source id, each message as an episode that keeps its provenance (source, conversation id,
 * message id). A message already stored (same source and message id) is not stored again, so
 * importing the same or a newer export adds only what is new. Messages to learn from join the
 * backfill lane of the queue in their own time order (see ingestion-jobs.ts), which can be
 * paused (kept in queue_state), resumed, cancelled and requeued (a cancel moves the jobs aside, to
 * CANCELLED_LANE, so that it can be taken back).
 */
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { MemoryInputError } from '../memory-errors';
import { backfillPaused, CANCELLED_LANE } from './ingestion-jobs';
import { checkMessage } from './messages';
import type { StoreContext } from './store-context';
import { conversationLearns } from './message-learning';
import { findRepeatedMessageIds } from './repeated-message-ids';
import type { IsoTime } from '../../../shared/time';

export const HISTORY_SOURCES = ['chatgpt', 'claude'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

export interface HistoryMessageInput {
  /** The message's id in the export. */
  sourceId: string;
  role: 'user' | 'assistant' | 'system';
  content: string;
  /** When it was said (ISO-8601). */
  time: IsoTime;
  /** false: stored as history only (an assistant's answer), not learned from. */
  learn: boolean;
}

export interface HistoryConversationInput {
  source: HistorySource;
  /** The conversation's id in the export. */
  sourceId: string;
  title: string;
  /** In thread order. */
  messages: HistoryMessageInput[];
  /** The zone the messages' dates are read in (the user's). */
  timeZone?: string;
}

export interface HistoryImportResult {
  /** null: every message was known already, and there was no conversation for them (none is made). */
  conversationId: string | null;
  newConversation: boolean;
  /** Episodes stored now, in thread order. */
  episodeIds: string[];
  /** Messages already stored by an earlier import. */
  known: number;
  /** Of the new ones, how many joined the learning queue. */
  queued: number;
}

export interface BackfillStatus {
  paused: boolean;
  /** Imported messages ever queued, and where they are now. */
  total: number;
  done: number;
  pending: number;
  running: number;
  parked: number;
  /** Imported messages whose learning was cancelled: not learned unless requeued. */
  cancelled: number;
  /** Messages learned per minute over the last ten minutes of work (null: too few to tell). */
  perMinute: number | null;
  /** Seconds left at that rate (null: unknown, or nothing left). */
  secondsLeft: number | null;
}

/** Stores one conversation of an export; call inside a transaction. Errors name the message. */
export function importHistoryConversation(ctx: StoreContext, input: HistoryConversationInput): HistoryImportResult {
  if (!HISTORY_SOURCES.includes(input.source)) throw new MemoryInputError(`source must be one of ${HISTORY_SOURCES.join(', ')}`, 'source');
  if (typeof input.sourceId !== 'string' || input.sourceId === '') throw new MemoryInputError('the conversation needs its id in the export', 'sourceId');
  const checked = input.messages.map((m, i) => {
    if (typeof m.sourceId !== 'string' || m.sourceId === '') throw new MemoryInputError(`message ${i + 1}: needs its id in the export`, `messages.${i}.sourceId`);
    try {
      return { message: m, ...checkMessage({ role: m.role, content: m.content, time: m.time, timeZone: input.timeZone }) };
    } catch (error) {
      if (!(error instanceof MemoryInputError)) throw error;
      throw new MemoryInputError(`message ${m.sourceId}: ${error.message}`, `messages.${i}.${error.where}`);
    }
  });
  // Known: stored by an earlier import, or stored and then forgotten (a forgotten message is not
  // brought back by importing the same export again: forgotten_history, migration 0017).
  const known = new Set(knownOrForgotten(ctx.db, input.source, checked.map((c) => c.message.sourceId)));
  // A message id twice in one conversation: the same message is kept once; two different ones are refused in words.
  const { repeats, fault } = findRepeatedMessageIds(checked.map((c) => ({ sourceId: c.message.sourceId, role: c.role, content: c.message.content, time: c.referenceTime })));
  if (fault) throw new MemoryInputError(fault.message, `messages.${fault.index}.sourceId`);
  if (checked.every((c) => known.has(c.message.sourceId))) {
    const found = ctx.db.prepare<[string, string], { id: string }>('SELECT id FROM conversations WHERE source = ? AND source_id = ?').get(input.source, input.sourceId);
    // Nothing new: no conversation is made (or remade) for it.
    if (!found) return { conversationId: null, newConversation: false, episodeIds: [], known: checked.length, queued: 0 };
  }
  const { id: conversationId, created } = ensureConversation(ctx, input, checked[0]?.referenceTime);
  const learns = conversationLearns(ctx, conversationId);
  const provenance = ctx.db.prepare('UPDATE episodes SET source = ?, source_conversation_id = ?, source_message_id = ? WHERE id = ?');
  const episodeIds: string[] = [];
  let knownCount = 0;
  let queued = 0;
  // Learned in the conversation's order: a message's sort key is the latest time up to it, then its place.
  let latest = '';
  checked.forEach(({ message, role, referenceTime, zone }, position) => {
    if (referenceTime > latest) latest = referenceTime;
    if (repeats.has(position)) return;
    if (known.has(message.sourceId)) {
      knownCount++;
      return;
    }
    const id = `epi_${digest(input.source, message.sourceId)}`;
    ctx.episodes.append({ id, role, content: message.content, referenceTime, conversationId, ...zone });
    provenance.run(input.source, input.sourceId, message.sourceId, id);
    episodeIds.push(id);
    // A conversation the user switched off learns nothing, also from what an import adds to it.
    if (message.learn && learns) {
      ctx.jobs.enqueue(id, { sortKey: `${latest}|${input.sourceId}|${String(position).padStart(6, '0')}` });
      queued++;
    }
  });
  return { conversationId, newConversation: created, episodeIds, known: knownCount, queued };
}

/** Of these message ids of a source, the ones already stored, or stored once and forgotten since. */
export function knownHistoryMessages(db: Database, source: HistorySource, ids: readonly string[]): Set<string> {
  return new Set(knownOrForgotten(db, source, ids));
}

function knownOrForgotten(db: Database, source: string, ids: readonly string[]): string[] {
  return db
    .prepare<[string, string, string, string], string>(
      `SELECT source_message_id FROM episodes WHERE source = ? AND source_message_id IN (SELECT value FROM json_each(?))
       UNION SELECT message_id FROM forgotten_history WHERE source = ? AND message_id IN (SELECT value FROM json_each(?))`,
    )
    .pluck()
    .all(source, JSON.stringify(ids), source, JSON.stringify(ids));
}

export function setBackfillPaused(db: Database, paused: boolean): void {
  db.prepare("INSERT INTO queue_state (key, value) VALUES ('backfill_paused', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(paused));
}

/** The imported messages still waiting to be learned are not learned (they stay stored as history, and can be requeued). Returns how many. */
export function cancelBackfill(db: Database, now: IsoTime): number {
  return db.prepare(`UPDATE ingestion_jobs SET lane = ${CANCELLED_LANE}, updated_at = ? WHERE lane = 1 AND status = 'pending'`).run(now).changes;
}

/** Takes a cancel back: the cancelled imported messages wait to be learned again, in their order. Returns how many. */
export function requeueBackfill(db: Database, now: IsoTime): number {
  return db.prepare(`UPDATE ingestion_jobs SET lane = 1, updated_at = ? WHERE lane = ${CANCELLED_LANE} AND status = 'pending'`).run(now).changes;
}

/** The window the learning rate is measured over. */
const RATE_WINDOW_MS = 10 * 60_000;

export function backfillStatus(db: Database, now: IsoTime): BackfillStatus {
  const counts = { pending: 0, running: 0, done: 0, parked: 0 } as Record<string, number>;
  for (const row of db.prepare<[], { status: string; n: number }>('SELECT status, COUNT(*) AS n FROM ingestion_jobs WHERE lane = 1 GROUP BY status').all()) counts[row.status] = row.n;
  const since = new Date(Date.parse(now) - RATE_WINDOW_MS).toISOString();
  const recent = db
    .prepare<[string], { n: number; first: string | null; last: string | null }>(
      "SELECT COUNT(*) AS n, MIN(updated_at) AS first, MAX(updated_at) AS last FROM ingestion_jobs WHERE lane = 1 AND status = 'done' AND updated_at >= ?",
    )
    .get(since)!;
  const spanMs = recent.first && recent.last ? Date.parse(recent.last) - Date.parse(recent.first) : 0;
  const perMinute = recent.n >= 2 && spanMs > 0 ? ((recent.n - 1) / spanMs) * 60_000 : null;
  const left = counts.pending! + counts.running!;
  const cancelled = db.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM ingestion_jobs WHERE lane = ${CANCELLED_LANE} AND status = 'pending'`).get()!.n;
  return {
    paused: backfillPaused(db),
    total: counts.pending! + counts.running! + counts.done! + counts.parked!,
    done: counts.done!,
    pending: counts.pending!,
    running: counts.running!,
    parked: counts.parked!,
    cancelled,
    perMinute: perMinute === null ? null : Math.round(perMinute * 10) / 10,
    secondsLeft: perMinute === null || left === 0 ? null : Math.round((left / perMinute) * 60),
  };
}

function ensureConversation(ctx: StoreContext, input: HistoryConversationInput, firstTime: IsoTime | undefined): { id: string; created: boolean } {
  const found = ctx.db.prepare<[string, string], { id: string }>('SELECT id FROM conversations WHERE source = ? AND source_id = ?').get(input.source, input.sourceId);
  if (found) return { id: found.id, created: false };
  const id = `cnv_${digest(input.source, input.sourceId)}`;
  const title = input.title.trim().slice(0, 500) || `Imported ${input.source === 'chatgpt' ? 'ChatGPT' : 'Claude'} conversation`;
  ctx.episodes.insertConversation({ id, title, created_at: firstTime ?? ctx.clock.now() });
  ctx.db.prepare('UPDATE conversations SET source = ?, source_id = ? WHERE id = ?').run(input.source, input.sourceId, id);
  return { id, created: true };
}

function digest(source: string, id: string): string {
  return createHash('sha256').update(JSON.stringify([source, id])).digest('hex').slice(0, 24);
}
