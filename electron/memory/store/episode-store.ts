/** Episodes (append-only messages and documents) and the conversations they belong to. */
import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import type { ConversationRecord, EpisodeRecord, EpisodeRole } from '../../../shared/memory-schema';
import type { Clock } from './clock';
import { newId } from './ids';
import { cachedStatement } from './database/statement-cache';
import type { IsoTime } from '../../../shared/time';

const COLUMNS = 'id, conversation_id, role, content, reference_time, created_at, utc_offset, time_zone';

/**
 * A message's id from what makes it the same message: the same text by the same role in the same
 * conversation at the same reference time. A retry (an agent's, a file observed again into its
 * conversation) finds the one stored and adds nothing.
 */
export function messageIdOf(conversationId: string | null, role: EpisodeRole, referenceTime: IsoTime, content: string): string {
  return `epi_${createHash('sha256').update(JSON.stringify([conversationId, role, referenceTime, content])).digest('hex').slice(0, 24)}`;
}

export class EpisodeStore {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  append(input: {
    role: EpisodeRole;
    content: string;
    referenceTime: IsoTime;
    conversationId: string | null;
    id?: string;
    /** The writer's UTC offset at referenceTime ("+09:00") and IANA zone, when known. */
    utcOffset?: string | null;
    timeZone?: string | null;
  }): EpisodeRecord {
    const record: EpisodeRecord = {
      id: input.id ?? newId('epi'),
      conversation_id: input.conversationId,
      role: input.role,
      content: input.content,
      reference_time: input.referenceTime,
      created_at: this.clock.now(),
      utc_offset: input.utcOffset ?? null,
      time_zone: input.timeZone ?? null,
    };
    this.insert(record);
    return record;
  }

  insert(record: EpisodeRecord): void {
    cachedStatement(this.db, `INSERT INTO episodes (${COLUMNS}) VALUES (@id, @conversation_id, @role, @content, @reference_time, @created_at, @utc_offset, @time_zone)`).run(record);
  }

  byId(id: string): EpisodeRecord | undefined {
    return cachedStatement<[string], EpisodeRecord>(this.db, `SELECT ${COLUMNS} FROM episodes WHERE id = ?`).get(id);
  }

  byIds(ids: string[]): EpisodeRecord[] {
    return ids.flatMap((id) => {
      const record = this.byId(id);
      return record ? [record] : [];
    });
  }

  ofConversation(conversationId: string): EpisodeRecord[] {
    return this.db
      .prepare<[string], EpisodeRecord>(`SELECT ${COLUMNS} FROM episodes WHERE conversation_id = ? ORDER BY reference_time, created_at, id`)
      .all(conversationId);
  }

  /**
   * The latest `limit` messages of a conversation, oldest first — reaching further back, to `before`
   * messages ahead of `linked`, when that one is older. Read from the end by index, never the whole conversation.
   */
  ofConversationWindow(conversationId: string, limit: number, linked: EpisodeRecord | undefined, before: number): EpisodeRecord[] {
    type Key = { reference_time: string; created_at: string; id: string };
    const newest = cachedStatement<[string, number], Key>(
      this.db,
      'SELECT reference_time, created_at, id FROM episodes WHERE conversation_id = ? ORDER BY reference_time DESC, created_at DESC, id DESC LIMIT 1 OFFSET ?',
    );
    const ahead = cachedStatement<[string, string, string, string, number], Key>(
      this.db,
      `SELECT reference_time, created_at, id FROM episodes WHERE conversation_id = ? AND (reference_time, created_at, id) <= (?, ?, ?)
         ORDER BY reference_time DESC, created_at DESC, id DESC LIMIT 1 OFFSET ?`,
    );
    const earliest = (a: Key | undefined, b: Key | undefined): Key | undefined => (!a ? b : !b ? a : compareKeys(a, b) <= 0 ? a : b);
    // Where the window starts: the limit-th message from the end (none: the conversation is shorter),
    // or `before` messages ahead of the linked one (none: it is near the start), whichever is earlier.
    let start = newest.get(conversationId, limit - 1);
    if (start && linked) start = earliest(start, ahead.get(conversationId, linked.reference_time, linked.created_at, linked.id, before) ?? { reference_time: '', created_at: '', id: '' });
    if (!start) return this.ofConversation(conversationId);
    return cachedStatement<[string, string, string, string], EpisodeRecord>(
      this.db,
      `SELECT ${COLUMNS} FROM episodes WHERE conversation_id = ? AND (reference_time, created_at, id) >= (?, ?, ?) ORDER BY reference_time, created_at, id`,
    ).all(conversationId, start.reference_time, start.created_at, start.id);
  }

  /** The message just before this one in its conversation (by reference time, then creation). */
  previousInConversation(episode: EpisodeRecord): EpisodeRecord | undefined {
    if (episode.conversation_id === null) return undefined;
    return cachedStatement<[string, string, string, string], EpisodeRecord>(
      this.db,
      `SELECT ${COLUMNS} FROM episodes
         WHERE conversation_id = ? AND (reference_time, created_at, id) < (?, ?, ?)
         ORDER BY reference_time DESC, created_at DESC, id DESC LIMIT 1`,
    ).get(episode.conversation_id, episode.reference_time, episode.created_at, episode.id);
  }

  all(): EpisodeRecord[] {
    return this.db.prepare<[], EpisodeRecord>(`SELECT ${COLUMNS} FROM episodes ORDER BY created_at, id`).all();
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM episodes WHERE id = ?').run(id);
  }

  conversation(id: string): ConversationRecord | undefined {
    return cachedStatement<[string], ConversationRecord>(this.db, 'SELECT id, title, created_at FROM conversations WHERE id = ?').get(id);
  }

  /** Returns the conversation with this id, creating it (titled `title`) when missing. */
  ensureConversation(id: string, title: string): ConversationRecord {
    const existing = this.conversation(id);
    if (existing) return existing;
    const record: ConversationRecord = { id, title, created_at: this.clock.now() };
    this.insertConversation(record);
    return record;
  }

  createConversation(title: string): ConversationRecord {
    return this.ensureConversation(newId('cnv'), title);
  }

  insertConversation(record: ConversationRecord): void {
    this.db.prepare('INSERT INTO conversations (id, title, created_at) VALUES (@id, @title, @created_at)').run(record);
  }

  conversations(): ConversationRecord[] {
    return this.db.prepare<[], ConversationRecord>('SELECT id, title, created_at FROM conversations ORDER BY created_at, id').all();
  }

  renameConversation(id: string, title: string): void {
    const result = this.db.prepare('UPDATE conversations SET title = ? WHERE id = ?').run(title, id);
    if (result.changes !== 1) throw new Error(`no conversation with id ${id}`);
  }
}

function compareKeys(a: { reference_time: string; created_at: string; id: string }, b: { reference_time: string; created_at: string; id: string }): number {
  return a.reference_time < b.reference_time ? -1 : a.reference_time > b.reference_time ? 1 : a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
