/**
 * The memory's one entry point: opens the store and exposes every operation the layers above use.
 * Each write is one SQLite transaction — it happens whole or not at all — and raises one change
 * event saying what changed (onChange). Nothing outside electron/memory/ sees the database.
 * Plain Node: never imports 'electron', and needs no llm types. Memory's methods are in three
 * files: the facts here, messages / conversations / learning / review in memory-messages.ts, and
 * what every write stands on in memory-core.ts.
 */
import type { NameSuggestion, SuggestNamesRequest } from '../../shared/api-contract';
import type { ChangeFeedResponse, SlotHistoryResponse } from '../../shared/change-feed-contract';
import type { FactRecord, MemoryExport, Precision } from '../../shared/memory-schema';
import type { Observation } from '../../shared/observation-schema';
import type { FactPage, FactProvenance, ListFactsQuery, MemoryChange, MemoryOptions, ObserveSummary, SearchFilters } from './memory-api';
import { MemoryInputError } from './memory-errors';
import { newId } from './store/ids';
import { suggestNames } from './store/name-suggestions';
import { normalizePredicate } from './store/normalize';
import { closeFact, editFact, type FactEdit } from './temporal/fact-edit';
import { closedByChains, countFacts, factHistory, queryFacts, type FactQuery } from './temporal/fact-query';
import { timelineWindow, type TimelineWindow, type TimelineWindowQuery } from './temporal/timeline-window';
import { changeFeed, slotHistory } from './temporal/change-feed';
import { forgetEntity, forgetEpisode, forgetFact, type FactForgotten, type Forgotten } from './temporal/forget';
import { sourcesOfFact, type FactSource } from './temporal/forget-sources';
import { causesOf } from './temporal/write-cause';
import { observeAll, parseObservations } from './temporal/observe';
import { holdAgentFacts } from './temporal/agent-proposals';
import { reviewing } from './store/pending-reviews';
import { emptyChanges } from './store/slot-changes';
import { flushFullText } from './text-search/fts-index';
import type { ScorePart, SearchHit, SearchOptions } from './text-search/search';
import { exportMemory, openExportStream, type ExportStream } from './transfer/memory-export';
import { importInto, previewImport, type ImportPreview, type ImportSummary } from './transfer/import-into';
import { MemoryMessages } from './memory-messages';
import { vectorItemsOf, type MemoryVectorItems } from './vectors/vector-source';

export { databaseOf, storeOf } from './memory-core';

export class Memory extends MemoryMessages {
  /** Exports being read (openExport): ended when the memory closes. */
  private readonly openExports = new Set<ExportStream>();

