/**
 * The shapes of Memory's API (memory.ts): its options, queries, results, change events and the
 * narrow read-only views of the store it hands to the layers above.
 */
import type { EpisodeRecord, FactRecord, Precision } from '../../shared/memory-schema';
import type { WriteCause } from '../../shared/fact-history';
import type { Clock } from './store/clock';
import type { EntityStore } from './store/entity-store';
import type { EpisodeStore } from './store/episode-store';
import type { IngestionJobs } from './store/ingestion-jobs';
import type { Forgotten } from './temporal/forget';
import type { SlotChanges } from './temporal/slot-resolver';
import type { ImportSummary } from './transfer/import-into';
import type { IsoTime } from '../../shared/time';

export interface MemoryOptions {
  /** Directory holding memory.sqlite. Use ':memory:' for a throwaway store. */
  dataDir: string;
  /** better-sqlite3 addon built for Electron's ABI, when running inside Electron. */
  nativeBinding?: string;
  clock?: Clock;
  /**
   * Open for reading only (better-sqlite3 `readonly`): nothing is created, migrated or written;
   * writes fail. For commands that only read (facts, search, show, export) and read-only media.
   */
  readonly?: boolean;
  /** Told how many of the slots an upgrade merged are resolved (openMemory resolves them). */
  onQueuedSlots?: (done: number, total: number) => void;
}

/**
 * Filters that narrow a ranked search, by name: an entity (name or alias; as subject or object) and
 * a predicate. They restrict every retriever's list and the fusion; the search still ranks.
 */
export interface SearchFilters {
  entity?: string;
  predicate?: string;
}

export interface ListFactsQuery {
  asOf?: IsoTime;
  knownAt?: IsoTime;
  /** Subject entity name or alias (e.g. "me", "Aさん"). */
  subject?: string;
  predicate?: string;
  /** Entity name appearing as subject or object. */
  entity?: string;
  /** Words the sentence (or predicate) must all contain, in any script. */
  text?: string;
  /** Valid time overlapping [from, to). */
  overlapping?: { from: IsoTime; to: IsoTime };
  history?: boolean;
  /** Newest valid time first. */
  newestFirst?: boolean;
  limit?: number;
  offset?: number;
}

/** One page of listFacts, and how many facts all its pages hold. */
export interface FactPage {
  facts: FactRecord[];
  total: number;
}

/**
 * What a write touched, for the UI to refresh only that. factIds: every fact whose page may now
 * show something else (the versions written, expired or confirmed, the other versions of their
 * chains, and the live facts they closed); entityIds: the subjects and objects of those facts;
 * episodeIds: the messages the write was about.
 */
export interface ChangeScope {
  factIds: string[];
  entityIds: string[];
  episodeIds: string[];
  conversationIds: string[];
}

export interface ObserveSummary {
  observations: number;
  episodeIds: string[];
  factsAdded: number;
  factsClosed: number;
  factsConfirmed: number;
  /** What the write changed, by version id (the counts above are of these). */
  changes: SlotChanges;
  /** An agent's facts while the user reviews before remembering: the messages that hold them, waiting (nothing was written). */
  heldForReview: string[];
}

/** The message whose learning a write applied or undid (learned: the write of its job; undone: Undo). */
export interface LearnedMessage {
  episodeId: string;
  conversationId: string | null;
}

/** What one write changed; every write raises exactly one. `reason` is what the UI is told. */
export type MemoryChange =
  | { kind: 'facts'; reason: 'observed' | 'learned' | 'edit' | 'close' | 'migrated' | 'synced'; changes: SlotChanges; episodeIds?: string[]; learned?: LearnedMessage }
  | { kind: 'forgotten'; reason: 'forget' | 'conversation deleted' | 'learning undone'; forgotten: Forgotten; learned?: LearnedMessage }
  | { kind: 'imported'; reason: 'import'; summary: ImportSummary }
  | { kind: 'conversations'; reason: 'conversation'; conversationIds: string[] }
  | { kind: 'messages'; reason: 'message'; episodeIds: string[] }
  /** A message's learning held for review, or rejected there (store/pending-reviews.ts). */
  | { kind: 'review'; reason: 'review'; episodeIds: string[] };

export interface FactProvenance {
  fact: FactRecord;
  versions: FactRecord[];
  episodes: EpisodeRecord[];
  closedBy: FactRecord | null;
  /** Why each version was written, by version id, where its write recorded it (shared/fact-history.ts). */
  causes: Record<string, WriteCause>;
  /**
   * A live one-valued fact's stated end that the next value's start holds back (the latest its
   * statements give, past its own end): kept, and shown only if that value goes. Null otherwise.
   */
  keptEnd: { at: IsoTime; precision: Precision } | null;
}

/** Reads of entities the layers above may make. */
export type EntityReader = Pick<EntityStore, 'byId' | 'byIds' | 'find' | 'all'>;
/** Reads of episodes and conversations the layers above may make. */
export type EpisodeReader = Pick<EpisodeStore, 'byId' | 'byIds' | 'ofConversation' | 'previousInConversation' | 'conversation'>;
/** The ingestion queue as the worker and the UI use it (completing a job is part of applyIngestion). */
export type JobQueue = Pick<IngestionJobs, 'claimNext' | 'fail' | 'release' | 'recoverInterrupted' | 'counts' | 'totals' | 'parked' | 'byId' | 'byEpisode' | 'retryParked' | 'claimable'>;
