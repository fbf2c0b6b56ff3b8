/**
 * Stored entities whose names share a piece of a name, honorifics stripped: the entities' trigram
 * index for a name of three characters or more. A shorter one ("ヨガ", "Bo", "李さん") holds one
 * bigram at most, so under entity resolution's bigram Dice (entity-resolution.ts) only a stored
 * name or alias of at most four characters holding it can score 0.5, and one of one character only
 * as that character: those, shortest first, from the short names' index (entity-names-index.ts).
 * The assistant's entity resolution scores them.
 */
import type { EntityRecord } from '../../../shared/memory-schema';
import type { StoreContext } from '../store/store-context';
import { ftsString, stripHonorifics } from '../store/normalize';
import { cachedStatement } from '../store/database/statement-cache';

/** A short name's candidates, shortest first (the primary key's order: no sort, read until enough). */
const SHORT_NAMES_SQL = `SELECT s.entity_id AS id FROM entity_short_names s JOIN entities e ON e.id = s.entity_id
  WHERE s.pair = ? AND e.type <> 'user' ORDER BY s.length, s.entity_id`;

const MAX_CANDIDATES = 8;

/** Entities (never the user) that may be `name`, honorifics stripped; best first. */
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
    // An entity with two short names holding it comes twice: read until eight different ones.
    const found = new Set<string>();
    for (const row of cachedStatement<[string], { id: string }>(ctx.db, SHORT_NAMES_SQL).iterate(key)) {
      found.add(row.id);
      if (found.size === MAX_CANDIDATES) break;
    }
    ids = [...found];
  }
  return ctx.entities.byIds(ids).filter((entity) => entity.type !== 'user');
}
