/**
 * The memory's one entry point: opens the store and exposes every operation the layers above use.
 * Each write is one SQLite transaction — it happens whole or not at all — and raises one change
 * event saying what changed (onChange). Nothing outside electron/memory/ sees the database.
 * Plain Node: never imports 'electron', and needs no llm types.
 */
import type { Database } from 'better-sqlite3';
import type { ChatMessageRecord, ConversationSummary } from '../../shared/api-contract';
import type { ConversationRecord, EntityRecord, FactRecord, MemoryExport, Precision } from '../../shared/memory-schema';
import type { EntityReader, EpisodeReader, FactProvenance, JobQueue, ListFactsQuery, MemoryChange, MemoryOptions, ObserveSummary } from './memory-api';
import { MemoryInputError } from './memory-errors';
import { systemClock, type Clock } from './store/clock';
import * as conversations from './store/conversations';
import { databasePath } from './store/data-dir';
import { openDatabase } from './store/database/open-database';
import { newId } from './store/ids';
import type { JobUsage } from './store/ingestion-jobs';
import { appendMessage, learningTotals, type AppendedMessage, type MessageInput } from './store/messages';
import { normalizePredicate } from './store/normalize';
import { storeContext, type StoreContext } from './store/store-context';
import { vocabularyFor, type Vocabulary } from './store/vocabulary';
import { closeFact, editFact, type FactEdit } from './temporal/fact-edit';
import { closedByChains, factHistory, queryFacts, type FactQuery } from './temporal/fact-query';
import { forgetEntity, forgetEpisode, forgetFact, type Forgotten } from './temporal/forget';
import { applyLearning, type Learning } from './temporal/learn';
import { observeAll, parseObservations } from './temporal/observe';
import type { SlotChanges } from './temporal/slot-resolver';
import { entityCandidates } from './text-search/entity-candidates';
import { flushFullText } from './text-search/fts-index';
import { pendingSlotRefreshes, refreshQueuedSlots } from './temporal/slot-refresh';
import { MemorySearch, type ScorePart, type SearchHit, type SearchOptions } from './text-search/search';
import { exportMemory } from './transfer/memory-export';
import { importInto, previewImport, type ImportPreview, type ImportSummary } from './transfer/import-into';

export class Memory {
  readonly clock: Clock;
  readonly entities: EntityReader;
  readonly episodes: EpisodeReader;
  readonly jobs: JobQueue;
  private readonly store: StoreContext;
  private readonly searcher: MemorySearch;
  private readonly path: string;
  private readonly nativeBinding: string | undefined;
  private readonly readonly: boolean;
  private background: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(change: MemoryChange) => void>();
  /** The net changes of the write in progress, once settled. */
  private settledChanges: SlotChanges | null = null;

  constructor(options: MemoryOptions) {
    this.clock = options.clock ?? systemClock();
    this.path = options.dataDir === ':memory:' ? ':memory:' : databasePath(options.dataDir);
    this.nativeBinding = options.nativeBinding;
    this.readonly = options.readonly === true;
    this.store = storeContext(openDatabase({ path: this.path, nativeBinding: options.nativeBinding, readonly: this.readonly }), this.clock);
    this.entities = this.store.entities;
    this.episodes = this.store.episodes;
    this.jobs = this.store.jobs;
    this.searcher = new MemorySearch(this.store.db);
    // Slots a migration merged are resolved by the rules before anything reads them.
    if (!this.readonly && pendingSlotRefreshes(this.store.db).length) {
      this.write(() => (refreshQueuedSlots(this.store), this.settle()), (changes) => ({ kind: 'facts', reason: 'migrated', changes }));
    }
  }

