/**
 * User corrections: edit and close. Neither changes a row in place: the live version is expired and
 * a new version (origin user_edit) supersedes it, then the slot is re-resolved so its intervals
 * stay consistent with the rules.
 */
import type { Precision } from '../../../shared/memory-schema';
import { isIsoUtc } from '../../../shared/time';
import type { ClaimRow, ClaimRows } from '../store/claim-rows';
import type { EntityStore } from '../store/entity-store';
import { objectKeyOf, type FactRows, type FactRow } from '../store/fact-rows';
import { MemoryInputError } from '../memory-errors';
import type { NewClaim, SlotChanges } from './slot-resolver';
import type { WriteBatch } from './write-batch';
import type { IsoTime } from '../../../shared/time';

/** Observe's and the API's limits (shared/observation-schema.ts, shared/api-contract.ts). */
const MAX_FACT = 4000;
const MAX_OBJECT = 2000;

export interface FactEdit {
  fact?: string;
  object?: string;
  valid_at?: IsoTime;
  /** How precisely the new valid_at was said (default: instant). */
  valid_at_precision?: Precision;
  /** null reopens a closed fact. */
  invalid_at?: IsoTime | null;
  /** How precisely the new invalid_at was said (default: instant). */
  invalid_at_precision?: Precision;
}

/** The fields of an edit, in the order an error about the whole edit names the first one given. */
const EDIT_FIELDS = ['fact', 'object', 'valid_at', 'valid_at_precision', 'invalid_at', 'invalid_at_precision'] as const satisfies readonly (keyof FactEdit)[];

export interface EditContext {
  rows: FactRows;
  claims: ClaimRows;
  entities: EntityStore;
  slots: WriteBatch;
}

/**
 * Adds the edit of a fact to the write; `after` says which live version holds the edited fact once
 * the write has resolved (the write's changes given).
 */
export function editFact(ctx: EditContext, factId: string, edit: FactEdit): { after(changes: SlotChanges): string } {
  const row = liveRow(ctx.rows, factId);
  // Stored times are canonical (the API and the CLI read what people type into them first): any
  // other text would sort wrongly and make an export that does not import.
  for (const field of ['valid_at', 'invalid_at'] as const) {
    const value = edit[field];
    if (typeof value === 'string' && !isIsoUtc(value)) throw new MemoryInputError(`${field} must be an ISO-8601 UTC time with milliseconds, like 2026-09-01T01:00:00.000Z (got ${JSON.stringify(value)})`, field);
  }
  const validAt = edit.valid_at ?? row.valid_at;
  const validPrecision = edit.valid_at === undefined ? row.valid_at_precision : (edit.valid_at_precision ?? 'instant');
  const end = endAfterEdit(ctx.claims, row, edit);
  if (end !== null && end.at <= validAt) {
    throw new MemoryInputError(`invalid_at (${end.at}) must be after valid_at (${validAt})`, 'invalid_at');
  }
  let objectId = row.object_id;
  let objectLiteral = row.object_literal;
  if (edit.object !== undefined) {
    if (edit.object.trim() === '') throw new MemoryInputError('object must not be empty', 'object');
    // The same caps as observe and the API: a longer one would make an export that does not import.
    if (edit.object.trim().length > MAX_OBJECT) throw new MemoryInputError(`object must be at most ${MAX_OBJECT} characters`, 'object');
    if (row.object_id !== null) objectId = ctx.entities.findOrCreate(edit.object).id;
    else objectLiteral = edit.object.trim();
  }
  const factText = edit.fact?.trim() ?? row.fact;
  if (factText === '') throw new MemoryInputError('fact must not be empty', 'fact');
  if (factText.length > MAX_FACT) throw new MemoryInputError(`fact must be at most ${MAX_FACT} characters`, 'fact');
  const endBefore = endAfterEdit(ctx.claims, row, {});
  const unchanged =
    factText === row.fact &&
    objectId === row.object_id &&
    objectLiteral === row.object_literal &&
    validAt === row.valid_at &&
    validPrecision === row.valid_at_precision &&
    (end?.at ?? null) === (endBefore?.at ?? null) &&
    (end?.precision ?? null) === (endBefore?.precision ?? null);
  if (unchanged && row.end_kind === 'successor' && edit.invalid_at !== undefined) {
    throw new MemoryInputError(endsAtSuccessor(ctx.rows, row, edit.invalid_at === null ? 'it cannot be reopened' : 'that end is already kept for it'), 'invalid_at');
  }
  // Named by the first field the caller gave (or the fact's id, when it gave none).
  if (unchanged) throw new MemoryInputError('the edit changes nothing', EDIT_FIELDS.find((field) => edit[field] !== undefined) ?? 'id');
  const claim: NewClaim = {
    subjectId: row.subject_id,
    predicate: row.predicate,
    objectId,
    objectLiteral,
    fact: factText,
    cardinality: row.cardinality,
    validAt,
    validPrecision,
    referenceTime: row.reference_time,
    end,
    episodeIds: ctx.rows.episodesOf(row.id),  // the edit keeps the provenance of what it corrects
    origin: 'user_edit',
    replaces: row,
  };
  // An edit that moves a `many` fact to another object also re-resolves the object it left.
  ctx.slots.add(claim);
  return {
    // An edit that makes the fact touch or overlap another fact of the same object merges it into
    // that one (rule: one span), whose chain goes on: the edited fact is then the merged version.
    after(changes) {
      const live = ctx.rows.liveVersionOf(row.id) ?? mergedInto(ctx.rows, changes, claim);
      if (!live) throw new Error(`internal: edited fact ${factId} has no live version`);
      return live.id;
    },
  };
}

