/**
 * An entity's names in the indexes that find it from a name in a message, kept by the entity store
 * as it creates an entity, gives it an alias or deletes it:
 *  - the full-text index (entities_fts, trigrams): its row shares the entity's rowid;
 *  - the short names (entity_short_names, migration 0041): each name or alias of at most four
 *    characters after its honorifics, under its bigrams (one character: that character) — the only
 *    stored names a name of one or two characters can mean under entity resolution's bigram Dice.
 */
import type { Database } from 'better-sqlite3';
import type { EntityRecord } from '../../../shared/memory-schema';
import { cachedStatement } from './database/statement-cache';
import { stripHonorifics } from './normalize';

/** The longest name (after honorifics, in characters) a name of one or two characters can mean. */
export const SHORT_NAME_MAX = 4;

/** What entities_fts indexes of an entity: its name and aliases, one per line. */
function namesOf(entity: Pick<EntityRecord, 'name' | 'aliases'>): string {
  return [entity.name, ...entity.aliases].join('\n');
}

/**
 * The keys a name is found under by a short name: null when it is longer than SHORT_NAME_MAX
 * characters after its honorifics; else its one character, or its bigrams (none when nothing is left).
 */
function shortNameKeys(name: string): { keys: string[]; length: number } | null {
  const chars = [...stripHonorifics(name)];
  if (chars.length > SHORT_NAME_MAX) return null;
  if (chars.length === 1) return { keys: chars, length: 1 };
  const keys = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) keys.add(chars[i]! + chars[i + 1]!);
  return { keys: [...keys], length: chars.length };
}

/** Indexes a new entity's names (its FTS row shares the entity's rowid; a new row has none yet). */
export function indexNewEntityNames(db: Database, rowid: number | bigint, entity: Pick<EntityRecord, 'id' | 'name' | 'aliases'>): void {
  cachedStatement(db, 'INSERT INTO entities_fts (rowid, entity_id, names) VALUES (?, ?, ?)').run(rowid, entity.id, namesOf(entity));
  const insert = cachedStatement(db, 'INSERT OR IGNORE INTO entity_short_names (pair, length, entity_id) VALUES (?, ?, ?)');
  for (const name of [entity.name, ...entity.aliases]) {
    const short = shortNameKeys(name);
    if (short) for (const key of short.keys) insert.run(key, short.length, entity.id);
  }
}

/** Re-indexes a stored entity's names. */
export function reindexEntityNames(db: Database, entity: Pick<EntityRecord, 'id' | 'name' | 'aliases'>): void {
  const rowid = cachedStatement(db, 'SELECT rowid AS r FROM entities WHERE id = ?').get(entity.id) as { r: number };
  cachedStatement(db, 'DELETE FROM entities_fts WHERE rowid = ?').run(rowid.r);
  cachedStatement(db, 'DELETE FROM entity_short_names WHERE entity_id = ?').run(entity.id);
  indexNewEntityNames(db, rowid.r, entity);
}

/** Removes a stored entity's names from the indexes (before the entity itself goes). */
export function unindexEntityNames(db: Database, id: string): void {
  db.prepare('DELETE FROM entities_fts WHERE rowid = (SELECT rowid FROM entities WHERE id = ?)').run(id);
  cachedStatement(db, 'DELETE FROM entity_short_names WHERE entity_id = ?').run(id);
}
