/**
 * Writing the document's conversations, episodes and the links of facts to their episodes
 * (fact_episodes). In a bulk load with a helper, its worker writes episodes and links instead
 * (bulk-load-helper.ts), and these run only when it cannot deliver.
 */
import type { Database } from 'better-sqlite3';
import type { ConversationRecord, EpisodeRecord, FactRecord } from '../../../shared/memory-schema';
import type { FactRows } from '../store/fact-rows';
import { rewriteEpisode } from './replace-rows';
import type { StoreLookups } from './store-lookups';

/** Inserts the conversations; one that exists (a clash being replaced) takes the document's title and time. */
export function writeConversations(db: Database, conversations: ConversationRecord[]): void {
  const upsert = db.prepare('INSERT INTO conversations (id, title, created_at) VALUES (@id, @title, @created_at) ON CONFLICT(id) DO UPDATE SET title = excluded.title, created_at = excluded.created_at');
  for (const c of conversations) upsert.run(c);
}

/** Writes episodes one at a time; `replacing` (the store's lookups, when replacing): one that exists is rewritten in place. */
export function episodeWriter(db: Database, replacing: StoreLookups | null): (e: EpisodeRecord) => void {
  const insert = db.prepare('INSERT INTO episodes (id, conversation_id, role, content, reference_time, created_at, utc_offset, time_zone) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  return (e) => {
    if (replacing !== null && replacing.episode(e.id)) rewriteEpisode(db, e);
    else insert.run(e.id, e.conversation_id, e.role, e.content, e.reference_time, e.created_at, e.utc_offset, e.time_zone);
  };
}

/** Links a fact to the episodes it cites. */
export function linkEpisodes(rows: FactRows, f: Pick<FactRecord, 'id' | 'episode_ids'>): void {
  for (const e of f.episode_ids) rows.link(f.id, e);
}
