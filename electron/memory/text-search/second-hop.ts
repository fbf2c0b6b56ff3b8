/**
 * The second hop of a question that reaches someone through a person it names: "Where does Owen's
 * partner work?" finds "Owen's new partner is Ruth", but Ruth's employer is a fact of Ruth's, which
 * holds neither "Owen" nor "partner". The entities the first hits point at (their objects: Ruth)
 * bring their own facts, scored by the question's remaining words — those neither the names nor the
 * first hit hold ("work") — at a lower weight than the named people's own facts.
 *
 * Bounded: the best few first hits that hold a word of the question beyond the names are followed,
 * each through one indexed read of at most HOP_ROWS of its object's facts (newest first).
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import type { SqlFilter } from '../temporal/fact-query';
import { containmentScore, foldText, hasTerms, type QueryWeights } from './term-weights';

/** A hop fact's score is its words' weight times this: below the named people's facts holding as much. */
export const HOP_FACTOR = 0.5;
/** First hits followed, at most (the best scored ones that hold a question word beyond the names). */
const HOP_SOURCES = 4;
/** Facts read per entity reached. */
const HOP_ROWS = 60;

/** A first hit: a fact of a named person, with what it points at. */
export interface HopSource {
  id: string;
  fact: string;
  predicate: string;
  subject_id: string;
  object_id: string | null;
}

export interface HopFact {
  id: string;
  score: number;
  /** The first hit it was reached through. */
  via: string;
}

/** The question's words a text does not hold (nor the names): what is left to ask of the entity it points at. */
export function remainingWeights(weights: QueryWeights, folded: string, names: readonly string[]): QueryWeights {
  const named = (w: string) => names.some((n) => n !== '' && (n.split(/\s+/u).includes(w) || (!/^[\p{L}\p{N}\s]*$/u.test(n) && (n.includes(w) || w.includes(n)))));
  const holds = (w: string, list: 'terms' | 'short' | 'grams') => containmentScore(folded, { terms: [], short: [], grams: [], [list]: [[w, 1]] }) > 0;
  return {
    terms: weights.terms.filter(([t]) => !named(t) && !holds(t, 'terms')),
    short: weights.short.filter(([t]) => !named(t) && !holds(t, 'short')),
    grams: weights.grams.filter(([g]) => !named(g) && !holds(g, 'grams')),
  };
}

/**
 * Facts of the entities the best first hits point at, scored by the words left (and the relation
 * asked for, as the named people's facts are), times HOP_FACTOR; best first. `sources` are the
 * named people's facts best first, `scope` those people (their facts are no second hop).
 */
export function secondHop(
  db: Database,
  sources: readonly HopSource[],
  scope: readonly string[],
  names: readonly string[],
  weights: QueryWeights,
  relationWeight: (predicate: string, folded: string, left: QueryWeights) => number,
  filter: SqlFilter,
): HopFact[] {
  const where = filter.where.length ? ` AND ${filter.where.join(' AND ')}` : '';
  const facts = cachedStatement(db, `SELECT f.id, f.fact, f.predicate FROM facts f WHERE f.subject_id = @entity${where} ORDER BY f.valid_at DESC, f.rowid DESC LIMIT ${HOP_ROWS}`);
  const out = new Map<string, HopFact>();
  const followed = new Set<string>(scope);
  let taken = 0;
  for (const source of sources) {
    if (taken >= HOP_SOURCES) break;
    if (source.object_id === null || followed.has(source.object_id)) continue;
    const folded = foldText(source.fact, source.predicate);
    const beyondNames = remainingWeights(weights, '', names);
    // Only a first hit that holds some of the question beyond the names leads on ("Owen's partner is Ruth" for "partner").
    if (containmentScore(folded, beyondNames) === 0) continue;
    const left = remainingWeights(weights, folded, names);
    taken++;
    followed.add(source.object_id);
    if (!hasTerms(left)) continue;
    for (const row of facts.all({ ...filter.params, entity: source.object_id }) as { id: string; fact: string; predicate: string }[]) {
      const text = foldText(row.fact, row.predicate);
      const score = (containmentScore(text, left) + relationWeight(row.predicate, text, left)) * HOP_FACTOR;
      if (score > 0 && !out.has(row.id)) out.set(row.id, { id: row.id, score, via: source.id });
    }
  }
  return [...out.values()].sort((a, b) => b.score - a.score);
}
