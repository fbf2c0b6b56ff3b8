/**
 * How full-text search orders what its first pass found: the second pass that scores each
 * candidate by the question words its text holds, and the plain fusion of id lists.
 */
import type { IsoTime } from '../../../shared/time';
import { compareTieKeys } from './stable-order';
import { containmentScore, foldText, type QueryWeights } from './term-weights';

export interface TextMatch {
  id: string;
  /** Higher is better; only comparable within one list. */
  score: number;
}

/** A row the first pass found: its id, the text the second pass reads, its time for the tie key. */
export interface Candidate {
  id: string;
  text: string;
  extra: string;
  at: IsoTime;
}

const RRF_K = 20;

/**
 * The second pass: candidates of every list scored by the query words their text holds (as words,
 * not inside others: a candidate holding none is dropped); equal
 * scores keep the first pass's order (reciprocal rank fusion of the lists), then the fixed key.
 */
export function rescore(lists: Candidate[][], weights: QueryWeights, limit: number): TextMatch[] {
  const pool = new Map<string, { row: Candidate; first: number; score: number }>();
  for (const list of lists) {
    list.forEach((row, i) => {
      const entry = pool.get(row.id) ?? { row, first: 0, score: containmentScore(foldText(row.text, row.extra), weights) };
      entry.first += 1 / (RRF_K + i + 1);
      pool.set(row.id, entry);
    });
  }
  // A row the trigram index found only inside other words ("long" in "belonging") holds no term.
  return [...pool.values()]
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score || b.first - a.first || compareTieKeys({ id: a.row.id, valid_at: a.row.at, fact: a.row.text }, { id: b.row.id, valid_at: b.row.at, fact: b.row.text }))
    .slice(0, limit)
    .map((e) => ({ id: e.row.id, score: e.score }));
}

/** Reciprocal rank fusion of id lists; equal scores keep the order of first appearance (lists are ordered). */
export function fuseIds(lists: string[][], limit: number): TextMatch[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + i + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score).slice(0, limit);
}
