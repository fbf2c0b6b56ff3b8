/**
 * Names for what the user is typing in a filter, at a cost that does not grow with the memory:
 * the Facts screen's entity and predicate fields ask as the user types instead of loading every
 * entity (12.6 MB at 1M facts). Names that begin with the text come first, then names that
 * contain it; within each, the most facts held now first (live_subjects / live_predicates, kept by
 * triggers: live-counts.ts), then by name.
 *
 * Every read is bounded, whatever the size of the memory:
 *  - begins with: a range of the index on the normalised name (entities_by_name; aliases:
 *    entity_aliases_by_alias), at most CANDIDATES entries each — any length of text, one
 *    character of Japanese too. When a range holds more than that (a short prefix in a large
 *    memory), the WALK most talked-about subjects are also read (live_subjects_by_count), so the
 *    best known names come first even when the range was cut;
 *  - contains, three characters or more: the entities' trigram index (entities_fts, names and
 *    aliases), at most CANDIDATES hits (and the walk when cut);
 *  - contains, one or two characters (the trigram index cannot): only the WALK most talked-about
 *    subjects are read. A rarely mentioned entity is found by what its name begins with.
 * Predicates come from live_predicates, one row per predicate in use: read whole (the vocabulary,
 * not the memory).
 */
import type { Database } from 'better-sqlite3';
import { MAX_NAME_SUGGESTIONS, MAX_SUGGESTION_TEXT, type NameSuggestion, type SuggestNamesRequest } from '../../../shared/api-contract';
import { MemoryInputError } from '../memory-errors';
import { cachedStatement } from './database/statement-cache';
import { ftsString, normalizeName, normalizePredicate } from './normalize';

export const DEFAULT_SUGGESTIONS = 20;
/** Index entries read per range or trigram match, at most. */
export const CANDIDATES = 1000;
/** Most talked-about subjects read, at most, where an index cannot narrow the names. */
export const WALK = 5000;

/** The strings that begin with `prefix`, as a range in binary order (U+10FFFF sorts after every character). */
const rangeOf = (prefix: string) => ({ lo: prefix, hi: `${prefix}\u{10FFFF}` });

// Each ranked by the facts held now, then by name; `live` of a name held by several entities: the most.
const RANK = 'GROUP BY e.name ORDER BY live DESC, e.name LIMIT @limit';
const BY_NAME = `SELECT e.name AS name, MAX(COALESCE(l.live, 0)) AS live
  FROM (SELECT id, name FROM entities WHERE normalized_name >= @lo AND normalized_name < @hi LIMIT ${CANDIDATES}) e
  LEFT JOIN live_subjects l ON l.subject_id = e.id ${RANK}`;
const NAME_RANGE_SIZE = `SELECT count(*) FROM (SELECT 1 FROM entities WHERE normalized_name >= @lo AND normalized_name < @hi LIMIT ${CANDIDATES})`;
const BY_ALIAS = `SELECT e.name AS name, MAX(COALESCE(l.live, 0)) AS live
  FROM (SELECT entity_id FROM entity_aliases WHERE normalized_alias >= @lo AND normalized_alias < @hi LIMIT ${CANDIDATES}) a
  JOIN entities e ON e.id = a.entity_id
  LEFT JOIN live_subjects l ON l.subject_id = e.id ${RANK}`;
const ALIAS_RANGE_SIZE = `SELECT count(*) FROM (SELECT 1 FROM entity_aliases WHERE normalized_alias >= @lo AND normalized_alias < @hi LIMIT ${CANDIDATES})`;
const BY_TRIGRAMS = `SELECT e.name AS name, MAX(COALESCE(l.live, 0)) AS live
  FROM (SELECT entity_id FROM entities_fts WHERE entities_fts MATCH @phrase LIMIT ${CANDIDATES}) f
  JOIN entities e ON e.id = f.entity_id
  LEFT JOIN live_subjects l ON l.subject_id = e.id ${RANK}`;
const TRIGRAM_HITS = `SELECT count(*) FROM (SELECT 1 FROM entities_fts WHERE entities_fts MATCH @phrase LIMIT ${CANDIDATES})`;
/** The most talked-about subjects, filtered by `match`. */
const walk = (match: string) => `SELECT e.name AS name, MAX(t.live) AS live
  FROM (SELECT subject_id, live FROM live_subjects ORDER BY live DESC, subject_id LIMIT ${WALK}) t
  JOIN entities e ON e.id = t.subject_id
  WHERE ${match} ${RANK}`;
