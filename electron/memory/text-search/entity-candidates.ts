/**
 * Stored entities whose names share a piece of a name. The assistant's entity resolution scores
 * them by their character bigrams (ingestion/entity-resolution.ts), so a name of three characters
 * or more finds them by the entities' trigram index; a shorter one (most Japanese family and given
 * names: 佐藤, 花子) can only be like a name of at most four characters that holds it, and those are
 * found by index: the names and aliases that begin with it (entities_by_name,
 * entity_aliases_by_alias) and those of three or four characters that hold it from their second or
 * third character on (migration 0041). The trigram index cannot hold a piece shorter than three
 * characters: these were found by reading every entity's names (11 ms a name at a million facts).
 */
import type { EntityRecord } from '../../../shared/memory-schema';
import type { StoreContext } from '../store/store-context';
import { ftsString, normalizeName, stripHonorifics } from '../store/normalize';
import { cachedStatement } from '../store/database/statement-cache';

const MAX_CANDIDATES = 8;

/** Names of at most four characters holding @key (one or two characters): see above. */
const SHORT_NAME_CANDIDATES = `
  SELECT id FROM entities WHERE normalized_name >= @lo AND normalized_name < @hi AND length(normalized_name) <= 4
  UNION SELECT id FROM entities WHERE substr(normalized_name, 2, 2) = @key AND length(normalized_name) BETWEEN 3 AND 4
  UNION SELECT id FROM entities WHERE substr(normalized_name, 3, 2) = @key AND length(normalized_name) = 4
  UNION SELECT entity_id FROM entity_aliases WHERE normalized_alias >= @lo AND normalized_alias < @hi AND length(normalized_alias) <= 4
  LIMIT @limit`;

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
    const short = normalizeName(key);
    ids = cachedStatement<[{ key: string; lo: string; hi: string; limit: number }], string>(ctx.db, SHORT_NAME_CANDIDATES)
      .pluck()
      .all({ key: short, lo: short, hi: `${short}\u{10FFFF}`, limit: MAX_CANDIDATES });
  }
  return ctx.entities.byIds(ids).filter((entity) => entity.type !== 'user');
}
