/**
 * Every word of the question counts: a candidate row is scored by which of the query's terms its
 * text contains, each weighted by how rare it is (idf). This is the second pass of full-text
 * search — the index finds candidates through the rarer words, and here the common ones ("work",
 * "live", 働い, 好き) decide among them — and the score of the named entities' own facts.
 *
 * A term counts where a word of the text is a form of it (word-forms.ts: "friends" for friend, not
 * "belonging" for long); the trigram index, which matches anywhere, finds a superset of those rows.
 * CJK pairs have no word boundaries and count anywhere.
 */
import type { ParsedQuery } from './query-terms';
import { holdsWord } from './word-forms';

export interface QueryWeights {
  /** idf of each trigram term, CJK gram and short term; a term no row contains is left out. */
  terms: [string, number][];
  grams: [string, number][];
  short: [string, number][];
}

/** Inverse document frequency: ln(1 + rows / rows containing it). */
export function idf(rows: number, containing: number): number {
  return Math.log(1 + Math.max(rows, 1) / Math.max(containing, 1));
}

/** A single kanji repeats what the pairs around it say (働 in で働, 働い): it counts half. */
export const SINGLE_GRAM_FACTOR = 0.5;
/** A 2-character Latin term ("AI", "go") is matched by LIKE, without document counts. */
export const SHORT_TERM_WEIGHT = 1;

/** Equal weights, for when no document counts are at hand (terms 1, short 0.5, grams 0.5 / 0.2). */
export function flatWeights(query: ParsedQuery): QueryWeights {
  return {
    terms: query.terms.map((t) => [t, 1]),
    short: query.short.map((t) => [t, 0.5]),
    grams: query.grams.map((g) => [g, [...g].length > 1 ? 0.5 : 0.2]),
  };
}

/** Compatibility forms worth folding (full-width Latin, half-width kana): rare, and NFKC is slow. */
const COMPATIBILITY = /[\uff00-\uffef]/u;

/** The text a row is scored by (a fact's sentence and predicate), case folded as the index folds it. */
export function foldText(text: string, more = ''): string {
  const joined = more === '' ? text : `${text} ${more}`;
  return (COMPATIBILITY.test(joined) ? joined.normalize('NFKC') : joined).toLowerCase();
}

/** Sum of the weights of the terms `folded` (from foldText) holds as words, and the pairs it contains. */
export function containmentScore(folded: string, weights: QueryWeights): number {
  let score = 0;
  for (const [term, w] of weights.terms) if (holdsWord(folded, term)) score += w;
  for (const [term, w] of weights.short) if (holdsWord(folded, term)) score += w;
  for (const [gram, w] of weights.grams) if (folded.includes(gram)) score += w;
  return score;
}

export function hasTerms(weights: QueryWeights): boolean {
  return weights.terms.length + weights.grams.length + weights.short.length > 0;
}
