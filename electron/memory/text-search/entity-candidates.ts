/**
 * Stored entities whose names share a piece of a name, honorifics stripped: the entities' trigram
 * index for a name of three characters or more. A shorter one ("ヨガ", "Bo", "李さん") holds one
 * bigram at most, so under entity resolution's bigram Dice (entity-resolution.ts) only a stored
 * name or alias of at most four characters holding it can score 0.5, and one of one character only
 * as that character: those, shortest first, from the short names' index (entity-names-index.ts).
 * A stored name of two characters has no trigram, yet scores 2/3 or 2/4 against a name of three or
 * four holding it ("Bo" for "Bob", "ヨガ" for "ヨガ部"): those come from the short names' index too.
 * The assistant's entity resolution scores them.
 */
import type { EntityRecord } from '../../../shared/memory-schema';
import type { StoreContext } from '../store/store-context';
import { ftsString, stripHonorifics } from '../store/normalize';
import { cachedStatement } from '../store/database/statement-cache';
import { SHORT_NAME_MAX } from '../store/entity-names-index';

/** Short names holding a pair, of at most a length, shortest first (the primary key's order: no sort, read until enough). */
const SHORT_NAMES_SQL = `SELECT s.entity_id AS id FROM entity_short_names s JOIN entities e ON e.id = s.entity_id
  WHERE s.pair = ? AND s.length <= ? AND e.type <> 'user' ORDER BY s.length, s.entity_id`;

const MAX_CANDIDATES = 8;

/** Entities (never the user) that may be `name`, honorifics stripped; best first. */
export function entityCandidates(ctx: Pick<StoreContext, 'db' | 'entities'>, name: string): EntityRecord[] {
  const key = stripHonorifics(name);
  const chars = [...key];
  let ids: string[];
  if (chars.length >= 3) {
    const grams = new Set<string>();
    for (let i = 0; i + 3 <= chars.length; i++) grams.add(chars.slice(i, i + 3).join(''));
    const query = [...grams].map(ftsString).join(' OR ');
    ids = cachedStatement<[string, number], { id: string }>(ctx.db, 'SELECT entity_id AS id FROM entities_fts WHERE entities_fts MATCH ? ORDER BY bm25(entities_fts) LIMIT ?')
      .all(query, MAX_CANDIDATES)
      .map((r) => r.id);
    if (chars.length <= SHORT_NAME_MAX) {
      const pairs = chars.slice(1).map((c, i) => chars[i]! + c);
      ids = [...new Set([...ids, ...shortNames(ctx, pairs, 2)])];
    }
  } else {
    ids = shortNames(ctx, [key], SHORT_NAME_MAX);
  }
  return ctx.entities.byIds(ids).filter((entity) => entity.type !== 'user');
}

/** Entities with a short name of at most `maxLength` characters holding one of `pairs`, up to eight (an entity with two such names counts once). */
function shortNames(ctx: Pick<StoreContext, 'db'>, pairs: string[], maxLength: number): string[] {
  const found = new Set<string>();
  const statement = cachedStatement<[string, number], { id: string }>(ctx.db, SHORT_NAMES_SQL);
  for (const pair of new Set(pairs)) {
    for (const row of statement.iterate(pair, maxLength)) {
      found.add(row.id);
      if (found.size === MAX_CANDIDATES) return [...found];
    }
  }
  return [...found];
}
