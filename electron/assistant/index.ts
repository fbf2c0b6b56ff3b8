/**
 * electron/assistant — what the assistant does with the memory and the models: learning from
 * messages (ingestion/), finding what to tell the model (retrieval/), and the chat turn (chat/).
 * Uses memory's public API and llm's ports; the engine wires it to the real models.
 */
export { runChatTurn, type ChatTurnRequest, type ChatTurnResult } from './chat/chat-turn';
export { IngestionWorker, type IngestionEvent, type IngestionWorkerOptions } from './ingestion/ingestion-worker';
export { prepareIngest, type PreparedIngest, type IngestOptions } from './ingestion/ingest-message';
export { retrieve, retrieveWithoutVectors, type Retrieval, type RetrieveOptions, type VectorRanker } from './retrieval/retrieve';
export { detectQueryIntent, type QueryIntent } from './retrieval/query-intent';
export { buildContext, timeLabel } from './retrieval/context-builder';
export { findQuestionTime, matchesTime, type QuestionTime } from './retrieval/question-time';
export { saidSoonAfter } from './retrieval/time-ranking';
export { defaultTimeZone, resolveUserTimeZone, type TimeZoneSource, type UserTimeZone } from './user-time-zone';
export { readEndInput, readMomentInput, readTimeInput } from './time-input';
export { readChatExport, EXPORT_FORMATS, FORMAT_NAMES, type ReadOptions } from './history/export-reader';
export { ChatExportError, conversationLabel, SKIP_REASONS, type ParsedConversation, type ParsedItem, type SkipReason } from './history/history-types';
