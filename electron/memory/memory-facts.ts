/**
 * Memory's facts: observing them, the queries behind the screens (lists, a fact's page, the
 * timeline, what changed, a slot's history, names as the user types), search, corrections (edit,
 * close) and forgetting. Every write goes through the kernel (memory-kernel.ts): one transaction,
 * each touched slot resolved once, one change event.
 */
import type { NameSuggestion, SuggestNamesRequest } from '../../shared/api-contract';
import type { ChangeFeedResponse, SlotHistoryResponse } from '../../shared/change-feed-contract';
import type { EntityRecord, FactRecord, Precision } from '../../shared/memory-schema';
import type { Observation } from '../../shared/observation-schema';
import type { FactPage, FactProvenance, ListFactsQuery, MemoryChange, ObserveSummary, SearchFilters } from './memory-api';
import { MemoryInputError } from './memory-errors';
import type { MemoryKernel } from './memory-kernel';
import { newId } from './store/ids';
import { suggestNames } from './store/name-suggestions';
import { normalizePredicate } from './store/normalize';
import { reviewing } from './store/pending-reviews';
import { emptyChanges } from './store/slot-changes';
import { vocabularyFor, type Vocabulary } from './store/vocabulary';
import { holdAgentFacts } from './temporal/agent-proposals';
import { changeFeed, slotHistory } from './temporal/change-feed';
import { closeFact, editFact, keptEndOf, type FactEdit } from './temporal/fact-edit';
import { closedByChains, countFacts, factHistory, queryFacts, type FactQuery } from './temporal/fact-query';
import { forgetEntity, forgetFact, type FactForgotten, type Forgotten } from './temporal/forget';
import { sourcesOfFact, type FactSource } from './temporal/forget-sources';
import { observeAll, parseObservations } from './temporal/observe';
import { timelineWindow, type TimelineWindow, type TimelineWindowQuery } from './temporal/timeline-window';
import { causesOf } from './temporal/write-cause';
import { entityCandidates } from './text-search/entity-candidates';
import { flushFullText } from './text-search/fts-index';
import type { SearchHit, SearchLists, SearchOptions } from './text-search/search';
import type { IsoTime } from '../../shared/time';

export class MemoryFacts {
  constructor(private readonly kernel: MemoryKernel) {}

  private get store() {
    return this.kernel.store;
  }

  /**
   * Validates every observation first (errors name the item and field), then applies all of them
   * in one transaction. `where` names the source in errors, e.g. "facts.jsonl"; `zone` (the user's)
   * is the one a reference_time written without a zone is read in (else UTC).
   */
  observe(inputs: readonly unknown[], source: { where: string; conversation?: { id: string; title: string }; agent?: string; zone?: string } = { where: 'input' }): ObserveSummary {
    const observations = parseObservations(inputs, source.where, source.zone);
    // An agent's facts wait for the user while review before remembering is on (agent-proposals.ts).
    if (source.agent !== undefined && reviewing(this.store)) return this.holdForReview(source.agent, observations);
    // Titled after the file's name, not the path it was given ("seed.jsonl", not "/home/me/notes/seed.jsonl").
    const conversation = source.conversation ?? { id: newId('cnv'), title: `Observations from ${fileName(source.where)}` };
    const result = this.kernel.write(
      () => {
        const { episodeIds } = observeAll(this.store, observations, conversation);
        return { episodeIds, changes: this.kernel.caused({ kind: 'observed', episodes: episodeIds }) };
      },
      (r) => ({ kind: 'facts', reason: 'observed', changes: r.changes, episodeIds: r.episodeIds }),
    );
    return {
      observations: observations.length,
      episodeIds: result.episodeIds,
      factsAdded: result.changes.created.length,
      factsClosed: result.changes.closed.length,
      factsConfirmed: result.changes.confirmed.length,
      changes: result.changes,
      heldForReview: [],
    };
  }

  private holdForReview(agent: string, observations: Observation[]): ObserveSummary {
    const held = this.kernel.write(
      () => holdAgentFacts(this.store, agent, observations),
      (episodeIds): MemoryChange => ({ kind: 'review', reason: 'review', episodeIds }),
    );
    return { observations: observations.length, episodeIds: held, factsAdded: 0, factsClosed: 0, factsConfirmed: 0, changes: emptyChanges(), heldForReview: held };
  }

  list(query: ListFactsQuery = {}): FactRecord[] {
    const resolved = this.resolveFactQuery(query);
    return resolved ? queryFacts(this.store.db, resolved, this.kernel.clock.now()) : [];
  }

  /** One page of list() (every filter applied in SQL before the limit) and the total of all pages. */
  page(query: ListFactsQuery = {}): FactPage {
    const resolved = this.resolveFactQuery(query);
    if (!resolved) return { facts: [], total: 0 };
    const now = this.kernel.clock.now();
    // One read transaction: the page and its total see the same snapshot, also while another
    // process (`tempora mcp`) writes.
    return this.store.db.transaction(() => ({ facts: queryFacts(this.store.db, resolved, now), total: countFacts(this.store.db, resolved, now) }))();
  }

