/**
 * Stored entities whose names share a piece of a name (the entities' trigram index, or LIKE for
 * names shorter than three characters). The assistant's entity resolution scores them.
 */
import type { EntityRecord } from '../../../shared/memory-schema';
import type { StoreContext } from '../store/store-context';
import { ftsString, stripHonorifics } from '../store/normalize';
import { cachedStatement } from '../store/database/statement-cache';

const MAX_CANDIDATES = 8;

/** Entities (never the user) sharing at least a trigram with the name, honorifics stripped; best first. */
export function entityCandidates(ctx: Pick<StoreContext, 'db' | 'entities'>, name: string): EntityRecord[] {
  const key = stripHonorifics(name);
  if (key === '') return [];
  const chars = [...key];
  let ids: string[];
  if (chars.length >= 3) {
    const grams = new Set<string>();
    for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
    const query = [...grams].map(ftsString).join(' OR ');
    ids = cachedStatement<[string, number], { id: string }>(ctx.db, 'SELECT entity_id AS id FROM entities_fts WHERE entities_fts MATCH ? ORDER BY bm25(entities_fts) LIMIT ?')
      .all(query, MAX_CANDIDATES)
      .map((r) => r.id);
  } else {
    ids = cachedStatement<[string, number], { id: string }>(ctx.db, "SELECT entity_id AS id FROM entities_fts WHERE names LIKE ? ESCAPE '\\' LIMIT ?")
      .all(`%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, MAX_CANDIDATES)
      .map((r) => r.id);
  }
  return ctx.entities.byIds(ids).filter((entity) => entity.type !== 'user');
}
