/**
 * The checks of an import, all made before anything is written, in one pass over the document's
 * records (export-records.ts) that keeps only what the checks and the writing need — the few
 * conversations and entities whole, an episode's time by its id, and of each fact what its rules
 * read (CheckedFact), never its text: no id twice in the document, no clash with the store unless
 * replacing, and every reference (conversation, entity, episode, fact) to the document or the store.
 * Times that must be in order are in order. Each failure throws a MemoryInputError naming the field.
 * The live facts keep the rules the slot resolver keeps (import-slot-rules.ts), so a document gives
 * the same facts whether it goes into an empty store (loaded as it is) or into one in use (where
 * joined slots are re-resolved).
 */
import type { ClaimRecord, ConversationRecord, EntityRecord, EpisodeRecord, FactRecord } from '../../../shared/memory-schema';
import { plural } from '../../../shared/count-words';
import { MemoryInputError } from '../memory-errors';
import { canonicalPredicate } from './canonical-predicates';
import { checkClaim } from './import-claims';
import type { RecordVisitor } from './export-records';
import type { CheckedFact } from './checked-fact';
import { checkSlots } from './import-slot-rules';
import type { StoreLookups } from './store-lookups';
import type { IsoTime } from '../../../shared/time';

/** What the checks found that the writing pass uses. */
export interface ImportPlan {
  conversations: ConversationRecord[];
  entities: EntityRecord[];
  /** The document's facts by id. */
  facts: Map<string, CheckedFact>;
  /** Ids of the document that already exist in the store (to be replaced: without `replace` they are refused). */
  clashes: string[];
  counts: { conversations: number; episodes: number; entities: number; facts: number; claims: number };
  /** Some episode says where it came from (written after the rows: import-provenance.ts). */
  episodeSources: boolean;
  /** Some episode was still to be learned where it was exported, or cancelled (queued after the rows: import-provenance.ts). */
  episodesToLearn: boolean;
}

function failFact(i: number, field: string, message: string): never {
  throw new MemoryInputError(`facts.${i}.${field}: ${message}`, `facts.${i}.${field}`);
}

function duplicate(where: string, i: number, id: string): never {
  throw new MemoryInputError(`${where}.${i}.id: duplicate id ${id}`, `${where}.${i}.id`);
}

/**
 * Checks records as they are read (the visitor of the first pass); finish() makes the checks that
 * need the whole document. `bulk`: the store holds no facts and no episodes, so none of those can clash.
 */
export class ImportChecker implements RecordVisitor {
  private readonly conversations = new Map<string, ConversationRecord>();
  /** reference_time of each episode of the document, by id. */
  private readonly episodeTimes = new Map<string, IsoTime>();
  private readonly entities = new Map<string, EntityRecord>();
  private readonly facts = new Map<string, CheckedFact>();
  /** In document order, for the slot rules. */
  private readonly factList: CheckedFact[] = [];
  /** A fact's supersedes or invalidated_by not found when it was read: checked once every fact is. */
  private readonly later: { i: number; field: 'supersedes' | 'invalidated_by'; id: string }[] = [];
  private readonly clashes: string[] = [];
  private claims = 0;
  /** The claims' ids (uid) seen so far: each claim of a document has its own. */
  private readonly claimIds = new Set<string>();
  private episodeSources = false;
  private episodesToLearn = false;
  private factsChecked = false;

  /** `replace`: ids that exist are replaced, not refused (also given to finish()). */
  constructor(
    private readonly exists: StoreLookups,
    private readonly bulk: boolean,
    private replace: boolean,
  ) {}

  conversation(c: ConversationRecord, i: number): void {
    if (this.conversations.has(c.id)) duplicate('conversations', i, c.id);
    this.conversations.set(c.id, c);
    if (this.exists.conversation(c.id)) this.clashes.push(c.id);
  }

  episode(e: EpisodeRecord, i: number): void {
    if (this.episodeTimes.has(e.id)) duplicate('episodes', i, e.id);
    this.episodeTimes.set(e.id, e.reference_time);
    if (!this.bulk && this.exists.episode(e.id)) this.clashes.push(e.id);
    if (e.conversation_id !== null && !this.conversations.has(e.conversation_id) && !this.exists.conversation(e.conversation_id)) {
      throw new MemoryInputError(`episodes.${i}.conversation_id: unknown conversation ${e.conversation_id}`, `episodes.${i}.conversation_id`);
    }
    if (e.source) this.episodeSources = true;
    if (e.learned !== undefined) this.episodesToLearn = true;
  }

  entity(e: EntityRecord, i: number): void {
    if (this.entities.has(e.id)) duplicate('entities', i, e.id);
    this.entities.set(e.id, e);
    if (this.exists.entity(e.id)) this.clashes.push(e.id);
  }

