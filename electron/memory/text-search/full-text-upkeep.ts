/**
 * Full-text index upkeep done row by row, in one place: facts' and episodes' inserted rows are
 * indexed through the queue triggers and flushFullText (fts-index.ts), or all at once by a bulk load
 * (transfer/bulk-load.ts); an entity's names are indexed here as it is created or gains an alias;
 * an episode an import rewrites in place (--replace) leaves the index and is queued again.
 */
import type { Database } from 'better-sqlite3';
import type { EntityRecord } from '../../../shared/memory-schema';
import { cachedStatement } from '../store/database/statement-cache';

/** What entities_fts indexes of an entity: its name and aliases, one per line. */
function namesOf(entity: Pick<EntityRecord, 'name' | 'aliases'>): string {
  return [entity.name, ...entity.aliases].join('\n');
}

/** Indexes a new entity's names (its FTS row shares the entity's rowid; a new row has none yet). */
export function indexNewEntityNames(db: Database, rowid: number | bigint, entity: Pick<EntityRecord, 'id' | 'name' | 'aliases'>): void {
  cachedStatement(db, 'INSERT INTO entities_fts (rowid, entity_id, names) VALUES (?, ?, ?)').run(rowid, entity.id, namesOf(entity));
}

/** Re-indexes a stored entity's names. */
export function reindexEntityNames(db: Database, entity: Pick<EntityRecord, 'id' | 'name' | 'aliases'>): void {
  const rowid = cachedStatement(db, 'SELECT rowid AS r FROM entities WHERE id = ?').get(entity.id) as { r: number };
  cachedStatement(db, 'DELETE FROM entities_fts WHERE rowid = ?').run(rowid.r);
  indexNewEntityNames(db, rowid.r, entity);
}

/** Removes a stored entity's names from the index (before the entity itself goes). */
export function unindexEntityNames(db: Database, id: string): void {
  db.prepare('DELETE FROM entities_fts WHERE rowid = (SELECT rowid FROM entities WHERE id = ?)').run(id);
}

/** Removes stored episode `id` from the full-text indexes, by its current content; returns its rowid. */
export function unindexEpisode(db: Database, id: string): number {
  const old = db.prepare<[string], { rowid: number; content: string }>('SELECT rowid, content FROM episodes WHERE id = ?').get(id)!;
  db.prepare("INSERT INTO episodes_fts (episodes_fts, rowid, content) VALUES ('delete', ?, ?)").run(old.rowid, old.content);
  db.prepare('DELETE FROM episodes_cjk WHERE rowid = ?').run(old.rowid);
  return old.rowid;
}

/** Queues the episode at `rowid` to be indexed (again) from its content. */
export function queueEpisodeIndexing(db: Database, rowid: number): void {
  db.prepare("INSERT INTO fts_queue (kind, row) VALUES ('episode', ?)").run(rowid);
}