  /** A fact's page: its provenance and the live facts any of its versions closed, by indexed lookups only. */
  details(id: string): FactProvenance & { closed: FactRecord[] } {
    const details = this.provenance(id);
    const closedIds = closedByChains(this.store.db, [id]).map((c) => c.id);
    return { ...details, closed: closedIds.length ? queryFacts(this.store.db, { ids: closedIds, history: true }, this.kernel.clock.now()) : [] };
  }

  /** The timeline's rows on screen × a valid-time range, each row summarised (temporal/timeline-window.ts). */
  timelineWindow(query: TimelineWindowQuery): TimelineWindow {
    return timelineWindow(this.store.db, query);
  }

  /**
   * "What changed": the held facts' changes in valid time, newest first (a value replaced, added,
   * ended), optionally about one entity (as subject, by name or alias), one keyset page at a time.
   */
  changeFeed(query: { entity?: string; limit?: number; cursor?: string } = {}): ChangeFeedResponse {
    let subjectId: string | undefined;
    if (query.entity !== undefined) {
      const entity = this.store.entities.find(query.entity);
      if (!entity) return { changes: [], next: null };
      subjectId = entity.id;
    }
    return changeFeed(this.store.db, { subjectId, limit: query.limit, cursor: query.cursor });
  }

  /** Every value held of a fact's slot (subject + predicate), newest first, one keyset page at a time. */
  slotHistory(factId: string, query: { limit?: number; cursor?: string } = {}): SlotHistoryResponse {
    return slotHistory(this.store.db, factId, query);
  }

  /**
   * Names for a filter as the user types `text`: entities' (an alias finds its entity) or predicates
   * in use; those that begin with it first, then those that contain it, most facts held now first.
   * Bounded reads whatever the memory's size (store/name-suggestions.ts); errors name the field.
   */
  suggestNames(kind: SuggestNamesRequest['kind'], text: string, limit?: number): NameSuggestion[] {
    return suggestNames(this.store.db, kind, text, limit);
  }

  /** Entity names resolved to ids (null: a named entity does not exist, so nothing matches). */
  private resolveFactQuery(query: ListFactsQuery): FactQuery | null {
    const resolved: FactQuery = { asOf: query.asOf, knownAt: query.knownAt, history: query.history, text: query.text, overlapping: query.overlapping, newestFirst: query.newestFirst, limit: query.limit, offset: query.offset };
    for (const [name, key] of [[query.subject, 'subjectId'], [query.entity, 'entityId']] as const) {
      if (name === undefined) continue;
      const entity = this.store.entities.find(name);
      if (!entity) return null;
      resolved[key] = entity.id;
    }
    if (query.predicate !== undefined) resolved.predicate = normalizePredicate(query.predicate);
    if (query.text !== undefined && !this.kernel.readonly) flushFullText(this.store.db);
    return resolved;
  }

  /** Facts by id, every valid time, as the memory held them at `now`. */
  byIds(ids: string[], now = this.kernel.clock.now()): FactRecord[] {
    return queryFacts(this.store.db, { ids, history: true, knownAt: now }, now);
  }

  /** When the first fact was recorded (the earliest system time), null for an empty memory: an indexed read. */
  firstRecordedAt(): IsoTime | null {
    return this.store.rows.firstRecordedAt();
  }

  /** When the latest thing the memory holds began, at or before `before` (now): the end of the time it covers; null when empty. */
  latestStart(before = this.kernel.clock.now()): IsoTime | null {
    return this.store.rows.latestStart(before);
  }

  get(id: string): FactRecord | undefined {
    return this.store.rows.record(id);
  }

  /** The live version of the fact whose version `id` is (any version of it): what an edit or a close writes over. */
  currentVersionOf(id: string): FactRecord | undefined {
    const live = this.store.rows.liveVersionOf(id);
    return live ? this.store.rows.record(live.id) : undefined;
  }

  /** A fact's versions, the messages it came from and the fact that closed it (its current version). */
  provenance(id: string): FactProvenance {
    const fact = this.store.rows.record(id);
    if (!fact) throw new MemoryInputError(`no fact with id ${id}`, 'fact_id', 'not_found');
    const versions = factHistory(this.store.db, id);
    const episodeIds = [...new Set(versions.flatMap((v) => v.episode_ids))];
    // What closed it as it is now: the closing fact edited or closed since is its current version.
    const closer = fact.invalidated_by === null ? undefined : (this.store.rows.liveVersionOf(fact.invalidated_by)?.id ?? fact.invalidated_by);
    const closedBy = closer === undefined ? null : (this.store.rows.record(closer) ?? null);
    const causes = causesOf(this.store.db, versions.map((v) => v.id));
    return { fact, versions, episodes: this.store.episodes.byIds(episodeIds), closedBy, causes, keptEnd: keptEndOf(fact, this.store.claims.ofFact(fact.id)) };
  }

