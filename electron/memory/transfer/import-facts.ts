/**
 * Writing the document's facts: each fact version becomes a row with the internal columns derived
 * (lineage, end kind, reference time; fact-lineage.ts), and each live one the claims behind it —
 * the document's own (format 3, import-claims.ts), or else one claim of itself. The facts come one at
 * a time from the import's second pass; what their derivation needs of the others was kept by the
 * first (checked-fact.ts).
 */
import type { ClaimRecord, FactRecord } from '../../../shared/memory-schema';
import type { ClaimRows, NewClaimRow } from '../store/claim-rows';
import type { FactRow, FactRows } from '../store/fact-rows';
import type { EndKind } from '../temporal/temporal-rules';
import { endKindOf, lineageResolver } from './fact-lineage';
import { claimRow } from './import-claims';
import type { CheckedFact } from './checked-fact';
import type { IsoTime } from '../../../shared/time';

/**
 * Writes the facts as the second pass reads them, in document order (the bulk-load worker counts on
 * rowid = index + 1), each with the claim of itself when the document gives it none; the document's
 * own claims are written as they are read (claim()). `entityId`: the stored id of a document entity.
 */
/**
 * Which of the document's claim ids an import keeps: `all` into an empty store; `free` (those no
 * stored claim has) into a store in use that has never synced; `none` once it syncs (it may have
 * sent a removed claim's id as taken back, and another device would then ignore it coming again).
 */
export type ClaimIdsKept = 'all' | 'free' | 'none';

/**
 * `joinedOthers`: the document's entities joined to another stored entity by name (not the user, whom
 * every memory — and sync — takes for its own).
 */
export function factWriter(rows: FactRows, claims: ClaimRows, facts: ReadonlyMap<string, CheckedFact>, entityId: (id: string) => string, keepClaimIds: ClaimIdsKept, joinedOthers: ReadonlySet<string> = new Set()) {
  const lineage = lineageResolver(facts, rows);
  return {
    /** `links`: link the fact to its episodes here (else the bulk-load worker does). */
    fact(f: FactRecord, links: boolean): void {
      const kept = facts.get(f.id)!;
      const row = factRow(f, lineage(f.id), entityId, kept.endKind ?? endKindOf(f, facts, rows), kept.headTime ?? kept.firstSaid ?? f.valid_at);
      rows.insert(row, links ? f.episode_ids : NO_LINKS);
      if (f.expired_at === null && !kept.claimed) claims.insert(claimOf(f, row));
    },
    /**
     * A claim of the document, behind its (live) fact written before it. Its id is kept where
     * `keepClaimIds` allows: two devices that import the same document then hold the same statement,
     * so a forget or an edit on one reaches the other's copy through sync. Else a new one is drawn —
     * also for a claim about an entity joined to another of this memory's by name (`joinedOthers`):
     * it no longer says what the same id says on a device that did not join it, and devices holding
     * one id for two statements would resolve different facts from it.
     */
    claim(c: ClaimRecord): void {
      const f = facts.get(c.fact_id)!;
      const row = claimRow(c, { id: f.id, subject_id: entityId(f.subject_id), predicate: f.predicate }, entityId);
      const asInDocument = !joinedOthers.has(f.subject_id) && (c.object_id === null || !joinedOthers.has(c.object_id));
      const keep = c.uid !== undefined && asInDocument && (keepClaimIds === 'all' || (keepClaimIds === 'free' && !claims.hasSyncId(c.uid)));
      claims.insert(keep ? { ...row, sync_id: c.uid } : row);
    },
  };
}

/** No episode links written with the fact (the bulk-load worker writes them). */
const NO_LINKS: readonly string[] = [];

function factRow(f: FactRecord, lineageId: string, entityId: (id: string) => string, endKind: EndKind, referenceTime: IsoTime): FactRow {
  return {
    id: f.id,
    lineage_id: lineageId,
    subject_id: entityId(f.subject_id),
    predicate: f.predicate,
    object_id: f.object_id === null ? null : entityId(f.object_id),
    object_literal: f.object_id === null ? f.object : null,
    fact: f.fact,
    cardinality: f.cardinality,
    valid_at: f.valid_at,
    valid_at_precision: f.valid_at_precision,
    invalid_at: f.invalid_at,
    invalid_at_precision: f.invalid_at_precision,
    end_kind: endKind,
    reference_time: referenceTime,
    created_at: f.created_at,
    expired_at: f.expired_at,
    invalidated_by: f.invalidated_by,
    supersedes: f.supersedes,
    origin: f.origin,
  };
}

/** The claim behind live fact `f`, written as `row`: an end it states (explicit, judged) is the claim's. */
function claimOf(f: FactRecord, row: FactRow): NewClaimRow {
  const stated = row.end_kind === 'explicit' || row.end_kind === 'judged';
  return {
    fact_id: f.id,
    subject_id: row.subject_id,
    predicate: f.predicate,
    object_id: row.object_id,
    object_literal: row.object_literal,
    fact: f.fact,
    cardinality: f.cardinality,
    valid_at: f.valid_at,
    valid_at_precision: f.valid_at_precision,
    reference_time: row.reference_time,
    end_at: stated ? f.invalid_at : null,
    end_precision: stated ? f.invalid_at_precision : null,
    end_kind: stated ? (row.end_kind as 'explicit' | 'judged') : null,
    end_by: stated ? f.invalidated_by : null,
    episode_ids: JSON.stringify(f.episode_ids),
    origin: f.origin,
  };
}