const WALK_ALL = walk('1');
const WALK_PREFIX = walk('e.normalized_name >= @lo AND e.normalized_name < @hi');
const WALK_CONTAINS = walk('instr(e.normalized_name, @key) > 0');
const PREDICATES = `SELECT predicate AS name, SUM(live) AS live FROM live_predicates WHERE instr(predicate, @key) > 0
  GROUP BY predicate ORDER BY (predicate >= @lo AND predicate < @hi) DESC, live DESC, predicate LIMIT @limit`;

/** Checks a request that did not come through the API's schema (the CLI, MCP, tests): errors name the field. */
function checked(kind: unknown, text: unknown, limit: unknown): { kind: SuggestNamesRequest['kind']; text: string; limit: number } {
  if (kind !== 'entity' && kind !== 'predicate') throw new MemoryInputError(`kind must be "entity" or "predicate", not ${JSON.stringify(kind)}`, 'kind');
  if (typeof text !== 'string') throw new MemoryInputError('text must be a string (empty: the most used names)', 'text');
  if (text.length > MAX_SUGGESTION_TEXT) throw new MemoryInputError(`text must be at most ${MAX_SUGGESTION_TEXT} characters (it has ${text.length})`, 'text');
  const n = limit ?? DEFAULT_SUGGESTIONS;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_NAME_SUGGESTIONS) throw new MemoryInputError(`limit must be a whole number from 1 to ${MAX_NAME_SUGGESTIONS}, not ${JSON.stringify(limit)}`, 'limit');
  return { kind, text, limit: n };
}

/** Names for `text` (see the file's comment): at most `limit`, those that begin with it first. */
export function suggestNames(db: Database, kind: SuggestNamesRequest['kind'], text: string, limit?: number): NameSuggestion[] {
  const request = checked(kind, text, limit);
  return request.kind === 'predicate' ? suggestPredicates(db, request.text, request.limit) : suggestEntities(db, request.text, request.limit);
}

function suggestPredicates(db: Database, text: string, limit: number): NameSuggestion[] {
  // "works a" is typed for works_at; the trailing space of "works " is kept as the underscore it will be.
  const key = normalizePredicate(text.trimStart()) + (/\s$/u.test(text) && text.trim() !== '' ? '_' : '');
  return all(db, PREDICATES, { key, ...rangeOf(key), limit });
}

function suggestEntities(db: Database, text: string, limit: number): NameSuggestion[] {
  const key = normalizeName(text);
  if (key === '') return all(db, WALK_ALL, { limit });
  const range = rangeOf(key);
  const cut = (sql: string, params: object) => (cachedStatement(db, sql).pluck().get(params) as number) >= CANDIDATES;
  const dense = cut(NAME_RANGE_SIZE, range) || cut(ALIAS_RANGE_SIZE, range);
  const prefixed = best([all(db, BY_NAME, { ...range, limit }), all(db, BY_ALIAS, { ...range, limit }), dense ? all(db, WALK_PREFIX, { ...range, limit }) : []], limit, new Set());
  if (prefixed.length === limit) return prefixed;
  // Names that also begin with the text come back here too: ask for enough to fill the rest.
  const more = limit + prefixed.length;
  let contained: NameSuggestion[][];
  if ([...key].length >= 3) {
    const phrase = ftsString(key);
    contained = [all(db, BY_TRIGRAMS, { phrase, limit: more }), cut(TRIGRAM_HITS, { phrase }) ? all(db, WALK_CONTAINS, { key, limit: more }) : []];
  } else {
    contained = [all(db, WALK_CONTAINS, { key, limit: more })];
  }
  return [...prefixed, ...best(contained, limit - prefixed.length, new Set(prefixed.map((s) => s.name)))];
}

function all(db: Database, sql: string, params: object): NameSuggestion[] {
  return (cachedStatement(db, sql).all(params) as { name: string; live: number }[]).map((r) => ({ name: r.name, live: r.live }));
}

/** The best `limit` names of several ranked lists (each name once, with its most facts), none of `skip`. */
function best(lists: NameSuggestion[][], limit: number, skip: Set<string>): NameSuggestion[] {
  const live = new Map<string, number>();
  for (const list of lists) for (const s of list) if (!skip.has(s.name)) live.set(s.name, Math.max(live.get(s.name) ?? 0, s.live));
  return [...live]
    .map(([name, n]) => ({ name, live: n }))
    .sort((a, b) => b.live - a.live || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, limit);
}
