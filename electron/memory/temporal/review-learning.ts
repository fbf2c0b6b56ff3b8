/**
 * Deciding on a learning that waited for review (store/pending-reviews.ts): what it proposes, in
 * words a person reads, and the learning as approved — some facts left out, a fact's object, text,
 * start or end corrected. Applying it is applyLearning's job (learn.ts), at approval: the rules give
 * the same answers whatever order claims arrive in, so a fact approved next week is placed exactly
 * as it would have been when its message was learned.
 */
import type { Precision } from '../../../shared/memory-schema';
import type { ProposedFact } from '../../../shared/review-contract';
import { MemoryInputError } from '../memory-errors';
import type { StoreContext } from '../store/store-context';
import type { EntityRef, LearnedFact, Learning } from './learn';
import type { IsoTime } from '../../../shared/time';

/** A correction to proposed fact `index`; times already read (in the user's zone) by the caller. */
export interface ApprovedEdit {
  index: number;
  keep?: boolean;
  object?: string;
  fact?: string;
  validAt?: { at: IsoTime; precision: Precision };
  /** null: no end. */
  end?: { at: IsoTime; precision: Precision } | null;
}

function nameOf(ctx: Pick<StoreContext, 'entities'>, ref: EntityRef): string {
  if (ref.kind === 'user') return ctx.entities.find('me')?.name ?? 'me';
  if (ref.kind === 'existing') return ctx.entities.byId(ref.id)?.name ?? ref.name;
  return ref.name;
}

export function proposedFacts(ctx: Pick<StoreContext, 'entities'>, learning: Learning): ProposedFact[] {
  return learning.facts.map((f, index) => ({
    index,
    subject: nameOf(ctx, f.subject),
    predicate: f.predicate,
    object: f.object.kind === 'literal' ? f.object.value : nameOf(ctx, f.object),
    literal: f.object.kind === 'literal',
    fact: f.fact,
    cardinality: f.cardinality,
    validAt: f.validAt,
    validPrecision: f.validPrecision,
    end: f.end,
    endPrecision: f.endPrecision,
    endsExisting: f.endsExisting,
    duplicateOf: f.duplicateOf,
    contradicts: f.contradicts,
  }));
}

function fail(i: number, field: string, message: string): never {
  throw new MemoryInputError(`edits.${i}.${field}: ${message}`, `edits.${i}.${field}`);
}

/** The learning with the edits made; each fault names edits.N.field and nothing is applied. */
export function approvedLearning(learning: Learning, edits: readonly ApprovedEdit[]): Learning {
  const byIndex = new Map<number, ApprovedEdit>();
  edits.forEach((edit, i) => {
    if (edit.index >= learning.facts.length) fail(i, 'index', `there is no proposed fact ${edit.index} (this message proposes ${learning.facts.length})`);
    if (byIndex.has(edit.index)) fail(i, 'index', `fact ${edit.index} is edited twice`);
    byIndex.set(edit.index, edit);
  });
  const facts: LearnedFact[] = [];
  learning.facts.forEach((f, index) => {
    const edit = byIndex.get(index);
    if (!edit) return void facts.push(f);
    if (edit.keep === false) return;
    const i = edits.indexOf(edit);
    const validAt = edit.validAt?.at ?? f.validAt;
    const end = edit.end === undefined ? (f.end === null ? null : { at: f.end, precision: f.endPrecision }) : edit.end;
    if (end !== null && end.at <= validAt) fail(i, edit.end === undefined ? 'validAt' : 'end', `the end (${end.at}) must be after the start (${validAt})`);
    const object: LearnedFact['object'] =
      edit.object === undefined ? f.object : f.object.kind === 'literal' ? { kind: 'literal', value: edit.object } : { kind: 'new', name: edit.object, type: f.object.kind === 'user' ? 'user' : f.object.type };
    facts.push({
      ...f,
      object,
      fact: edit.fact ?? f.fact,
      validAt,
      validPrecision: edit.validAt?.precision ?? f.validPrecision,
      end: end?.at ?? null,
      endPrecision: end?.precision ?? f.endPrecision,
      // A corrected fact is the user's word: the model's judgements about the old one no longer hold.
      duplicateOf: edit.object === undefined ? f.duplicateOf : null,
    });
  });
  return { ...learning, facts };
}
