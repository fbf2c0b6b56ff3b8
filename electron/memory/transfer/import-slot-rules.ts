/**
 * The rules every slot the resolver writes keeps, checked for the live facts of an import
 * (import-checks.ts) over what it keeps of each fact (SlotFact): a document that breaks one is
 * refused with both facts named.
 */
import type { Cardinality, FactRecord } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';
import { objectKeyOf } from '../store/fact-rows';

/** What the slot rules read of a fact. */
export type SlotFact = Pick<FactRecord, 'id' | 'subject_id' | 'predicate' | 'object_id' | 'object' | 'cardinality' | 'valid_at' | 'invalid_at' | 'expired_at'>;

/** Sorts after every time: the end of a fact still true. */
const OPEN_END = '\uffff';

/**
 * The rules every slot the resolver writes keeps (temporal-rules.ts), for the document's live facts
 * (expired_at null): in a `one` slot (subject, predicate — `one` when any of its live facts is)
 * no two facts are true at the same instant, so at most one is open; in a `many` slot (subject,
 * predicate, object) the same holds for each object. Intervals are half-open: [t, t) holds no
 * instant (the rules write it for the earlier of two values said for the same time) and meets
 * nothing. A document that breaks a rule is refused with both facts named: loaded as it is, it
 * would hold what no store in use can. The live facts' indexes are sorted once (liveFactsBySlot);
 * object keys are built only for `many` slots with more than one fact.
 */
export function checkSlots(facts: readonly SlotFact[]): void {
  const order = liveFactsBySlot(facts);
  const live = order.length;
  const latestEnd = new Map<string, number>();
  for (let start = 0; start < live; ) {
    const first = facts[order[start]!]!;
    let end = start + 1;
    let one = first.cardinality === 'one';
    while (end < live) {
      const f = facts[order[end]!]!;
      if (f.subject_id !== first.subject_id || f.predicate !== first.predicate) break;
      if (f.cardinality === 'one') one = true;
      end++;
    }
    if (end - start > 1) {
      if (one) checkOneSlot(facts, order, start, end);
      else checkManySlot(facts, order, start, end, latestEnd);
    }
    start = end;
  }
}

/**
 * The indexes of the live facts ordered by subject, predicate, valid_at (then index). A counting sort
 * by subject (one map entry per subject, none per fact), then a sort of each subject's few facts:
 * several times faster than one comparison sort of them all.
 */
function liveFactsBySlot(facts: readonly SlotFact[]): Uint32Array {
  const subjects = new Map<string, number>();
  const subjectOf = new Int32Array(facts.length).fill(-1);
  let live = 0;
  for (let i = 0; i < facts.length; i++) {
    const f = facts[i]!;
    if (f.expired_at !== null) continue;
    let s = subjects.get(f.subject_id);
    if (s === undefined) subjects.set(f.subject_id, (s = subjects.size));
    subjectOf[i] = s;
    live++;
  }
  const starts = new Uint32Array(subjects.size + 1);
  for (let i = 0; i < facts.length; i++) if (subjectOf[i]! >= 0) starts[subjectOf[i]! + 1]!++;
  for (let s = 0; s < subjects.size; s++) starts[s + 1]! += starts[s]!;
  const next = starts.slice(0, subjects.size);
  const order = new Uint32Array(live);
  for (let i = 0; i < facts.length; i++) if (subjectOf[i]! >= 0) order[next[subjectOf[i]!]!++] = i;
  const bySlot = (x: number, y: number) => {
    const a = facts[x]!;
    const b = facts[y]!;
    return cmp(a.predicate, b.predicate) || cmp(a.valid_at, b.valid_at) || x - y;
  };
  for (let s = 0; s < subjects.size; s++) {
    const from = starts[s]!;
    const to = starts[s + 1]!;
    if (to - from > 16) {
      order.subarray(from, to).sort(bySlot);
      continue;
    }
    for (let k = from + 1; k < to; k++) {
      const x = order[k]!;
      let j = k;
      for (; j > from && bySlot(order[j - 1]!, x) > 0; j--) order[j] = order[j - 1]!;
      order[j] = x;
    }
  }
  return order;
}

/** The facts at order[start..end) (one `one` slot, by valid_at) never overlap. */
function checkOneSlot(facts: readonly SlotFact[], order: Uint32Array, start: number, end: number): void {
  let holder = -1; // the fact that ends latest so far
  let holderEnd = '';
  for (let k = start; k < end; k++) {
    const i = order[k]!;
    const f = facts[i]!;
    const fEnd = f.invalid_at ?? OPEN_END;
    if (fEnd === f.valid_at) continue;
    if (holder >= 0 && f.valid_at < holderEnd) overlap(facts, holder, i, 'one');
    if (holder < 0 || fEnd > holderEnd) {
      holder = i;
      holderEnd = fEnd;
    }
  }
}

/** The facts at order[start..end) (one subject and predicate of `many` facts, by valid_at) never overlap per object. */
function checkManySlot(facts: readonly SlotFact[], order: Uint32Array, start: number, end: number, latestEnd: Map<string, number>): void {
  latestEnd.clear();
  for (let k = start; k < end; k++) {
    const i = order[k]!;
    const f = facts[i]!;
    const fEnd = f.invalid_at ?? OPEN_END;
    if (fEnd === f.valid_at) continue;
    const key = objectKeyOf({ object_id: f.object_id, object_literal: f.object_id === null ? f.object : null });
    const holder = latestEnd.get(key);
    if (holder === undefined) {
      latestEnd.set(key, i);
      continue;
    }
    const holderEnd = facts[holder]!.invalid_at ?? OPEN_END;
    if (f.valid_at < holderEnd) overlap(facts, holder, i, 'many');
    if (fEnd > holderEnd) latestEnd.set(key, i);
  }
}

function overlap(facts: readonly SlotFact[], earlier: number, later: number, kind: Cardinality): never {
  const a = facts[earlier]!;
  const b = facts[later]!;
  const slot = kind === 'one' ? `subject ${a.subject_id}, predicate ${JSON.stringify(a.predicate)} (one value at a time)` : `subject ${a.subject_id}, predicate ${JSON.stringify(a.predicate)}, object ${JSON.stringify(a.object)}`;
  const what =
    a.invalid_at === null && b.invalid_at === null
      ? `are both still true`
      : `overlap in valid time ([${a.valid_at}, ${a.invalid_at ?? '…'}) and [${b.valid_at}, ${b.invalid_at ?? '…'}))`;
  throw new MemoryInputError(`facts.${later}: facts ${a.id} (facts.${earlier}) and ${b.id} (facts.${later}) of ${slot} ${what}; the temporal rules never store that`, `facts.${later}`);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