  /**
   * Validates every observation first (errors name the item and field), then applies all of them
   * in one transaction. `where` names the source in errors, e.g. "facts.jsonl".
   */
  observe(inputs: readonly unknown[], source: { where: string; conversation?: { id: string; title: string }; agent?: string } = { where: 'input' }): ObserveSummary {
    const observations = parseObservations(inputs, source.where);
    // An agent's facts wait for the user while review before remembering is on (agent-proposals.ts).
    if (source.agent !== undefined && reviewing(this.store)) return this.holdForReview(source.agent, observations);
    // Titled after the file's name, not the path it was given ("seed.jsonl", not "/home/me/notes/seed.jsonl").
    const conversation = source.conversation ?? { id: newId('cnv'), title: `Observations from ${fileName(source.where)}` };
    const result = this.write(
      () => {
        const { episodeIds } = observeAll(this.store, observations, conversation);
        return { episodeIds, changes: this.caused({ kind: 'observed', episodes: episodeIds }) };
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
    const held = this.write(
      () => holdAgentFacts(this.store, agent, observations),
      (episodeIds): MemoryChange => ({ kind: 'review', reason: 'review', episodeIds }),
    );
    return { observations: observations.length, episodeIds: held, factsAdded: 0, factsClosed: 0, factsConfirmed: 0, changes: emptyChanges(), heldForReview: held };
  }

  listFacts(query: ListFactsQuery = {}): FactRecord[] {
    const resolved = this.resolveFactQuery(query);
    return resolved ? queryFacts(this.store.db, resolved, this.clock.now()) : [];
  }

  /** One page of listFacts (every filter applied in SQL before the limit) and the total of all pages. */
  listFactPage(query: ListFactsQuery = {}): FactPage {
    const resolved = this.resolveFactQuery(query);
    if (!resolved) return { facts: [], total: 0 };
    const now = this.clock.now();
    // One read transaction: the page and its total see the same snapshot, also while another
    // process (`tempora mcp`) writes.
    return this.store.db.transaction(() => ({ facts: queryFacts(this.store.db, resolved, now), total: countFacts(this.store.db, resolved, now) }))();
  }

  /** A fact's page: its provenance and the live facts any of its versions closed, by indexed lookups only. */
  factDetails(id: string): FactProvenance & { closed: FactRecord[] } {
    const details = this.provenance(id);
    const closedIds = closedByChains(this.store.db, [id]).map((c) => c.id);
    return { ...details, closed: closedIds.length ? queryFacts(this.store.db, { ids: closedIds, history: true }, this.clock.now()) : [] };
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
    if (query.text !== undefined && !this.readonly) flushFullText(this.store.db);
    return resolved;
  }

  /** Facts by id, every valid time, as the memory held them at `now`. */
  /** The memory's facts, entities and messages as vector items: what the vector index holds, and its sync. */
  vectorItems(): MemoryVectorItems {
    return vectorItemsOf(this.store);
  }

  factsByIds(ids: string[], now = this.clock.now()): FactRecord[] {
    return queryFacts(this.store.db, { ids, history: true, knownAt: now }, now);
  }

  /** When the first fact was recorded (the earliest system time), null for an empty memory: an indexed read. */
  firstRecordedAt(): string | null {
    return this.store.rows.firstRecordedAt();
  }

  /** When the latest thing the memory holds began, at or before `before` (now): the end of the time it covers; null when empty. */
  latestStart(before = this.clock.now()): string | null {
    return this.store.rows.latestStart(before);
  }

  getFact(id: string): FactRecord | undefined {
    return this.store.rows.record(id);
  }

  /** The live version of the fact whose version `id` is (any version of it): what an edit or a close writes over. */
  currentVersionOf(id: string): FactRecord | undefined {
    const live = this.store.rows.liveVersionOf(id);
    return live ? this.store.rows.record(live.id) : undefined;
  }

  /** A fact's versions, the messages it came from and the fact that closed it. */
  provenance(id: string): FactProvenance {
    const fact = this.store.rows.record(id);
    if (!fact) throw new MemoryInputError(`no fact with id ${id}`, 'fact_id', 'not_found');
    const versions = factHistory(this.store.db, id);
    const episodeIds = [...new Set(versions.flatMap((v) => v.episode_ids))];
    const closedBy = fact.invalidated_by ? (this.store.rows.record(fact.invalidated_by) ?? null) : null;
    const causes = causesOf(this.store.db, versions.map((v) => v.id));
    return { fact, versions, episodes: this.store.episodes.byIds(episodeIds), closedBy, causes };
  }

  /** The live facts each of these facts closed (a chain's predecessors, latest first), by position in factIds. */
  factsClosedBy(factIds: string[]): { hit: number; id: string }[] {
    return closedByChains(this.store.db, factIds);
  }

  search(query: string, options: SearchOptions & SearchFilters = {}): SearchHit[] {
    const narrowed = this.narrowSearch(options);
    if (!narrowed) return [];
    if (!this.readonly) flushFullText(this.store.db);
    return this.searcher.search(query, narrowed, this.clock.now());
  }

  /** search() in two steps, so another retriever (vectors) can run while SQLite works. */
  searchLists(query: string, options: SearchOptions & SearchFilters = {}): Partial<Record<ScorePart, string[]>> {
    const narrowed = this.narrowSearch(options);
    if (!narrowed) return {};
    if (!this.readonly) flushFullText(this.store.db);
    return this.searcher.lists(query, narrowed, this.clock.now());
  }

  searchFuse(lists: Partial<Record<ScorePart, string[]>>, options: SearchOptions & SearchFilters = {}): SearchHit[] {
    const narrowed = this.narrowSearch(options);
    if (!narrowed) return [];
    return this.searcher.fuse(lists, narrowed, this.clock.now());
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

  editFact(id: string, edit: FactEdit): FactRecord {
    const result = this.write(
      () => {
        const edited = editFact(this.store, id, edit);
        const changes = this.caused({ kind: 'edit', fact: id });
        return { id: edited.after(changes), changes };
      },
      (r) => ({ kind: 'facts', reason: 'edit', changes: r.changes }),
    );
    return this.store.rows.record(result.id)!;
  }

  /** Closes a fact at `at`, said with `precision` ("since yesterday": day). */
  closeFact(id: string, at: string, precision: Precision = 'instant'): FactRecord {
    const result = this.write(
      () => {
        const closed = closeFact(this.store, id, at, precision);
        const changes = this.caused({ kind: 'close', fact: id });
        return { id: closed.after(changes), changes };
      },
      (r) => ({ kind: 'facts', reason: 'close', changes: r.changes }),
    );
    return this.store.rows.record(result.id)!;
  }

  /** Forgets a fact (every version); withSources: also its source messages that support nothing else. */
  forgetFact(id: string, options: { withSources?: boolean } = {}): FactForgotten {
    return this.forget(() => forgetFact(this.store, id, options));
  }

  /** The messages a fact came from, each with how many other facts it is also the source of. */
  factSources(id: string): FactSource[] {
    if (!this.store.rows.byId(id)) throw new MemoryInputError(`no fact with id ${id}`, 'fact_id', 'not_found');
    return sourcesOfFact(this.store, id);
  }

  /** Forgets an entity (by id, name or alias) and every fact about it. */
  forgetEntity(nameOrId: string): Forgotten {
    return this.forget(() => {
      const entity = this.store.entities.byId(nameOrId) ?? this.store.entities.find(nameOrId);
      if (!entity) throw new MemoryInputError(`no entity named ${JSON.stringify(nameOrId)}`, 'entity', 'not_found');
      return forgetEntity(this.store, entity.id);
    });
  }

  forgetEpisode(id: string): Forgotten {
    return this.forget(() => forgetEpisode(this.store, id));
  }

  /** The whole export document as one object: for small memories and tests (the doors stream it: openExport). */
  exportMemory(): MemoryExport {
    return exportMemory(this.store.db, this.clock.now());
  }

  /** The export document in pieces, read from one snapshot while the memory goes on (memory-export.ts); close() it when done. */
  openExport(chunkChars?: number): ExportStream {
    const stream: ExportStream = openExportStream(this.store.db, this.clock.now(), { chunkChars, nativeBinding: this.nativeBinding, onClose: () => this.openExports.delete(stream) });
    this.openExports.add(stream);
    return stream;
  }

  /** Ends the exports still being read (their snapshots and connections), then closes the memory. */
  override close(): void {
    for (const stream of [...this.openExports]) stream.close();
    super.close();
  }

  /** What importing this document would do, without doing it. */
  previewImport(document: unknown): ImportPreview {
    return previewImport(this.store.db, document);
  }

  /**
   * Validates the whole document, then imports it in one transaction (see transfer/import-into.ts);
   * a large import into an empty store checkpoints in the background: `settled()` waits for that.
   */
  importMemory(input: unknown, options: { replace?: boolean; helper?: boolean } = {}): ImportSummary {
    flushFullText(this.store.db);
    const summary = importInto(this.store, { path: this.path, nativeBinding: this.nativeBinding }, input, options, (work) => {
      this.background = Promise.all([this.background, work]).then(() => undefined);
    });
    this.emit({ kind: 'imported', reason: 'import', summary });
    return summary;
  }
}

/** The last part of a path, whichever separator it uses (a path typed on Windows reads the same). */
function fileName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/** Opens a memory; the slots an upgrade merged are resolved before it is handed out (progress: options.onQueuedSlots). */
export function openMemory(options: MemoryOptions): Memory {
  const memory = new Memory(options);
  try {
    memory.resolveQueuedSlots(options.onQueuedSlots);
  } catch (error) {
    memory.close();
    throw error;
  }
  return memory;
}
