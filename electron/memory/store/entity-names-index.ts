/**
 * An entity's names in the full-text index (entities_fts), kept by the entity store as it creates
 * an entity, gives it an alias or deletes it: the row shares the entity's rowid.
 */
import type { Database } from 'better-sqlite3';
import type { EntityRecord } from '../../../shared/memory-schema';
import { cachedStatement } from './database/statement-cache';

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
