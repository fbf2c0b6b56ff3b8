/**
 * The facts a timeline question with a row filter or a known-at time reads, found by index (issue
 * 26), so that the window's one pass (timeline-window.ts) goes over those facts, not every fact.
 *
 * Known at K (when the kept rows cannot answer: timeline-known-at.ts), the versions held then are
 * the held ones recorded by K and the replaced ones recorded by K and replaced after it: two ranges
 * of covering indexes (facts_live_by_created_at, facts_replaced_by_expired_at, migration 0025), no
 * table rows — HELD_AT_SOURCE.
 *
 * The filter keeps a fact whose subject's name, predicate or object (an entity's name, or the
 * literal) contains the text (any case for ASCII: lower(…) LIKE '%text%'); a predicate as stored or
 * as the screens say it (shared/predicate-words.ts): "lives in" finds lives_in as "lives_in" does,
 * its spaces read as the underscores they stand for (PREDICATE_PATTERN). So the facts it keeps
 * are exactly the union of: the facts of the entities whose name contains it, as subject (by
 * facts_by_subject_time) or as object (facts_by_object); the facts of the predicates that contain
 * it (facts_by_predicate_time); and the facts whose literal contains it (a scan of the literals
 * alone: facts_literal_values, migration 0025). The names are found first: the entities'
 * trigram index (entities_fts, three characters or more; every hit checked against the name) or,
 * for shorter text, a scan of the entities; the predicates by a skip over the predicates' index
 * (one seek per predicate in the memory). Held now, each part reads only held facts' entries.
 *
 * Cost: the names, then the facts kept, each by index — it grows with what the filter keeps. A
 * filter that names more than MAX_NAMES entities (a letter or two in a large memory) keeps most
 * facts: then the source is every fact (null), as before.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { ftsString } from '../store/normalize';

/** The versions held at @knownAt, as `f` (the columns the pass reads), from two covering index ranges. */
export const HELD_AT_SOURCE = `(
    SELECT subject_id, predicate, valid_at, invalid_at, created_at, expired_at FROM facts INDEXED BY facts_live_by_created_at
      WHERE expired_at IS NULL AND created_at <= @knownAt
    UNION ALL
    SELECT subject_id, predicate, valid_at, invalid_at, created_at, expired_at FROM facts INDEXED BY facts_replaced_by_expired_at
      WHERE expired_at IS NOT NULL AND expired_at > @knownAt AND created_at <= @knownAt
  ) f`;

/**
 * @filter as it applies to a predicate: each space typed is an underscore. A canonical predicate
 * (lower snake case: store/normalize.ts) is said in words by making each underscore a space
 * (shared/predicate-words.ts), so the text read so is in its name exactly when the text is in its
 * name or in its words: "lives in", "es i" and "lives_in" all find lives_in.
 */
const PREDICATE_PATTERN = `replace(@filter, ' ', '\\_')`;
/** The row filter on a fact `f` (its subject's name, predicate or object contains @filter), with the joins it reads. */
export const FILTER_CLAUSE = ` AND (lower(fs.name) LIKE @filter ESCAPE '\\' OR lower(f.predicate) LIKE ${PREDICATE_PATTERN} ESCAPE '\\' OR lower(COALESCE(fo.name, f.object_literal)) LIKE @filter ESCAPE '\\')`;
export const FILTER_JOINS = ' JOIN entities fs ON fs.id = f.subject_id LEFT JOIN entities fo ON fo.id = f.object_id';
/** The LIKE pattern for a filter's text (already trimmed): any case for ASCII, % _ \\ literal. */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** More matching entities than this: the filter keeps most of the memory; read every fact. */
export const MAX_NAMES = 5_000;
const ESCAPE = "ESCAPE '\\'";

export interface FilteredSource {
  /** A FROM clause naming the kept facts `f` (their rowids in `c`, read first: CROSS JOIN keeps the planner from scanning facts). */
  from: string;
  params: { filterSubjects: string; filterPredicates: string };
}

/** Entities whose name contains the text: by trigram index, checked, or by a scan for short text. */
export function matchingEntities(db: Database, text: string, pattern: string): string[] | null {
  const byIndex = [...text].length >= 3;
  const found = (
    byIndex
      ? cachedStatement(
          db,
          `SELECT DISTINCT e.id FROM entities_fts t JOIN entities e ON e.id = t.entity_id
           WHERE entities_fts MATCH @phrase AND lower(e.name) LIKE @filter ${ESCAPE} LIMIT @cap`,
        ).all({ phrase: ftsString(text), filter: pattern, cap: MAX_NAMES + 1 })
      : cachedStatement(db, `SELECT id FROM entities WHERE lower(name) LIKE @filter ${ESCAPE} LIMIT @cap`).all({ filter: pattern, cap: MAX_NAMES + 1 })
  ) as { id: string }[];
  return found.length > MAX_NAMES ? null : found.map((e) => e.id);
}

/** The predicates of the memory (any version) that contain the text, as named or said: one index seek per predicate. */
export function matchingPredicates(db: Database, pattern: string): string[] {
  return (
    cachedStatement(
      db,
      `WITH RECURSIVE p(predicate) AS (
         SELECT min(predicate) FROM facts
         UNION ALL
         SELECT (SELECT min(predicate) FROM facts WHERE predicate > p.predicate) FROM p WHERE p.predicate IS NOT NULL
       ) SELECT predicate FROM p WHERE predicate IS NOT NULL AND lower(predicate) LIKE ${PREDICATE_PATTERN} ${ESCAPE}`,
    ).all({ filter: pattern }) as { predicate: string }[]
  ).map((p) => p.predicate);
}

/**
 * The kept facts' source for `filter` (already trimmed; `pattern` its LIKE pattern), held now
 * (`live`) or at a known-at time; null when the filter keeps most facts (read them all).
 */
export function filteredSource(db: Database, text: string, pattern: string, live: boolean): FilteredSource | null {
  const entities = matchingEntities(db, text, pattern);
  if (entities === null) return null;
  const predicates = matchingPredicates(db, pattern);
  const held = live ? ' AND expired_at IS NULL' : '';
  return {
    from: `(
        SELECT rowid AS r FROM facts WHERE subject_id IN (SELECT value FROM json_each(@filterSubjects))${held}
        UNION SELECT rowid FROM facts WHERE object_id IN (SELECT value FROM json_each(@filterSubjects))${held}
        UNION SELECT rowid FROM facts WHERE predicate IN (SELECT value FROM json_each(@filterPredicates))${held}
        UNION SELECT rowid FROM facts INDEXED BY facts_literal_values WHERE object_literal IS NOT NULL${held} AND lower(object_literal) LIKE @filter ${ESCAPE}
      ) c CROSS JOIN facts f ON f.rowid = c.r`,
    params: { filterSubjects: JSON.stringify(entities), filterPredicates: JSON.stringify(predicates) },
  };
}