  /** Subscribes to changes (vector sync, UI refresh); returns the unsubscribe function. */
  onChange(listener: (change: MemoryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Validates every observation first (errors name the item and field), then applies all of them
   * in one transaction. `where` names the source in errors, e.g. "facts.jsonl".
   */
  observe(inputs: readonly unknown[], source: { where: string; conversation?: { id: string; title: string } } = { where: 'input' }): ObserveSummary {
    const observations = parseObservations(inputs, source.where);
    const conversation = source.conversation ?? { id: newId('cnv'), title: `Observations from ${source.where}` };
    const result = this.write(
      () => ({ episodeIds: observeAll(this.store, observations, conversation).episodeIds, changes: this.settle() }),
      (r) => ({ kind: 'facts', reason: 'observed', changes: r.changes }),
    );
    return {
      observations: observations.length,
      episodeIds: result.episodeIds,
      factsAdded: result.changes.created.length,
      factsClosed: result.changes.closed.length,
      factsConfirmed: result.changes.confirmed.length,
    };
  }

  /** Stores a message and its ingestion job in one transaction (idempotent: see store/messages.ts). */
  appendMessage(input: MessageInput): AppendedMessage {
    return this.appendMessages([input])[0]!;
  }

  /** Stores messages and their jobs in one transaction; an error names the item (0-based) it is about. */
  appendMessages(inputs: readonly MessageInput[], where?: (index: number) => string): AppendedMessage[] {
    return this.write(
      () =>
        inputs.map((input, index) => {
          try {
            return appendMessage(this.store, input);
          } catch (error) {
            if (!where || !(error instanceof MemoryInputError)) throw error;
            throw new MemoryInputError(`${where(index)}: ${error.message}`, `${where(index)}.${error.where}`, error.code);
          }
        }),
      (appended) => {
        const episodeIds = appended.filter((a) => !a.duplicate).map((a) => a.episode.id);
        return episodeIds.length ? { kind: 'messages', reason: 'message', episodeIds } : null;
      },
    );
  }

  /** Applies what a message taught (see temporal/learn.ts) and completes its job, in one transaction. */
  applyIngestion(jobId: string, learning: Learning, usage: JobUsage): SlotChanges {
    return this.write(
      () => {
        applyLearning(this.store, learning);
        const applied = this.settle();
        this.store.jobs.complete(jobId, usage, { added: applied.created.length, closed: applied.closed.length });
        return applied;
      },
      (changes) => ({ kind: 'facts', reason: 'learned', changes }),
    );
  }

  /** The entities and predicates a message's extraction prompt should offer the model. */
  vocabularyFor(content: string): Vocabulary {
    return vocabularyFor(this.store, content);
  }

  /** Stored entities whose names share a piece of `name` (for entity resolution). */
  entityCandidates(name: string): EntityRecord[] {
    return entityCandidates(this.store, name);
  }

  /** Open live facts about a subject with their object's name, latest first. */
  openFactsAbout(subjectId: string, limit = 200) {
    return this.store.rows.openAbout(subjectId, limit);
  }

  /** What learning from these messages cost and gave. */
  learningTotals(episodeIds: string[]) {
    return learningTotals(this.store, episodeIds);
  }

  listFacts(query: ListFactsQuery = {}): FactRecord[] {
    const resolved: FactQuery = { asOf: query.asOf, knownAt: query.knownAt, history: query.history, limit: query.limit, offset: query.offset };
    for (const [name, key] of [[query.subject, 'subjectId'], [query.entity, 'entityId']] as const) {
      if (name === undefined) continue;
      const entity = this.store.entities.find(name);
      if (!entity) return [];
      resolved[key] = entity.id;
    }
    if (query.predicate !== undefined) resolved.predicate = normalizePredicate(query.predicate);
    return queryFacts(this.store.db, resolved, this.clock.now());
  }

  /** Facts by id, every valid time, as the memory held them at `now`. */
  factsByIds(ids: string[], now = this.clock.now()): FactRecord[] {
    return queryFacts(this.store.db, { ids, history: true, knownAt: now }, now);
  }

  getFact(id: string): FactRecord | undefined {
    return this.store.rows.record(id);
  }

  /** A fact's versions, the messages it came from and the fact that closed it. */
  provenance(id: string): FactProvenance {
    const fact = this.store.rows.record(id);
    if (!fact) throw new MemoryInputError(`no fact with id ${id}`, 'fact_id', 'not_found');
    const versions = factHistory(this.store.db, id);
    const episodeIds = [...new Set(versions.flatMap((v) => v.episode_ids))];
    const closedBy = fact.invalidated_by ? (this.store.rows.record(fact.invalidated_by) ?? null) : null;
    return { fact, versions, episodes: this.store.episodes.byIds(episodeIds), closedBy };
  }

  /** The live facts each of these facts closed (a chain's predecessors, latest first), by position in factIds. */
  factsClosedBy(factIds: string[]): { hit: number; id: string }[] {
    return closedByChains(this.store.db, factIds);
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    if (!this.readonly) flushFullText(this.store.db);
    return this.searcher.search(query, options, this.clock.now());
  }

  /** search() in two steps, so another retriever (vectors) can run while SQLite works. */
  searchLists(query: string, options: SearchOptions = {}): Partial<Record<ScorePart, string[]>> {
    if (!this.readonly) flushFullText(this.store.db);
    return this.searcher.lists(query, options, this.clock.now());
  }

  searchFuse(lists: Partial<Record<ScorePart, string[]>>, options: SearchOptions = {}): SearchHit[] {
    return this.searcher.fuse(lists, options, this.clock.now());
  }

  editFact(id: string, edit: FactEdit): FactRecord {
    const result = this.write(() => ({ id: editFact(this.store, id, edit).id, changes: this.settle() }), (r) => ({ kind: 'facts', reason: 'edit', changes: r.changes }));
    return this.store.rows.record(result.id)!;
  }

  /** Closes a fact at `at`, said with `precision` ("since yesterday": day). */
  closeFact(id: string, at: string, precision: Precision = 'instant'): FactRecord {
    const result = this.write(() => ({ id: closeFact(this.store, id, at, precision).id, changes: this.settle() }), (r) => ({ kind: 'facts', reason: 'close', changes: r.changes }));
    return this.store.rows.record(result.id)!;
  }

  forgetFact(id: string): Forgotten {
    return this.forget(() => forgetFact(this.store, id));
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

  listConversations(): ConversationSummary[] {
    return conversations.listConversations(this.store);
  }

  conversationMessages(conversationId: string): ChatMessageRecord[] {
    return conversations.conversationMessages(this.store, conversationId);
  }

  createConversation(title: string): ConversationRecord {
    return this.write(() => this.store.episodes.createConversation(title), (c) => ({ kind: 'conversations', reason: 'conversation', conversationIds: [c.id] }));
  }

  renameConversation(conversationId: string, title: string): void {
    this.write(() => conversations.renameConversation(this.store, conversationId, title), () => ({ kind: 'conversations', reason: 'conversation', conversationIds: [conversationId] }));
  }

  /** Deletes a conversation. forget: also forget every fact learned only from it. */
  deleteConversation(conversationId: string, options: { forget: boolean }): { forgottenFacts: string[]; keptMessages: number } {
    flushFullText(this.store.db);
    const result = this.write(
      () => conversations.deleteConversation(this.store, conversationId, options),
      (r) => ({ kind: 'forgotten', reason: 'conversation deleted', forgotten: r.forgotten }),
    );
    return { forgottenFacts: result.forgotten.factIds, keptMessages: result.keptMessages };
  }

  /** Removes messages nothing was learned from (a regenerated answer). */
  deleteMessages(episodeIds: string[]): void {
    if (episodeIds.length === 0) return;
    this.write(
      () => episodeIds.forEach((id) => conversations.deleteMessage(this.store, id)),
      () => ({ kind: 'forgotten', reason: 'forget', forgotten: { factIds: [], entityIds: [], episodeIds } }),
    );
  }

  /** Remembers which facts an assistant message was given. */
  recordMessageFacts(episodeId: string, factIds: string[]): void {
    if (factIds.length === 0) return;
    this.write(() => conversations.recordMessageFacts(this.store, episodeId, factIds), () => ({ kind: 'messages', reason: 'message', episodeIds: [episodeId] }));
  }

  exportMemory(): MemoryExport {
    return exportMemory(this.store.db, this.store.entities, this.clock.now());
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

  /** Resolves when background work started by a write (an import's WAL checkpoint) has finished. */
  settled(): Promise<void> {
    return this.background;
  }

  close(): void {
    this.listeners.clear();
    if (this.store.db.open) this.store.db.close();
  }

  private forget(run: () => Forgotten): Forgotten {
    flushFullText(this.store.db);
    return this.write(run, (forgotten) => ({ kind: 'forgotten', reason: 'forget', forgotten }));
  }

  /**
   * One write transaction; then the rows it queued for full-text search are indexed, and the change
   * is told — after the commit, and only when the write changed something (`change` gives null).
   */
  private write<T>(fn: () => T, change: (result: T) => MemoryChange | null): T {
    const outermost = !this.store.db.inTransaction;
    // IMMEDIATE: the write lock is taken at BEGIN, so a second process writing the same memory
    // (`tempora mcp` beside the app) waits its busy_timeout instead of failing with SQLITE_BUSY.
    const result = this.store.db.transaction(() => {
      if (!outermost) return fn();
      this.store.slots.beginWrite();
      this.settledChanges = null;
      const value = fn();
      this.settle();
      return value;
    }).immediate();
    if (!this.store.db.inTransaction) flushFullText(this.store.db);
    const told = change(result);
    if (told) this.emit(told);
    return result;
  }

  /**
   * The net changes of the write in progress (versions it both wrote and replaced removed; see
   * temporal/write-log.ts). Idempotent within a write: the first call settles it.
   */
  private settle(): SlotChanges {
    this.settledChanges ??= this.store.slots.finishWrite();
    return this.settledChanges;
  }

  /** A listener that throws must not make a committed write look failed. */
  private emit(change: MemoryChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        console.error('tempora: a memory change listener failed:', error);
      }
    }
  }
}

/** The store behind a Memory, for code inside electron/memory/ and for tests; never exported by index.ts. */
export function storeOf(memory: Memory): StoreContext {
  return memory['store'];
}

/** The database behind a Memory, for code inside electron/memory/ and for tests; never exported by index.ts. */
export function databaseOf(memory: Memory): Database {
  return memory['store'].db;
}

export function openMemory(options: MemoryOptions): Memory {
  return new Memory(options);
}
