/**
 * The checks of an import, all made before anything is written: no id twice in the document, no
 * clash with the store unless replacing, and every reference (conversation, entity, episode, fact)
 * to the document or the store. Times that must be in order are in order. Each failure throws a
 * MemoryInputError naming the field. The live facts keep the rules the slot resolver keeps
 * (checkSlots), so a document gives the same facts whether it goes into an empty store (loaded as
 * it is) or into one in use (where joined slots are re-resolved).
 */
import type { Cardinality, ClaimRecord, ConversationRecord, EntityRecord, EpisodeRecord, FactRecord, MemoryExport } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';
import { objectKeyOf } from '../store/fact-rows';
import { checkClaims } from './import-claims';
import type { StoreLookups } from './store-lookups';

/** What the checks found that the writing steps use. */
export interface CheckedDocument {
  /** The document's facts by id. */
  facts: Map<string, FactRecord>;
  /** When each fact (by index) was first said: the earliest reference time of its episodes; undefined when it cites none. */
  referenceTimes: (string | undefined)[];
  /** Ids of the document that already exist in the store (to be replaced: without `replace` they are refused). */
  clashes: string[];
  /** The document's claims by the fact they stand behind (import-claims.ts). */
  claims: Map<string, ClaimRecord[]>;
}

/** The document's records by id, to resolve references within it. */
interface DocumentIds {
  conversations: Map<string, ConversationRecord>;
  episodes: Map<string, EpisodeRecord>;
  entities: Map<string, EntityRecord>;
  facts: Map<string, FactRecord>;
}

/** Checks the whole document against itself and the store; `bulk`: the store holds no facts and no episodes. */
export function checkDocument(doc: MemoryExport, exists: StoreLookups, bulk: boolean, replace: boolean): CheckedDocument {
  const ids: DocumentIds = {
    conversations: byUniqueId(doc.conversations, 'conversations'),
    episodes: byUniqueId(doc.episodes, 'episodes'),
    entities: byUniqueId(doc.entities, 'entities'),
    facts: byUniqueId(doc.facts, 'facts'),
  };
  const clashes = findClashes(doc, exists, bulk);
  if (clashes.length && !replace) {
    throw new MemoryInputError(`${clashes.length} id(s) already exist in this memory (first: ${clashes[0]}); use --replace to overwrite them`, 'ids');
  }
  checkEpisodes(doc.episodes, ids, exists);
  const referenceTimes = checkFacts(doc.facts, ids, exists);
  checkSlots(doc.facts);
  const claims = checkClaims(doc.claims, { facts: ids.facts, entities: new Set(ids.entities.keys()), episodes: new Set(ids.episodes.keys()), exists });
  return { facts: ids.facts, referenceTimes, clashes, claims };
}

/** The items by id; a repeated id is refused with its place. */
function byUniqueId<T extends { id: string }>(items: T[], where: string): Map<string, T> {
  const byId = new Map<string, T>();
  for (const item of items) byId.set(item.id, item);
  if (byId.size !== items.length) {
    const seen = new Set<string>();
    items.forEach((item, i) => {
      if (seen.has(item.id)) throw new MemoryInputError(`${where}.${i}.id: duplicate id ${item.id}`, `${where}.${i}.id`);
      seen.add(item.id);
    });
  }
  return byId;
}

/** Ids of the document already in the store. Into a store without facts and episodes, none of those can clash. */
function findClashes(doc: MemoryExport, exists: StoreLookups, bulk: boolean): string[] {
  const clashes: string[] = [];
  for (const c of doc.conversations) if (exists.conversation(c.id)) clashes.push(c.id);
  for (const e of doc.entities) if (exists.entity(e.id)) clashes.push(e.id);
  if (!bulk) {
    for (const e of doc.episodes) if (exists.episode(e.id)) clashes.push(e.id);
    for (const f of doc.facts) if (exists.fact(f.id)) clashes.push(f.id);
  }
  return clashes;
}

function checkEpisodes(episodes: EpisodeRecord[], ids: DocumentIds, exists: StoreLookups): void {
  episodes.forEach((e, i) => {
    if (e.conversation_id !== null && !ids.conversations.has(e.conversation_id) && !exists.conversation(e.conversation_id)) {
      throw new MemoryInputError(`episodes.${i}.conversation_id: unknown conversation ${e.conversation_id}`, `episodes.${i}.conversation_id`);
    }
  });
}

function failFact(i: number, field: string, message: string): never {
  throw new MemoryInputError(`facts.${i}.${field}: ${message}`, `facts.${i}.${field}`);
}

