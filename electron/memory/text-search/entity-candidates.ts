/**
 * Stored entities whose names share a piece of a name: the entities' trigram index for a name of
 * three characters or more, honorifics stripped. A shorter one ("ヨガ", "Bo", "李さん") holds one
 * bigram at most, so under entity resolution's bigram Dice (entity-resolution.ts) only a stored name
 * or alias of at most four characters holding it can score 0.5: those, shortest first, through the
 * name indexes and the short names' partial indexes (migration 0041) — never a scan of every name,
 * and never eight longer names that happened to be stored first.
 */
import type { EntityRecord } from '../../../shared/memory-schema';
import type { StoreContext } from '../store/store-context';
import { ftsString, stripHonorifics } from '../store/normalize';
import { cachedStatement } from '../store/database/statement-cache';

const MAX_CANDIDATES = 8;
/** The longest stored name a one- or two-character name can mean (the partial indexes' bound). */
const SHORT_NAME = 4;

/**
 * Short names and aliases holding @key (one or two characters) from their first character (the
 * name indexes) or, for two (@two), from their second or third (migration 0041's partial indexes;
 * one character scores only as the whole name): each arm is a range of one index, from @key to
 * @key followed by the last code point (@end).
 */
const SHORT_NAMES_SQL = (() => {
  const arms = [
    ['entities', 'normalized_name', 'entities_by_name', 1],
    ['entities', 'normalized_name', 'entities_short_from_2', 2],
    ['entities', 'normalized_name', 'entities_short_from_3', 3],
    ['entity_aliases', 'normalized_alias', 'entity_aliases_by_alias', 1],
    ['entity_aliases', 'normalized_alias', 'entity_aliases_short_from_2', 2],
    ['entity_aliases', 'normalized_alias', 'entity_aliases_short_from_3', 3],
  ] as const;
  const arm = ([table, column, index, from]: (typeof arms)[number]) => {
    const text = from === 1 ? column : `substr(${column}, ${from})`;
    const id = table === 'entities' ? 'rowid AS r' : 'entity_id AS e';
    return `SELECT ${id}, length(${column}) AS n FROM ${table} INDEXED BY ${index}
             WHERE ${text} >= @key AND ${text} < @end AND length(${column}) <= ${SHORT_NAME}${from === 1 ? '' : ' AND @two'}`;
  };
  const of = (table: string) => arms.filter((a) => a[0] === table).map(arm).join(' UNION ALL ');
  return `SELECT e.id FROM (
            SELECT e.rowid AS r, h.n FROM (${of('entity_aliases')}) h JOIN entities e ON e.id = h.e
            UNION ALL ${of('entities')}) h
          JOIN entities e ON e.rowid = h.r
          WHERE e.type <> 'user' GROUP BY h.r ORDER BY min(h.n), h.r LIMIT @cap`;
})();

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
    ids = cachedStatement<{ key: string; end: string; two: number; cap: number }, { id: string }>(ctx.db, SHORT_NAMES_SQL)
      .all({ key, end: `${key}\u{10FFFF}`, two: chars.length === 2 ? 1 : 0, cap: MAX_CANDIDATES })
      .map((r) => r.id);
  }
  return ctx.entities.byIds(ids).filter((entity) => entity.type !== 'user');
}
