/**
 * Writing the document's facts: each fact version becomes a row with the internal columns derived
 * (lineage, end kind, reference time; fact-lineage.ts), and each live one the claims behind it —
 * the document's own (format 3, import-claims.ts), or else one claim of itself.
 */
import type { FactRecord } from '../../../shared/memory-schema';
import type { ClaimRows, NewClaimRow } from '../store/claim-rows';
import type { FactRow, FactRows } from '../store/fact-rows';
import type { EndKind } from '../temporal/temporal-rules';
import { endKindOf, lineageResolver } from './fact-lineage';
import { claimRow } from './import-claims';
import type { CheckedDocument } from './import-checks';

/** No episode links written with the fact (the bulk-load worker writes them). */
const NO_LINKS: readonly string[] = [];

/**
 * Inserts every fact and the claims of the live ones, in document order (the bulk-load worker counts
 * on rowid = index + 1). `entityId`: the stored id of a document entity; `links`: link each fact to
 * its episodes here.
 */
export function writeFacts(rows: FactRows, claims: ClaimRows, checked: CheckedDocument, facts: FactRecord[], entityId: (id: string) => string, links: boolean): void {
  const lineage = lineageResolver(checked.facts, rows);
  const { referenceTimes } = checked;
  for (let i = 0; i < facts.length; i++) {
    const f = facts[i]!;
    const lineageId = lineage(f.id);
    const stated = f.expired_at === null ? checked.claims.get(f.id) : undefined;
    // The fact's reference time is its head claim's (slot-resolver.ts): the claim that says its start.
    const head = stated?.find((c) => c.valid_at === f.valid_at);
    // A live fact's own claims say how it ended when one of them ends where it does (a judged end
    // at the instant a value of its slot begins is not that value's succession).
    const ended = f.invalid_at === null ? undefined : stated?.find((c) => c.end_at === f.invalid_at && c.end_kind !== null)?.end_kind;
    const row = factRow(f, lineageId, entityId, ended ?? endKindOf(f, checked.facts, rows), head?.reference_time ?? referenceTimes[i] ?? f.valid_at);
    rows.insert(row, links ? f.episode_ids : NO_LINKS);
    if (f.expired_at !== null) continue;
    if (stated) for (const c of stated) claims.insert(claimRow(c, row, entityId));
    else claims.insert(claimOf(f, row));
  }
}

function factRow(f: FactRecord, lineageId: string, entityId: (id: string) => string, endKind: EndKind, referenceTime: string): FactRow {
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
