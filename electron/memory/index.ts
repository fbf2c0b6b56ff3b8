/**
 * electron/memory — the bottom of the house, and its only way in. The store (SQLite), the temporal
 * rules, text search, vectors (LanceDB) and transfer (export/import) live in the rooms below; the
 * layers above import from this file only.
 */
export { Memory, openMemory } from './memory';
export type { SyncStatus, SyncStore } from './sync/sync-store';
export type {
  MemoryOptions,
  ListFactsQuery,
  SearchFilters,
  ObserveSummary,
  MemoryChange,
  ChangeScope,
  FactPage,
  FactProvenance,
  EntityReader,
  EpisodeReader,
  JobQueue,
} from './memory-api';
export { isBusyError, MemoryInputError, MemoryStorageError } from './memory-errors';
export { defaultDataDir, databasePath } from './store/data-dir';
export { storeHoldsNothing } from './store/empty-store';
export { steppingClock, systemClock, type Clock } from './store/clock';
export type { MessageInput, AppendedMessage, LearningTotals } from './store/messages';
export { findRepeatedMessageIds, type RepeatableMessage } from './store/repeated-message-ids';
export { HISTORY_SOURCES, type HistorySource, type HistoryConversationInput, type HistoryMessageInput, type HistoryImportResult, type BackfillStatus } from './store/chat-history';
export type { JobRow, JobUsage, JobStatus, QueueCounts } from './store/ingestion-jobs';
export type { Vocabulary } from './store/vocabulary';
export { isUserReference, normalizePredicate, stripHonorifics } from './store/normalize';
export { objectKeyOf, type FactRow } from './store/fact-rows';
export type { SearchHit, SearchOptions, ScorePart } from './text-search/search';
export type { FactForgotten, Forgotten } from './temporal/forget';
export type { FactSource, ForgetSources } from './temporal/forget-sources';
export type { FactEdit } from './temporal/fact-edit';
export type { TimelineRowSummary, TimelineWindow, TimelineWindowQuery } from './temporal/timeline-window';
export type { SlotChanges } from './temporal/slot-resolver';
export type { EntityRef, LearnedFact, Learning } from './temporal/learn';
export type { ApprovedEdit } from './temporal/review-learning';
export type { ImportSummary, ImportPreview, ImportProgress, ImportFileOptions } from './transfer/import-into';
export type { RecordProgress } from './transfer/export-records';
export type { ExportCounts, ExportStream } from './transfer/memory-export';
export { streamJsonFile, NotJsonError, ReadCancelled, type ReadProgress } from './transfer/json-file-stream';
export { VectorIndex, type VectorIndexOptions, type VectorHit, type VectorRow, type VectorSearchOptions } from './vectors/vector-index';
export { VECTOR_KINDS, type VectorKind, type VectorResetReason } from './vectors/vector-table';
export { indexItems, rebuild, reconcile, removeItems, textHash, type IndexItemsResult, type ReconcileResult, type VectorSource, type VectorSourceItem, type VectorSyncOptions } from './vectors/vector-sync';
export { EMBEDDED_KINDS, type MemoryVectorItems } from './vectors/vector-source';
export type { VectorSyncResult, VectorTableSync } from './vectors/vector-table-sync';
export type { TextEmbedder } from './vectors/text-embedder';
export { daysNamed, heldThrough, resolveTimeExpression, whyNotATime, zoneOfIsoTime, type Precision, type Resolved, type TimeReference } from './temporal/time-expression';
export { startWorkerThread, type WorkerThreadStart } from './store/worker-thread';
