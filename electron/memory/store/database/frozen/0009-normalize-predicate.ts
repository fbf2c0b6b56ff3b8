/**
 * FROZEN: used only by migration 0009_one_predicate_vocabulary. A copy of normalizePredicate
 * (store/normalize.ts) as it was when that step shipped. Never edit it, never import it from anywhere
 * else: the step must rename predicates tomorrow exactly as it did then, whatever the live
 * normalisation becomes.
 */
import type { Database } from 'better-sqlite3';

/** Lower snake case: "works at" → "works_at", NFKC-folded. */
function normalizePredicate0009(predicate: string): string {
  return predicate
    .normalize('NFKC')
    .toLowerCase()
    .trim()
    .replace(/[\s-]+/gu, '_')
    .replace(/_+/gu, '_');
}

/** Registers `tempora_predicate(p)` on the migrating connection (other values pass through). */
export function registerPredicate0009(db: Database): void {
  db.function('tempora_predicate', { deterministic: true }, (p: unknown) => (typeof p === 'string' ? normalizePredicate0009(p) : p));
}