/**
 * A plain loop with messages built only on failure: it runs for every fact of a large import.
 * It also finds when each fact was first said (returned by index).
 */
function checkFacts(facts: FactRecord[], ids: DocumentIds, exists: StoreLookups): (string | undefined)[] {
  const referenceTimes: (string | undefined)[] = new Array(facts.length);
  for (let i = 0; i < facts.length; i++) {
    const f = facts[i]!;
    if (!ids.entities.has(f.subject_id) && !exists.entity(f.subject_id)) failFact(i, 'subject_id', `unknown entity ${f.subject_id}`);
    if (f.object_id !== null && !ids.entities.has(f.object_id) && !exists.entity(f.object_id)) failFact(i, 'object_id', `unknown entity ${f.object_id}`);
    checkNamed(f.subject, ids.entities.get(f.subject_id), i, 'subject', 'subject_id');
    if (f.object_id !== null) checkNamed(f.object, ids.entities.get(f.object_id), i, 'object', 'object_id');
    referenceTimes[i] = earliestEpisodeTime(f, i, ids, exists);
    if (f.invalid_at !== null && f.invalid_at < f.valid_at) failFact(i, 'invalid_at', `is before valid_at (${f.valid_at})`);
    // The rules' own rule (observe refuses the same): a stated end comes after the start. Only a fact
    // closed by another (invalidated_by) may end where it starts: two values said for one instant.
    // History is kept as it was (a forgotten closer leaves no link behind: forget.ts).
    if (f.expired_at === null && f.invalid_at === f.valid_at && f.invalidated_by === null) failFact(i, 'invalid_at', `must be after valid_at (${f.valid_at}) unless another fact closed it (invalidated_by)`);
    if ((f.invalid_at === null) !== (f.invalid_at_precision === null)) failFact(i, 'invalid_at_precision', f.invalid_at === null ? 'must be null when invalid_at is null' : 'is missing: invalid_at has a time');
    if (f.expired_at !== null && f.expired_at < f.created_at) failFact(i, 'expired_at', `is before created_at (${f.created_at})`);
    if (f.supersedes !== null && !ids.facts.has(f.supersedes) && !exists.fact(f.supersedes)) failFact(i, 'supersedes', `unknown fact ${f.supersedes}`);
    if (f.invalidated_by !== null && !ids.facts.has(f.invalidated_by) && !exists.fact(f.invalidated_by)) failFact(i, 'invalidated_by', `unknown fact ${f.invalidated_by}`);
  }
  return referenceTimes;
}

/**
 * A fact's `subject` (and `object`) is the display name of its entity, written by the export; the id
 * is what is imported. A hand edit that changes one and not the other would import a fact saying
 * something else than it reads, so the name must be the entity's name or one of its aliases in the
 * document (folded: case and width). An entity only in the store is not checked: it may have been
 * renamed since the document was written.
 */
function checkNamed(name: string, entity: EntityRecord | undefined, i: number, field: 'subject' | 'object', idField: string): void {
  if (entity === undefined || name === entity.name) return;
  const folded = fold(name);
  if (fold(entity.name) === folded || entity.aliases.some((alias) => fold(alias) === folded)) return;
  failFact(i, field, `${JSON.stringify(name)} is not the name of ${idField} ${entity.id} (its name is ${JSON.stringify(entity.name)}); change ${field} or ${idField} so they agree`);
}

function fold(text: string): string {
  return text.normalize('NFKC').trim().toLowerCase();
}

/** The earliest reference time of the episodes fact `f` (at index `i`) cites; an unknown episode is refused. */
function earliestEpisodeTime(f: FactRecord, i: number, ids: DocumentIds, exists: StoreLookups): string | undefined {
  let earliest: string | undefined;
  for (let j = 0; j < f.episode_ids.length; j++) {
    const e = f.episode_ids[j]!;
    const t = ids.episodes.get(e)?.reference_time ?? exists.episodeTime(e);
    if (t === undefined) failFact(i, `episode_ids.${j}`, `unknown episode ${e}`);
    else if (earliest === undefined || t < earliest) earliest = t;
  }
  return earliest;
}

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
function checkSlots(facts: FactRecord[]): void {
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
function liveFactsBySlot(facts: FactRecord[]): Uint32Array {
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
function checkOneSlot(facts: FactRecord[], order: Uint32Array, start: number, end: number): void {
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
function checkManySlot(facts: FactRecord[], order: Uint32Array, start: number, end: number, latestEnd: Map<string, number>): void {
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

function overlap(facts: FactRecord[], earlier: number, later: number, kind: Cardinality): never {
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
