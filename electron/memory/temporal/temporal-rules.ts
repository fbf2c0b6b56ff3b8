/**
 * The temporal rules of docs/design.md as one pure function over a *slot*: the facts that compete for
 * the same place in time. A `one` slot is (subject, predicate); a `many` slot is
 * (subject, predicate, object). Input: every claim about the slot (the live facts, each read back as
 * a claim, plus what just arrived). Output: the slot's timeline as non-overlapping spans.
 *
 * Because the output depends only on the set of claims — never on their arrival order — any order
 * of the same observations yields the same facts (rule 3), and replaying the stored facts as claims
 * reproduces them.
 *
 * - Rule 2: every claim has a valid_at (callers default it to the episode's reference_time).
 * - Rule 3: claims are ordered by valid_at, then reference_time ("equal dates: the later episode
 *   wins"); a span is closed at the valid_at of the next span with another object. A claim older
 *   than what is stored simply sorts before it and comes out already closed.
 * - Same object, overlapping or touching: one span (duplicates merge, keeping every claim).
 */

import type { EndKind } from '../store/fact-rows';
import type { IsoTime } from '../../../shared/time';

export type { EndKind };

export interface Claim<P = unknown> {
  /** Identity of the object within the slot (entity id or normalised literal). */
  objectKey: string;
  validAt: IsoTime;
  referenceTime: IsoTime;
  /** A stated end (explicit) or one decided by a judgement against another slot's fact (judged). */
  end: { at: IsoTime; kind: 'explicit' | 'judged'; by: string | null } | null;
  /** Tie-breaker so that identical times still sort the same way in every run (content, not ids). */
  text: string;
  payload: P;
}

export interface Span<P = unknown> {
  objectKey: string;
  validAt: IsoTime;
  /** null: still true. */
  end: { at: IsoTime; kind: 'explicit' | 'judged'; by: string | null } | { at: IsoTime; kind: 'successor'; by: number } | null;
  /** Claims in rule order; the first one represents the span (its sentence, its reference_time). */
  claims: Claim<P>[];
}

export function compareClaims(a: Claim, b: Claim): number {
  return (
    cmp(a.validAt, b.validAt) ||
    cmp(a.referenceTime, b.referenceTime) ||
    cmp(a.text, b.text) ||
    cmp(a.objectKey, b.objectKey) ||
    cmp(a.end?.at ?? '\uffff', b.end?.at ?? '\uffff')
  );
}

/**
 * Rule 3 between two facts judged to contradict each other across slots: true when `earlier` became
 * true first (valid_at, then reference_time: equal dates, the later message wins), so it is the
 * one closed, at the other's valid_at. The same order resolveSlot applies within a slot.
 */
export function becameTrueFirst(earlier: Pick<Claim, 'validAt' | 'referenceTime'>, later: Pick<Claim, 'validAt' | 'referenceTime'>): boolean {
  return (cmp(earlier.validAt, later.validAt) || cmp(earlier.referenceTime, later.referenceTime)) <= 0;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Resolves one slot. `successor` ends refer to the index of the closing span in the result. */
export function resolveSlot<P>(claims: readonly Claim<P>[]): Span<P>[] {
  const sorted = [...claims].sort(compareClaims);
  const spans: Span<P>[] = [];
  let current: Span<P> | null = null;
  for (const claim of sorted) {
    if (claim.end !== null && claim.end.at < claim.validAt) {
      throw new RangeError(`claim ends (${claim.end.at}) before it starts (${claim.validAt})`);
    }
    if (current && current.objectKey === claim.objectKey && (current.end === null || claim.validAt <= current.end.at)) {
      current.claims.push(claim);
      current.end = mergeEnds(current.end, claim.end);
      continue;
    }
    if (current && current.objectKey !== claim.objectKey && (current.end === null || current.end.at > claim.validAt)) {
      current.end = { at: claim.validAt, kind: 'successor', by: spans.length };
    }
    current = { objectKey: claim.objectKey, validAt: claim.validAt, end: claim.end, claims: [claim] };
    spans.push(current);
  }
  return spans;
}

/** Within one span, a stated end beats an unknown one, and the latest stated end wins. */
function mergeEnds(a: Span['end'], b: Claim['end']): Span['end'] {
  if (b === null) return a;
  if (a === null) return b;
  return b.at > a.at ? b : a;
}
