/**
 * The memory engine's one entry point: opens the store and exposes every operation the CLI, the
 * Electron main process and the bridge use. Each write is one SQLite transaction: it happens whole
 * or not at all. Plain Node — never imports 'electron'.
 */
import type { Database } from 'better-sqlite3';
import type { EpisodeRecord, FactRecord, MemoryExport } from '../../shared/memory-schema';
import { observationInput, type Observation } from '../../shared/observation-schema';
import { describeZodError } from '../../shared/memory-schema';
import { ClaimRows } from './store/claim-rows';
import { flushFullText } from './text-search/fts-index';
import { systemClock, type Clock } from './store/clock';
import { databasePath } from './store/data-dir';
import { openDatabase } from './store/database/open-database';
import { EntityStore } from './store/entity-store';
import { EpisodeStore } from './store/episode-store';
import { closeFact, editFact, type FactEdit } from './temporal/fact-edit';
import { factHistory, queryFacts, type FactQuery } from './temporal/fact-query';
import { FactRows } from './store/fact-rows';
import { forgetEntity, forgetEpisode, forgetFact, type Forgotten } from './store/forget';
import { MemoryInputError } from './memory-errors';
import { newId } from './store/ids';
import { exportMemory } from './transfer/memory-export';
import { importMemory, isEmptyStore, parseExport, type ImportSummary } from './transfer/memory-import';
import { BULK_HELPER_MIN_ROWS, BulkLoadHelper } from './transfer/bulk-load-helper';
import { normalizePredicate } from './store/normalize';
import { observeAll } from './temporal/observe';
import { MemorySearch, type ScorePart, type SearchHit, type SearchOptions } from './text-search/search';
import { IngestionJobs, type JobRow } from './store/ingestion-jobs';
import type { PreparedIngest } from '../assistant/ingestion/ingest-message';
import { toIsoUtc } from '../../shared/time';
import { episodeRole, type EpisodeRole } from '../../shared/memory-schema';
import { createHash } from 'node:crypto';
import { SlotResolver, type SlotChanges } from './temporal/slot-resolver';

export interface MemoryOptions {
  /** Directory holding memory.sqlite (and, later, the vector index). Use ':memory:' for a throwaway store. */
  dataDir: string;
  /** better-sqlite3 addon built for Electron's ABI, when running inside Electron. */
  nativeBinding?: string;
  clock?: Clock;
}

export interface ListFactsQuery {
  asOf?: string;
  knownAt?: string;
  /** Subject entity name or alias (e.g. "me", "Aさん"). */
  subject?: string;
  predicate?: string;
  /** Entity name appearing as subject or object. */
  entity?: string;
  history?: boolean;
  limit?: number;
  offset?: number;
}

export interface ObserveSummary {
  observations: number;
  episodeIds: string[];
  factsAdded: number;
  factsClosed: number;
  factsConfirmed: number;
}

export interface MessageInput {
  role: EpisodeRole;
  content: string;
  /** When it was said (ISO-8601, any offset). */
  time: string;
  conversation?: string;
  conversationTitle?: string;
  id?: string;
  /** false: store without learning from it (e.g. assistant chatter). */
  learn?: boolean;
}

export type MemoryChange =
  | { kind: 'facts'; changes: SlotChanges }
  | { kind: 'forgotten'; forgotten: Forgotten }
  | { kind: 'imported'; summary: ImportSummary };

export interface FactProvenance {
  fact: FactRecord;
  versions: FactRecord[];
  episodes: EpisodeRecord[];
  closedBy: FactRecord | null;
}

export class Memory {
  readonly db: Database;
  readonly clock: Clock;
  readonly rows: FactRows;
  readonly claims: ClaimRows;
  readonly entities: EntityStore;
  readonly episodes: EpisodeStore;
  readonly slots: SlotResolver;
  readonly jobs: IngestionJobs;
  private readonly searcher: MemorySearch;
  private readonly path: string;
  private readonly nativeBinding: string | undefined;
  private background: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(change: MemoryChange) => void>();

  constructor(options: MemoryOptions) {
    this.clock = options.clock ?? systemClock();
    this.path = options.dataDir === ':memory:' ? ':memory:' : databasePath(options.dataDir);
    this.nativeBinding = options.nativeBinding;
    this.db = openDatabase({ path: this.path, nativeBinding: options.nativeBinding });
    this.rows = new FactRows(this.db);
    this.entities = new EntityStore(this.db, this.clock);
    this.episodes = new EpisodeStore(this.db, this.clock);
    this.claims = new ClaimRows(this.db);
    this.slots = new SlotResolver(this.rows, this.claims, this.clock);
    this.searcher = new MemorySearch(this.db);
    this.jobs = new IngestionJobs(this.db, this.clock);
  }