  /** A plain function with messages built only on failure: it runs for every fact of a large import. */
  fact(f: FactRecord, i: number): void {
    if (this.facts.has(f.id)) duplicate('facts', i, f.id);
    if (!this.bulk && this.exists.fact(f.id)) this.clashes.push(f.id);
    const { entities, exists } = this;
    if (!entities.has(f.subject_id) && !exists.entity(f.subject_id)) failFact(i, 'subject_id', `unknown entity ${f.subject_id}`);
    if (f.object_id !== null && !entities.has(f.object_id) && !exists.entity(f.object_id)) failFact(i, 'object_id', `unknown entity ${f.object_id}`);
    checkNamed(f.subject, entities.get(f.subject_id), i, 'subject', 'subject_id');
    if (f.object_id !== null) checkNamed(f.object, entities.get(f.object_id), i, 'object', 'object_id');
    const firstSaid = this.earliestEpisodeTime(f, i);
    if (f.invalid_at !== null && f.invalid_at < f.valid_at) failFact(i, 'invalid_at', `is before valid_at (${f.valid_at})`);
    // The rules' own rule (observe refuses the same): a stated end comes after the start. Only a fact
    // closed by another (invalidated_by) may end where it starts: two values said for one instant.
    // History is kept as it was (a forgotten closer leaves no link behind: forget.ts).
    if (f.expired_at === null && f.invalid_at === f.valid_at && f.invalidated_by === null) failFact(i, 'invalid_at', `must be after valid_at (${f.valid_at}) unless another fact closed it (invalidated_by)`);
    if ((f.invalid_at === null) !== (f.invalid_at_precision === null)) failFact(i, 'invalid_at_precision', f.invalid_at === null ? 'must be null when invalid_at is null' : 'is missing: invalid_at has a time');
    if (f.expired_at !== null && f.expired_at < f.created_at) failFact(i, 'expired_at', `is before created_at (${f.created_at})`);
    for (const field of ['supersedes', 'invalidated_by'] as const) {
      const id = f[field];
      if (id !== null && !this.facts.has(id) && !exists.fact(id)) this.later.push({ i, field, id });
    }
    // The entity's own id string, not the record's copy: a million facts name a few thousand subjects.
    const subjectId = entities.get(f.subject_id)?.id ?? f.subject_id;
    const kept: CheckedFact = {
      id: f.id,
      subject_id: subjectId,
      // The one cached string of the predicate (export-records.ts made it canonical).
      predicate: canonicalPredicate(f.predicate),
      object_id: f.object_id === null ? null : (entities.get(f.object_id)?.id ?? f.object_id),
      object: f.object,
      cardinality: f.cardinality,
      valid_at: f.valid_at,
      invalid_at: f.invalid_at,
      expired_at: f.expired_at,
      supersedes: f.supersedes,
      invalidated_by: f.invalidated_by,
      firstSaid,
      claimed: false,
      headTime: undefined,
      endKind: undefined,
    };
    this.facts.set(f.id, kept);
    this.factList.push(kept);
  }

  claim(c: ClaimRecord, i: number): void {
    if (!this.factsChecked) this.checkFacts();
    const f = checkClaim(c, i, { facts: this.facts, entities: this.entities, episodes: this.episodeTimes, exists: this.exists });
    if (c.uid !== undefined) {
      if (this.claimIds.has(c.uid)) throw new MemoryInputError(`claims.${i}.uid: ${c.uid} is the id of an earlier claim too: each claim has its own`, `claims.${i}.uid`);
      this.claimIds.add(c.uid);
    }
    this.claims++;
    f.claimed = true;
    // The fact's reference time is its head claim's (slot-resolver.ts): the claim that says its start.
    if (f.headTime === undefined && c.valid_at === f.valid_at) f.headTime = c.reference_time;
    // A live fact's own claims say how it ended when one of them ends where it does (a judged end
    // at the instant a value of its slot begins is not that value's succession).
    if (f.endKind === undefined && f.invalid_at !== null && c.end_at === f.invalid_at && c.end_kind !== null) f.endKind = c.end_kind;
  }

  /** The checks that need every record; the plan of the writing pass. */
  finish(replace: boolean): ImportPlan {
    this.replace = replace;
    if (!this.factsChecked) this.checkFacts();
    const { clashes } = this;
    const counts = { conversations: this.conversations.size, episodes: this.episodeTimes.size, entities: this.entities.size, facts: this.facts.size, claims: this.claims };
    return { conversations: [...this.conversations.values()], entities: [...this.entities.values()], facts: this.facts, clashes, counts, episodeSources: this.episodeSources, episodesToLearn: this.episodesToLearn };
  }

  /** Once every fact is read (before the claims): clashes, the facts' references to later facts, the slot rules. */
  private checkFacts(): void {
    this.factsChecked = true;
    const { clashes } = this;
    if (clashes.length && !this.replace) {
      // Most often the same export imported a second time: said so, and what --replace would do.
      throw new MemoryInputError(
        `nothing was imported: ${plural(clashes.length, 'record', 'records', 'en-US')} in it already ${clashes.length === 1 ? 'exists' : 'exist'} in this memory (the first: ${clashes[0]}), ` +
          `so this export, or part of it, looks imported here before; import it with --replace to put the file's versions of those records in place of the ones here`,
        'ids',
      );
    }
    for (const { i, field, id } of this.later) if (!this.facts.has(id)) failFact(i, field, `unknown fact ${id}`);
    this.later.length = 0;
    checkSlots(this.factList);
  }

  /** The earliest reference time of the episodes fact `f` (at index `i`) cites; an unknown episode is refused. */
  private earliestEpisodeTime(f: FactRecord, i: number): IsoTime | undefined {
    let earliest: IsoTime | undefined;
    for (let j = 0; j < f.episode_ids.length; j++) {
      const e = f.episode_ids[j]!;
      const t = this.episodeTimes.get(e) ?? this.exists.episodeTime(e);
      if (t === undefined) failFact(i, `episode_ids.${j}`, `unknown episode ${e}`);
      else if (earliest === undefined || t < earliest) earliest = t;
    }
    return earliest;
  }
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