  /** The live facts each of these facts closed (a chain's predecessors, latest first), by position in factIds. */
  closedBy(factIds: string[]): { hit: number; id: string }[] {
    return closedByChains(this.store.db, factIds);
  }

  /** Open live facts about a subject with their object's name, latest first. */
  openAbout(subjectId: string, limit = 200) {
    return this.store.rows.openAbout(subjectId, limit);
  }

  /** The entities and predicates a message's extraction prompt should offer the model. */
  vocabularyFor(content: string): Vocabulary {
    return vocabularyFor(this.store, content);
  }

  /** Stored entities whose names share a piece of `name` (for entity resolution). */
  entityCandidates(name: string): EntityRecord[] {
    return entityCandidates(this.store, name);
  }

  search(query: string, options: SearchOptions & SearchFilters = {}): SearchHit[] {
    const narrowed = this.narrowSearch(options);
    if (!narrowed) return [];
    if (!this.kernel.readonly) flushFullText(this.store.db);
    return this.kernel.searcher.search(query, narrowed, this.kernel.clock.now());
  }

  /** search() in two steps, so another retriever (vectors) can run while SQLite works. */
  searchLists(query: string, options: SearchOptions & SearchFilters = {}): SearchLists {
    const narrowed = this.narrowSearch(options);
    if (!narrowed) return {};
    if (!this.kernel.readonly) flushFullText(this.store.db);
    return this.kernel.searcher.lists(query, narrowed, this.kernel.clock.now());
  }

  searchFuse(lists: SearchLists, options: SearchOptions & SearchFilters = {}): SearchHit[] {
    const narrowed = this.narrowSearch(options);
    if (!narrowed) return [];
    return this.kernel.searcher.fuse(lists, narrowed, this.kernel.clock.now());
  }

  /** A search's filters by name resolved to ids (null: a named entity does not exist, so nothing matches). */
  private narrowSearch(options: SearchOptions & SearchFilters): SearchOptions | null {
    const { entity, predicate, ...rest } = options;
    const narrowed: SearchOptions = { ...rest };
    if (entity !== undefined) {
      const found = this.store.entities.find(entity);
      if (!found) return null;
      narrowed.entityId = found.id;
    }
    if (predicate !== undefined) narrowed.predicate = normalizePredicate(predicate);
    return narrowed;
  }

  edit(id: string, edit: FactEdit): FactRecord {
    const result = this.kernel.write(
      () => {
        const edited = editFact(this.store, id, edit);
        const end = edit.invalid_at === undefined ? undefined : edit.invalid_at === null ? null : { at: edit.invalid_at, precision: edit.invalid_at_precision ?? 'instant' };
        const changes = this.kernel.caused({ kind: 'edit', fact: id, ...(end === undefined ? {} : { end }) });
        return { id: edited.after(changes), changes };
      },
      (r) => ({ kind: 'facts', reason: 'edit', changes: r.changes }),
    );
    return this.store.rows.record(result.id)!;
  }

  /** Closes a fact at `at`, said with `precision` ("since yesterday": day). */
  close(id: string, at: IsoTime, precision: Precision = 'instant'): FactRecord {
    const result = this.kernel.write(
      () => {
        const closed = closeFact(this.store, id, at, precision);
        const changes = this.kernel.caused({ kind: 'close', fact: id, end: { at, precision } });
        return { id: closed.after(changes), changes };
      },
      (r) => ({ kind: 'facts', reason: 'close', changes: r.changes }),
    );
    return this.store.rows.record(result.id)!;
  }

  /** Forgets a fact (every version); withSources: also its source messages that support nothing else. */
  forget(id: string, options: { withSources?: boolean } = {}): FactForgotten {
    return this.kernel.forget(() => forgetFact(this.store, id, options));
  }

  /** The messages a fact came from, each with how many other facts it is also the source of. */
  sources(id: string): FactSource[] {
    if (!this.store.rows.byId(id)) throw new MemoryInputError(`no fact with id ${id}`, 'fact_id', 'not_found');
    return sourcesOfFact(this.store, id);
  }

  /** Forgets an entity (by id, name or alias) and every fact about it. */
  forgetEntity(nameOrId: string): Forgotten {
    return this.kernel.forget(() => {
      const entity = this.store.entities.byId(nameOrId) ?? this.store.entities.find(nameOrId);
      if (!entity) throw new MemoryInputError(`no entity named ${JSON.stringify(nameOrId)}`, 'entity', 'not_found');
      return forgetEntity(this.store, entity.id);
    });
  }
}

/** The last part of a path, whichever separator it uses (a path typed on Windows reads the same). */
function fileName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}
