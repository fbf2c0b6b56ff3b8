/**
 * The claims of a document (format 3): the statements behind each live fact, as they were said.
 * They are what the rules resolve a slot from, so a store in use that re-resolves a joined slot, or
 * that later learns a message about it, decides as the exporting store would have. Checked before
 * anything is written, one at a time as the document is read (each fault names claims.N.field); a live fact the document gives no claim is
 * imported as one claim of itself (import-facts.ts), as versions 1 and 2 are.
 */
import type { ClaimRecord } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';
import type { NewClaimRow } from '../store/claim-rows';
import type { FactRow } from '../store/fact-rows';
import { objectKeyOf } from '../store/fact-rows';
import type { CheckedFact } from './checked-fact';
import type { StoreLookups } from './store-lookups';

function failClaim(i: number, field: string, message: string): never {
  throw new MemoryInputError(`claims.${i}.${field}: ${message}`, `claims.${i}.${field}`);
}

/** What a claim's references may name: the document's records (by id) or, failing that, the store's. */
export interface ClaimReferences {
  facts: ReadonlyMap<string, CheckedFact>;
  entities: ReadonlyMap<string, unknown>;
  episodes: ReadonlyMap<string, unknown>;
  exists: StoreLookups;
}

/**
 * Checks claim `c` (at index `i`) and gives the fact it stands behind. A claim must stand behind a
 * live fact of the document, about the same object; its end is stated whole or not at all, and after
 * its start (a judged end may meet it); its entities, episodes and ending fact must exist.
 */
export function checkClaim(c: ClaimRecord, i: number, refs: ClaimReferences): CheckedFact {
  const f = claimedFact(c, i, refs.facts);
  if (c.object_id !== null && !refs.entities.has(c.object_id) && !refs.exists.entity(c.object_id)) failClaim(i, 'object_id', `unknown entity ${c.object_id}`);
  if (objectKey(c) !== objectKey(f) || fold(c.object) !== fold(f.object)) failClaim(i, 'object', `${JSON.stringify(c.object)} is not the object of fact ${f.id} (${JSON.stringify(f.object)}): a claim says what its fact says`);
  if ((c.end_at === null) !== (c.end_precision === null)) failClaim(i, 'end_precision', c.end_at === null ? 'must be null when end_at is null' : 'is missing: end_at has a time');
  if ((c.end_at === null) !== (c.end_kind === null)) failClaim(i, 'end_kind', c.end_at === null ? 'must be null when end_at is null' : 'is missing: end_at has a time');
  if (c.end_at === null && c.end_by !== null) failClaim(i, 'end_by', 'must be null when end_at is null');
  // A judged end may meet the start: two values said for one instant, the later said wins.
  if (c.end_at !== null && (c.end_at < c.valid_at || (c.end_at === c.valid_at && c.end_kind === 'explicit'))) failClaim(i, 'end_at', `must be after valid_at (${c.valid_at})`);
  if (c.end_by !== null && !refs.facts.has(c.end_by) && !refs.exists.fact(c.end_by)) failClaim(i, 'end_by', `unknown fact ${c.end_by}`);
  for (let j = 0; j < c.episode_ids.length; j++) {
    const e = c.episode_ids[j]!;
    if (!refs.episodes.has(e) && !refs.exists.episode(e)) failClaim(i, `episode_ids.${j}`, `unknown episode ${e}`);
  }
  return f;
}

/**
 * The fact claim `c` (at index `i`) stands behind: a fact of the same document, held now (not an
 * old version). The one check of a claim's fact_id, made by the import (checkClaim) and by its
 * preview (import-preview.ts), so the preview refuses a file the import would, in the same words.
 * A claim whose fact the file lacks is most often a file cut down by hand: said in plain words, the
 * claim by its position ("claim 1") and its index ("claims[0]"), the field's path kept as the error's `where`.
 */
export function claimedFact<F extends { expired_at: string | null }>(c: Pick<ClaimRecord, 'fact_id'>, i: number, facts: ReadonlyMap<string, F>): F {
  const f = facts.get(c.fact_id);
  const claim = () => `claim ${(i + 1).toLocaleString('en-US')} (claims[${i}])`;
  if (f === undefined) throw new MemoryInputError(`${claim()} stands behind fact ${c.fact_id}, which this file does not hold: the file is incomplete or was edited`, `claims.${i}.fact_id`);
  if (f.expired_at !== null) throw new MemoryInputError(`${claim()} stands behind fact ${c.fact_id}, an old version of a fact (replaced at ${f.expired_at}): only the facts held now have claims, so the file was edited`, `claims.${i}.fact_id`);
  return f;
}

/** The object of a claim or fact in the document's own ids (claims and facts compare there). */
function objectKey(x: { object_id: string | null; object: string }): string {
  return objectKeyOf({ object_id: x.object_id, object_literal: x.object_id === null ? x.object : null });
}

function fold(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase();
}

/** Claim `c` as the row it is stored as behind fact row `row` (whose subject and predicate it takes). */
export function claimRow(c: ClaimRecord, row: Pick<FactRow, 'id' | 'subject_id' | 'predicate'>, entityId: (id: string) => string): NewClaimRow {
  const objectId = c.object_id === null ? null : entityId(c.object_id);
  return {
    fact_id: row.id,
    subject_id: row.subject_id,
    predicate: row.predicate,
    object_id: objectId,
    object_literal: objectId === null ? c.object : null,
    fact: c.fact,
    cardinality: c.cardinality,
    valid_at: c.valid_at,
    valid_at_precision: c.valid_at_precision,
    reference_time: c.reference_time,
    end_at: c.end_at,
    end_precision: c.end_precision,
    end_kind: c.end_kind,
    end_by: c.end_by,
    episode_ids: JSON.stringify(c.episode_ids),
    origin: c.origin,
  };
}
