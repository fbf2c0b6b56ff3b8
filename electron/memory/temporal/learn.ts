/**
 * What a message taught, applied to the store. The assistant (electron/assistant/ingestion/) reads
 * the message with the model and hands over a Learning: plain data naming entities and claims. Here,
 * inside the transaction that completes the job, entities are created or given aliases and each
 * claim is added to the write (resolved with its slot when the write commits: write-batch.ts) —
 * including rule 3 across slots for facts the model judged contradictory (becameTrueFirst decides
 * which one closes). What it reads (the facts named, an open fact to close) is the memory as it was
 * before this write.
 */
import type { Precision } from '../../../shared/memory-schema';
import type { EntityRef, Learning } from '../store/learning-record';
import type { EntityRecord } from '../../../shared/memory-schema';
import type { WriteContext } from './write-batch';
import { objectKeyOf, type FactRow } from '../store/fact-rows';
import type { NewClaim } from './slot-resolver';
import { becameTrueFirst } from './temporal-rules';
import type { IsoTime } from '../../../shared/time';

export type { EntityRef, LearnedFact, Learning } from '../store/learning-record';

export function applyLearning(ctx: WriteContext, learning: Learning): void {
  // A fact the assistant stated and this message confirmed cites both (unless the assistant's
  // message was forgotten while the model worked).
  const confirmed = learning.confirmedEpisodeId !== null && ctx.episodes.byId(learning.confirmedEpisodeId) ? learning.confirmedEpisodeId : null;
  for (const learned of learning.facts) {
    const subject = entityFor(ctx, learned.subject);
    const objectEntity = learned.object.kind === 'literal' ? null : entityFor(ctx, learned.object);
    let claim: NewClaim = {
      subjectId: subject.id,
      predicate: learned.predicate,
      objectId: objectEntity?.id ?? null,
      objectLiteral: learned.object.kind === 'literal' ? learned.object.value : null,
      fact: learned.fact,
      cardinality: learned.cardinality,
      validAt: learned.validAt,
      validPrecision: learned.validPrecision,
      referenceTime: learning.referenceTime,
      end: learned.end ? { at: learned.end, kind: 'explicit', by: null, precision: learned.endPrecision } : null,
      episodeIds: learned.fromAssistant && confirmed !== null ? [confirmed, learning.episodeId] : [learning.episodeId],
      origin: 'extracted',
    };
    if (learned.endsExisting !== null) {
      // If no open fact matches, the message only tells of something past whose start is unknown.
      closeEnded(ctx, claim, { at: learned.endsExisting, precision: learned.endPrecision }, learning.episodeId);
      continue;
    }
    const duplicate = learned.duplicateOf === null ? undefined : ctx.rows.byId(learned.duplicateOf);
    if (duplicate) {
      // Same fact in other words: it joins the stored fact's slot and merges there (both episodes kept).
      claim = { ...claim, predicate: duplicate.predicate, objectId: duplicate.object_id, objectLiteral: duplicate.object_literal, cardinality: duplicate.cardinality };
    }
    addWithContradictions(ctx, claim, learned.contradicts, learning.episodeId);
  }
}

function entityFor(ctx: WriteContext, ref: EntityRef): EntityRecord {
  if (ref.kind === 'user') return ctx.entities.findOrCreate('me');
  if (ref.kind === 'existing') {
    const entity = ctx.entities.byId(ref.id);
    if (entity) {
      if (ref.addAlias) ctx.entities.addAlias(ref.id, ref.name);
      return entity;
    }
    // Forgotten while the model worked: the name stands for a new entity again.
    return ctx.entities.find(ref.name) ?? ctx.entities.create({ name: ref.name, type: ref.type, aliases: [], summary: '' });
  }
  return ctx.entities.find(ref.name) ?? ctx.entities.create({ name: ref.name, type: ref.type, aliases: [], summary: '' });
}

/** Rule 3 across slots: of the claim and each contradicted fact, the one that became true first is closed at the other's valid_at. */
function addWithContradictions(ctx: WriteContext, claim: NewClaim, contradicts: string[], episodeId: string): void {
  const contradicted = contradicts.map((id) => ctx.rows.liveVersionOf(id)).filter((r) => r !== undefined);
  const asClaim = (r: FactRow) => ({ validAt: r.valid_at, referenceTime: r.reference_time });
  const closedByClaim = contradicted.filter((r) => becameTrueFirst(asClaim(r), claim));
  const closingClaim = contradicted.filter((r) => !becameTrueFirst(asClaim(r), claim)).sort((a, b) => (becameTrueFirst(asClaim(a), asClaim(b)) ? -1 : 1))[0];
  if (closingClaim && (claim.end === null || claim.end.at > closingClaim.valid_at)) {
    claim = { ...claim, end: { at: closingClaim.valid_at, kind: 'judged', by: closingClaim.id, precision: closingClaim.valid_at_precision } };
  }
  ctx.slots.add(claim);
  // The facts it closes end where it begins, closed by the fact that will hold it.
  for (const stored of closedByClaim) {
    if (stored.invalid_at !== null) continue;
    ctx.slots.add({ ...claimOf(stored, episodeId), end: { at: claim.validAt, kind: 'judged', by: { claim }, precision: claim.validPrecision } });
  }
}

function closeEnded(ctx: WriteContext, claim: NewClaim, { at, precision }: { at: IsoTime; precision: Precision }, episodeId: string): void {
  const key = objectKeyOf({ object_id: claim.objectId, object_literal: claim.objectLiteral });
  const open = ctx.rows.openInSlot(claim.subjectId, claim.predicate).find((row) => objectKeyOf(row) === key && row.valid_at < at);
  if (open) ctx.slots.add({ ...claimOf(open, episodeId), end: { at, kind: 'explicit', by: null, precision } });
}

/** A stored fact read back as a claim cited by one more episode. */
function claimOf(row: FactRow, episodeId: string): NewClaim {
  return {
    subjectId: row.subject_id,
    predicate: row.predicate,
    objectId: row.object_id,
    objectLiteral: row.object_literal,
    fact: row.fact,
    cardinality: row.cardinality,
    validAt: row.valid_at,
    validPrecision: row.valid_at_precision,
    referenceTime: row.reference_time,
    end: null,
    episodeIds: [episodeId],
    // This message's statement (that the fact ended), whoever wrote the fact: Undo takes it back
    // even when the fact was the user's edit (the version keeps its own origin: slot-resolver.ts).
    origin: 'extracted',
  };
}