export function closeFact(ctx: EditContext, factId: string, at: IsoTime, precision: Precision = 'instant'): { after(changes: SlotChanges): string } {
  return editFact(ctx, factId, { invalid_at: at, invalid_at_precision: precision });
}

/** The version written by this edit that took in the edited claim (same object, covering its valid_at). */
function mergedInto(rows: FactRows, changes: SlotChanges, claim: NewClaim): FactRow | undefined {
  const key = objectKeyOf({ object_id: claim.objectId, object_literal: claim.objectLiteral });
  return changes.inserted
    .map((id) => rows.byId(id))
    .find((r) => r !== undefined && r.expired_at === null && objectKeyOf(r) === key && r.valid_at <= claim.validAt && (r.invalid_at === null || claim.validAt <= r.invalid_at));
}

/** The live version for an id of any version of the chain, or a clear error. */
export function liveRow(rows: FactRows, factId: string): FactRow {
  const row = rows.liveVersionOf(factId);
  if (!row) {
    throw new MemoryInputError(rows.byId(factId) ? `fact ${factId} has no live version (it was merged away)` : `no fact with id ${factId}`, 'fact_id');
  }
  return row;
}

/**
 * A one-valued fact closed by the value after it ends where that one begins: an end past that is
 * kept in its claim (it shows if that value goes) but moves nothing; reopening it changes nothing.
 * Said naming the fact that closes it — the user moves that fact's start, or forgets it, instead.
 */
function endsAtSuccessor(rows: FactRows, row: FactRow, asked: string): string {
  const next = row.invalidated_by === null ? undefined : rows.liveVersionOf(row.invalidated_by);
  const after = next ? `${next.id} (${JSON.stringify(next.fact)})` : 'the fact after it';
  return `${row.id} ends where ${after} begins, and ${asked}: change when that fact began, or forget it`;
}

/**
 * The end the edited claim carries: the one given, else the fact's own. A fact closed by the value
 * after it keeps the latest end its claims stated (rule: mergeEnds), which shows if that value goes.
 */
function endAfterEdit(claims: ClaimRows, row: FactRow, edit: FactEdit): NewClaim['end'] {
  if (edit.invalid_at === null) return null;
  if (edit.invalid_at !== undefined) return { at: edit.invalid_at, kind: 'explicit', by: null, precision: edit.invalid_at_precision ?? 'instant' };
  if (row.invalid_at !== null && (row.end_kind === 'explicit' || row.end_kind === 'judged')) {
    return { at: row.invalid_at, kind: row.end_kind, by: row.invalidated_by, precision: row.invalid_at_precision ?? 'instant' };
  }
  if (row.end_kind !== 'successor') return null; // open
  let kept: ClaimRow | undefined;
  for (const c of claims.ofFact(row.id)) if (c.end_at !== null && (kept === undefined || c.end_at > kept.end_at!)) kept = c;
  return kept ? { at: kept.end_at!, kind: kept.end_kind ?? 'explicit', by: kept.end_by, precision: kept.end_precision ?? 'instant' } : null;
}

/**
 * The end a live fact's statements give past its own end, which the next value's start holds back
 * (shared/end-held-back.ts): within one value the latest stated end wins (temporal-rules), so it is
 * the latest; null when the fact is open, ends where it says, or is not closed by a next value.
 */
export function keptEndOf(
  fact: { expired_at: string | null; invalid_at: string | null; invalidated_by: string | null },
  claims: readonly Pick<ClaimRow, 'end_at' | 'end_precision'>[],
): { at: IsoTime; precision: Precision } | null {
  if (fact.expired_at !== null || fact.invalid_at === null || fact.invalidated_by === null) return null;
  let latest: Pick<ClaimRow, 'end_at' | 'end_precision'> | null = null;
  for (const claim of claims) if (claim.end_at !== null && (latest === null || claim.end_at > latest.end_at!)) latest = claim;
  if (latest === null || latest.end_at! <= fact.invalid_at) return null;
  return { at: latest.end_at!, precision: latest.end_precision ?? 'instant' };
}
