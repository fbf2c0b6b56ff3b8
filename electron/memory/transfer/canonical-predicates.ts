/**
 * One vocabulary: an imported fact's predicate is normalised by the same function as observe's and
 * ingestion's (store/normalize.ts), so "note-3" imported and "note 3" observed share a slot and the
 * rules resolve them together (export-records.ts hands every fact over with its canonical predicate).
 */
import { normalizePredicate } from '../store/normalize';

const cache = new Map<string, string>();

/** normalizePredicate, remembered: a memory has few distinct predicates and many facts. */
export function canonicalPredicate(predicate: string): string {
  let canonical = cache.get(predicate);
  if (canonical === undefined) {
    canonical = normalizePredicate(predicate);
    if (cache.size < 10_000) cache.set(predicate, canonical);
  }
  return canonical;
}
