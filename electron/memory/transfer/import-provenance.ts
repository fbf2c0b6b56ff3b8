/**
 * Where imported chat messages came from (the optional `source` of episodes and conversations in
 * the export format): written after the rows themselves, on every import path (with or without the
 * bulk-load helper), so a re-import of the same ChatGPT or Claude export into the new store still
 * adds only what is new. A source message already stored under another id is refused in words.
 */
import type { Database } from 'better-sqlite3';
import type { ConversationRecord, EpisodeRecord } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';
import { CANCELLED_LANE, type IngestionJobs } from '../store/ingestion-jobs';

/** The conversations' sources and whether each is remembered. */
export function writeConversationProvenance(db: Database, conversations: readonly ConversationRecord[]): void {
  const conversation = db.prepare('UPDATE conversations SET source = ?, source_id = ? WHERE id = ?');
  conversations.forEach((c, i) => {
    if (!c.source) return;
    try {
      conversation.run(c.source.kind, c.source.id, c.id);
    } catch (error) {
      throw clash(error, `conversations[${i}].source`, `the ${c.source.kind} conversation ${c.source.id} is already stored as another conversation`);
    }
  });
  // A conversation that is not remembered stays so in the new store.
  const off = db.prepare('UPDATE conversations SET learn = 0 WHERE id = ?');
  for (const c of conversations) if (c.learn === false) off.run(c.id);
}

/** Writes an episode's source (episode `i` of the document, its row already written). */
export function episodeProvenanceWriter(db: Database): (e: EpisodeRecord, i: number) => void {
  const episode = db.prepare('UPDATE episodes SET source = ?, source_conversation_id = ?, source_message_id = ? WHERE id = ?');
  return (e, i) => {
    if (!e.source) return;
    try {
      episode.run(e.source.kind, e.source.conversation_id, e.source.message_id, e.id);
    } catch (error) {
      throw clash(error, `episodes[${i}].source`, `the ${e.source.kind} message ${e.source.message_id} is already stored as another episode`);
    }
  };
}

/**
 * Queues a message that was still to be learned where it was exported (`learned: false`), as a history
 * import queues its messages: after live chat, in the order they were written; not in a conversation
 * that is not remembered, and not twice (one already queued or learned here). One whose learning the
 * user cancelled there (`learned: 'cancelled'`) is queued cancelled, so the cancel can be taken back
 * here too ('tempora queue requeue'); only the others are counted (`queued`).
 */
export function learningQueuer(db: Database, jobs: IngestionJobs): { queue: (e: EpisodeRecord) => void; queued: () => number } {
  const queued = db.prepare<[string], number>('SELECT 1 FROM ingestion_jobs WHERE episode_id = ?').pluck();
  const learned = db.prepare<[string], number>('SELECT 1 FROM message_learning WHERE episode_id = ?').pluck();
  const learns = db.prepare<[string], number>('SELECT learn FROM conversations WHERE id = ?').pluck();
  const cancel = db.prepare('UPDATE ingestion_jobs SET lane = ? WHERE id = ?');
  let count = 0;
  const queue = (e: EpisodeRecord) => {
    if (e.learned === undefined || queued.get(e.id) !== undefined || learned.get(e.id) !== undefined) return;
    if (e.conversation_id !== null && learns.get(e.conversation_id) === 0) return;
    const job = jobs.enqueue(e.id, { sortKey: `${e.reference_time}|${e.id}` });
    if (e.learned === 'cancelled') cancel.run(CANCELLED_LANE, job.id);
    else count++;
  };
  return { queue, queued: () => count };
}

function clash(error: unknown, where: string, message: string): unknown {
  if (error instanceof Error && /UNIQUE constraint failed/.test(error.message)) return new MemoryInputError(`${where}: ${message}`, where);
  return error;
}
