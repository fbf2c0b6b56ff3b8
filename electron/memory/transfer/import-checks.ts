/**
 * The checks of an import, all made before anything is written: no id twice in the document, no
 * clash with the store unless replacing, and every reference (conversation, entity, episode, fact)
 * to the document or the store. Times that must be in order are in order. Each failure throws a
 * MemoryInputError naming the field.
 */
import type { ConversationRecord, EntityRecord, EpisodeRecord, FactRecord, MemoryExport } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';
import type { StoreLookups } from './store-lookups';

/** What the checks found that the writing steps use. */
export interface CheckedDocument {
  /** The document's facts by id. */
  facts: Map<string, FactRecord>;
  /** When each fact (by index) was first said: the earliest reference time of its episodes; undefined when it cites none. */
  referenceTimes: (string | undefined)[];
  /** Ids of the document that already exist in the store (to be replaced: without `replace` they are refused). */
  clashes: string[];
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
  return { facts: ids.facts, referenceTimes, clashes };
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
    referenceTimes[i] = earliestEpisodeTime(f, i, ids, exists);
    if (f.invalid_at !== null && f.invalid_at < f.valid_at) failFact(i, 'invalid_at', `is before valid_at (${f.valid_at})`);
    if (f.expired_at !== null && f.expired_at < f.created_at) failFact(i, 'expired_at', `is before created_at (${f.created_at})`);
    if (f.supersedes !== null && !ids.facts.has(f.supersedes) && !exists.fact(f.supersedes)) failFact(i, 'supersedes', `unknown fact ${f.supersedes}`);
    if (f.invalidated_by !== null && !ids.facts.has(f.invalidated_by) && !exists.fact(f.invalidated_by)) failFact(i, 'invalidated_by', `unknown fact ${f.invalidated_by}`);
  }
  return referenceTimes;
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
