/**
 * FROZEN: used only by migration 0010_claims_by_object. A copy of objectKeyOf (store/fact-rows.ts)
 * as it was when that step shipped. Never edit it, never import it from anywhere else: the step must
 * fill claims.object_key tomorrow exactly as it did then. (If the live key ever changes, a new step
 * recomputes the column; this one stays.)
 */
import type { Database } from 'better-sqlite3';

/** The entity id, or the literal's NFKC-folded, trimmed, lower-case text. */
function objectKey0010(objectId: string | null, objectLiteral: string | null): string {
  return objectId !== null ? `entity:${objectId}` : `literal:${(objectLiteral ?? '').normalize('NFKC').trim().toLowerCase()}`;
}

/** Registers `tempora_object_key(object_id, object_literal)` on the migrating connection. */
export function registerObjectKey0010(db: Database): void {
  db.function('tempora_object_key', { deterministic: true }, (id: unknown, literal: unknown) =>
    objectKey0010(typeof id === 'string' ? id : null, typeof literal === 'string' ? literal : null),
  );
}