  /** Subscribes to changes (for vector sync and UI refresh); returns the unsubscribe function. */
  onChange(listener: (change: MemoryChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Validates every observation first (errors name the item and field), then applies all of them
   * in one transaction. `where` names the source in errors, e.g. "facts.jsonl".
   */
  observe(inputs: readonly unknown[], source: { where: string; conversation?: { id: string; title: string } } = { where: 'input' }): ObserveSummary {
    const observations: Observation[] = inputs.map((input, index) => {
      const parsed = observationInput.safeParse(input);
      if (!parsed.success) {
        const at = `${source.where}:${index + 1}`;
        throw new MemoryInputError(`${at}: ${describeZodError(parsed.error)}`, at);
      }
      return parsed.data;
    });
    const conversation = source.conversation ?? { id: newId('cnv'), title: `Observations from ${source.where}` };
    const result = this.write(() => observeAll(this, observations, conversation));
    this.emit({ kind: 'facts', changes: result.changes });
    return {
      observations: observations.length,
      episodeIds: result.episodeIds,
      factsAdded: result.changes.created.length,
      factsClosed: result.changes.closed.length,
      factsConfirmed: result.changes.confirmed.length,
    };
  }

  /**
   * Stores a message and its ingestion job in one transaction. Idempotent: a message with the same
   * id (given, or derived from conversation, role, time and content) is stored once.
   */
  appendMessage(input: MessageInput): { episode: EpisodeRecord; job: JobRow | undefined; duplicate: boolean } {
    const role = episodeRole.safeParse(input.role);
    if (!role.success) throw new MemoryInputError(`role must be one of ${episodeRole.options.join(', ')}`, 'role');
    if (typeof input.content !== 'string' || input.content.trim() === '') throw new MemoryInputError('content must be a non-empty string', 'content');
    let referenceTime: string;
    try {
      referenceTime = toIsoUtc(input.time);
    } catch (error) {
      throw new MemoryInputError(`time: ${(error as Error).message}`, 'time');
    }
    const conversationId = input.conversation ?? null;
    const id = input.id ?? `epi_${createHash('sha256').update(JSON.stringify([conversationId, role.data, referenceTime, input.content])).digest('hex').slice(0, 24)}`;
    const result = this.write(() => {
      const existing = this.episodes.byId(id);
      if (existing) return { episode: existing, job: this.jobs.byEpisode(id), duplicate: true };
      if (conversationId !== null) this.episodes.ensureConversation(conversationId, input.conversationTitle ?? conversationId);
      const episode = this.episodes.append({ id, role: role.data, content: input.content, referenceTime, conversationId });
      const job = input.learn === false ? undefined : this.jobs.enqueue(episode.id);
      return { episode, job, duplicate: false };
    });
    return result;
  }

  /** Applies a prepared ingestion and completes its job in one transaction. */
  applyIngestion(jobId: string, prepared: PreparedIngest): SlotChanges {
    const changes = this.write(() => {
      const applied = prepared.apply();
      this.jobs.complete(jobId, prepared.usage, { added: applied.created.length, closed: applied.closed.length });
      return applied;
    });
    this.emit({ kind: 'facts', changes });
    return changes;
  }

  listFacts(query: ListFactsQuery = {}): FactRecord[] {
    const resolved: FactQuery = { asOf: query.asOf, knownAt: query.knownAt, history: query.history, limit: query.limit, offset: query.offset };
    if (query.subject !== undefined) {
      const entity = this.entities.find(query.subject);
      if (!entity) return [];
      resolved.subjectId = entity.id;
    }
    if (query.entity !== undefined) {
      const entity = this.entities.find(query.entity);
      if (!entity) return [];
      resolved.entityId = entity.id;
    }
    if (query.predicate !== undefined) resolved.predicate = normalizePredicate(query.predicate);
    return queryFacts(this.db, resolved, this.clock.now());
  }

  getFact(id: string): FactRecord | undefined {
    return this.rows.record(id);
  }

  /** A fact's versions, the messages it came from and the fact that closed it. */
  provenance(id: string): FactProvenance {
    const fact = this.rows.record(id);
    if (!fact) throw new MemoryInputError(`no fact with id ${id}`, 'fact_id');
    const versions = factHistory(this.db, id);
    const episodeIds = [...new Set(versions.flatMap((v) => v.episode_ids))];
    const closedBy = fact.invalidated_by ? (this.rows.record(fact.invalidated_by) ?? null) : null;
    return { fact, versions, episodes: this.episodes.byIds(episodeIds), closedBy };
  }

  search(query: string, options: SearchOptions = {}): SearchHit[] {
    flushFullText(this.db);
    return this.searcher.search(query, options, this.clock.now());
  }

  /** search() in two steps, so another retriever (vectors) can run while SQLite works. */
  searchLists(query: string, options: SearchOptions = {}): Partial<Record<ScorePart, string[]>> {
    flushFullText(this.db);
    return this.searcher.lists(query, options, this.clock.now());
  }

  searchFuse(lists: Partial<Record<ScorePart, string[]>>, options: SearchOptions = {}): SearchHit[] {
    return this.searcher.fuse(lists, options, this.clock.now());
  }

  editFact(id: string, edit: FactEdit): FactRecord {
    const result = this.write(() => editFact(this, id, edit));
    this.emit({ kind: 'facts', changes: result.changes });
    return this.rows.record(result.id)!;
  }

  closeFact(id: string, at: string): FactRecord {
    const result = this.write(() => closeFact(this, id, at));
    this.emit({ kind: 'facts', changes: result.changes });
    return this.rows.record(result.id)!;
  }

  forgetFact(id: string): Forgotten {
    return this.forget(() => forgetFact(this, id));
  }

  /** Forgets an entity (by id, name or alias) and every fact about it. */
  forgetEntity(nameOrId: string): Forgotten {
    return this.forget(() => {
      const entity = this.entities.byId(nameOrId) ?? this.entities.find(nameOrId);
      if (!entity) throw new MemoryInputError(`no entity named ${JSON.stringify(nameOrId)}`, 'entity');
      return forgetEntity(this, entity.id);
    });
  }

  forgetEpisode(id: string): Forgotten {
    return this.forget(() => forgetEpisode(this, id));
  }

  /** forgetEpisode for callers already inside a transaction; they call notifyForgotten after it. */
  forgetEpisodeInTransaction(id: string): Forgotten {
    return forgetEpisode(this, id);
  }

  notifyForgotten(forgotten: Forgotten): void {
    this.emit({ kind: 'forgotten', forgotten });
  }

  exportMemory(): MemoryExport {
    return exportMemory(this.db, this.entities, this.clock.now());
  }

  /**
   * Validates the whole document, then imports it in one transaction. A large import into an empty
   * store has its full-text indexes built on a second thread (bulk-load-helper.ts), which then
   * checkpoints the WAL in the background; `settled()` waits for that.
   */
  importMemory(input: unknown, options: { replace?: boolean; helper?: boolean } = {}): ImportSummary {
    flushFullText(this.db);
    // Into an empty store the import checks every reference itself (memory-import.ts), so SQLite's
    // per-row foreign key lookups are skipped; the pragma only takes effect outside a transaction.
    const bulk = isEmptyStore(this.db);
    const helper =
      bulk && this.path !== ':memory:' && (options.helper ?? rowCount(input) >= BULK_HELPER_MIN_ROWS) ? BulkLoadHelper.spawn(this.db, this.path, this.nativeBinding) : null;
    let summary: ImportSummary | undefined;
    try {
      // The worker starts on the rows while they are validated here: it only fills a scratch
      // database, which is used only if the document passes every check below.
      helper?.load(input);
      const doc = parseExport(input);
      if (bulk) this.db.pragma('foreign_keys = OFF');
      // The worker checkpoints after the commit, so the commit itself does not.
      if (helper) this.db.pragma('wal_autocheckpoint = 0');
      summary = this.write(() => importMemory(this, doc, options.replace ?? false, helper));
    } finally {
      if (bulk) this.db.pragma('foreign_keys = ON');
      if (helper) {
        this.db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
        helper.finish(summary ? { dbPath: this.path } : null);
        this.background = Promise.all([this.background, helper.exited]).then(() => undefined);
      }
    }
    this.emit({ kind: 'imported', summary });
    return summary;
  }

  /** Resolves when background work started by a write (an import's WAL checkpoint) has finished. */
  settled(): Promise<void> {
    return this.background;
  }

  close(): void {
    this.listeners.clear();
    if (this.db.open) this.db.close();
  }

  private forget(run: () => Forgotten): Forgotten {
    flushFullText(this.db);
    const forgotten = this.write(run);
    this.emit({ kind: 'forgotten', forgotten });
    return forgotten;
  }

  /** One write transaction; then the rows it queued for full-text search are indexed in bulk. */
  write<T>(fn: () => T): T {
    const result = this.db.transaction(fn)();
    if (!this.db.inTransaction) flushFullText(this.db);
    return result;
  }

  private emit(change: MemoryChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

/** Facts + episodes of what looks like an export document (before it is validated). */
function rowCount(input: unknown): number {
  if (typeof input !== 'object' || input === null) return 0;
  const { facts, episodes } = input as { facts?: unknown; episodes?: unknown };
  return (Array.isArray(facts) ? facts.length : 0) + (Array.isArray(episodes) ? episodes.length : 0);
}

/** SQLite's default automatic checkpoint threshold, restored after an import's own checkpoint. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;

export function openMemory(options: MemoryOptions): Memory {
  return new Memory(options);
}
