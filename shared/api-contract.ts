/**
 * The API between the UI and the app core: every call with its channel, request schema and response
 * schema, and every event the core pushes. Electron main validates each request (and its own
 * response) with these schemas; the loopback bridge does the same; the renderer uses the inferred
 * types through one client with two transports. Nothing here is `any`.
 */
import { z } from 'zod';
import type { ApiOutcome } from './api-error';
import { writeCause } from './fact-history';
import { messageLearning, parkedMessage, undoReport } from './learning-contract';
import { backfillStatus, chatImportProgress, chatImportReport, chatImportRequest, uploadChunkRequest, uploadChunkResponse } from './chat-import';
import { conversationRecord, entityRecord, episodeRecord, factRecord, isoTime, memoryExport, precision } from './memory-schema';
import { importUploadProgress, importUploadRef, importUploadRequest } from './import-upload';
import { exportBeginResponse, exportReadResponse, exportRef } from './export-download';
import { approveReviewRequest, pendingReview, reviewDecision, reviewSettings } from './review-contract';
import { changeFeedRequest, changeFeedResponse, slotHistoryRequest, slotHistoryResponse } from './change-feed-contract';
import { saveSyncRequest, syncNowResponse, syncProgress, syncState } from './sync-contract';

const id = z.string().min(1).max(200);
const empty = z.strictObject({});
const ok = z.strictObject({ ok: z.literal(true) });

// ---------- memory ----------
export const listFactsRequest = z.strictObject({
  /** Valid time: what was true at this instant. Default: now (unless history). */
  asOf: isoTime.optional(),
  /** System time: what the memory held at this instant. Default: now (unless history). */
  knownAt: isoTime.optional(),
  subject: z.string().min(1).max(500).optional(),
  predicate: z.string().min(1).max(200).optional(),
  entity: z.string().min(1).max(500).optional(),
  /** Words the sentence (or predicate) must all contain, any script; applied in SQL like every filter. */
  text: z.string().trim().min(1).max(500).optional(),
  /** Include closed facts and expired versions. */
  history: z.boolean().optional(),
  /** Newest valid time first (default: oldest first). */
  newestFirst: z.boolean().optional(),
  limit: z.number().int().min(1).max(200_000).optional(),
  offset: z.number().int().min(0).optional(),
});
export type ListFactsRequest = z.infer<typeof listFactsRequest>;
/** One page (limit/offset) of the facts matching every filter, and how many match in all. */
export const listFactsResponse = z.strictObject({ facts: z.array(factRecord), total: z.number().int().min(0) });
export type ListFactsResponse = z.infer<typeof listFactsResponse>;

/**
 * Names for what the user is typing in a filter: entities' names (an alias finds its entity's
 * name) or the predicates in use. Names that begin with the text first, then those that contain
 * it; within each, the most facts held now first, then by name. Empty text: the most used.
 */
export const MAX_NAME_SUGGESTIONS = 50;
export const MAX_SUGGESTION_TEXT = 200;
export const suggestNamesRequest = z.strictObject({
  kind: z.enum(['entity', 'predicate']),
  text: z.string().max(MAX_SUGGESTION_TEXT, { error: `must be at most ${MAX_SUGGESTION_TEXT} characters` }),
  /** At most this many names (default 20). */
  limit: z.number().int().min(1).max(MAX_NAME_SUGGESTIONS).optional(),
});
export type SuggestNamesRequest = z.infer<typeof suggestNamesRequest>;
/** A suggested name and how many facts held now it has (as subject, for an entity). */
export const nameSuggestion = z.strictObject({ name: z.string(), live: z.number().int().min(0) });
export type NameSuggestion = z.infer<typeof nameSuggestion>;

export const scorePart = z.enum(['text', 'entity', 'episode', 'vector']);
export const searchRequest = z.strictObject({
  query: z.string().min(1).max(2000),
  asOf: isoTime.optional(),
  knownAt: isoTime.optional(),
  history: z.boolean().optional(),
  limit: z.number().int().min(1).max(200).optional(),
  /** Narrow the ranked search to facts about this entity (subject or object, name or alias): filters never change what a search means. */
  entity: z.string().min(1).max(500).optional(),
  /** Narrow the ranked search to facts with this predicate. */
  predicate: z.string().min(1).max(200).optional(),
});
/** A time named in a question ("on 2026-09-10", "去年"), as retrieval understood it. */
export const questionTime = z.strictObject({
  phrase: z.string(),
  at: isoTime,
  precision,
  unit: z.enum(['instant', 'day', 'week', 'weekend', 'month', 'season', 'year', 'range']),
  /** point: answered as of `asOf`; period: the facts overlapping [at, until) come first. */
  kind: z.enum(['point', 'period']),
  asOf: isoTime.optional(),
  until: isoTime.optional(),
  zone: z.string(),
});
export type QuestionTime = z.infer<typeof questionTime>;

export const searchResponse = z.strictObject({
  hits: z.array(z.strictObject({ fact: factRecord, score: z.number(), parts: z.partialRecord(scorePart, z.number()) })),
  vectorsUsed: z.boolean(),
  note: z.string().nullable(),
  history: z.boolean(),
  /** The time the question named, if any (the answer is as of it). */
  time: questionTime.nullable(),
});
export type SearchResponse = z.infer<typeof searchResponse>;

export const factDetails = z.strictObject({
  fact: factRecord,
  versions: z.array(factRecord),
  episodes: z.array(episodeRecord),
  closedBy: factRecord.nullable(),
  /** Facts this one closed. */
  closed: z.array(factRecord),
  /** Why each version was written, by version id, where its write recorded it (shared/fact-history.ts). */
  causes: z.record(z.string(), writeCause),
  /** An end the fact's statements give that the next value's start holds back: kept, shown only if that value goes (null: none). */
  keptEnd: z.strictObject({ at: isoTime, precision }).nullable(),
});
export type FactDetails = z.infer<typeof factDetails>;

/**
 * The timeline's window: the rows on screen (subject + predicate: the user's first, then by subject
 * name; rowOffset / rowLimit) × a valid-time range [from, to). Held: the versions held now, or at knownAt.
 */
export const timelineWindowRequest = z.strictObject({
  from: isoTime,
  to: isoTime,
  knownAt: isoTime.optional(),
  /** Keeps the facts whose subject, predicate or object contains this (a predicate as stored or as words: "lives in" finds lives_in). */
  filter: z.string().trim().min(1).max(200).optional(),
  rowOffset: z.number().int().min(0).optional(),
  rowLimit: z.number().int().min(1).max(500).optional(),
  /**
   * Rows grouped by subject (the user's first) under header rows; a collapsed group is its header
   * only, and the offsets count only the rows shown. Groups are collapsed when there are more than
   * collapseAbove rows, except those named: expanded / collapsed (subject ids) are the user's choices.
   */
  groups: z
    .strictObject({ collapseAbove: z.number().int().min(0).optional(), expanded: z.array(id).max(2000).optional(), collapsed: z.array(id).max(2000).optional() })
    .optional(),
});
export type TimelineWindowRequest = z.infer<typeof timelineWindowRequest>;
/** A row with a summary of all its facts, and whole only the facts that overlap the range. */
export const timelineRowSummary = z.strictObject({
  subject_id: id,
  subject: z.string(),
  predicate: z.string(),
  count: z.number().int(),
  first: isoTime,
  last: isoTime,
  open: z.boolean(),
  /** Facts of the row that ended (each a change). */
  changes: z.number().int(),
  /** Facts that ended before the range / begin after it (not in facts). */
  before: z.number().int(),
  after: z.number().int(),
  facts: z.array(factRecord),
  /** On a group header row (predicate ''): the group's rows, and whether it is collapsed. */
  group: z.strictObject({ rows: z.number().int(), collapsed: z.boolean() }).optional(),
  /** On a group header: its facts' starts and ends counted in at most 64 equal spans of [from, to] (the part of the range it spans). */
  marks: z.strictObject({ from: isoTime, to: isoTime, counts: z.array(z.number().int()).max(64) }).optional(),
});
export type TimelineRowSummary = z.infer<typeof timelineRowSummary>;
export const timelineWindowResponse = z.strictObject({
  /** Rows shown (group headers counted, collapsed groups' rows not). */
  totalRows: z.number().int(),
  /** Subject + predicate rows in all, shown or not. */
  totalSlots: z.number().int(),
  collapsedByDefault: z.boolean(),
  rows: z.array(timelineRowSummary),
  /** The earliest start and latest start or end of every row. */
  first: isoTime.nullable(),
  last: isoTime.nullable(),
  /** Starts and ends counted in equal spans of [first, last]: Fit skips long empty spans by it. */
  density: z.strictObject({ from: isoTime, to: isoTime, counts: z.array(z.number().int()) }).nullable(),
});
export type TimelineWindowResponse = z.infer<typeof timelineWindowResponse>;

/**
 * A time as a person types it into a form or a command: ISO-8601 ("2026-09-01", with or without a
 * time and zone) or a phrase ("yesterday", "先週", "March 2026"). The engine reads it in the user's
 * zone at the moment of the call, with its precision (a date is a day, "March" a month).
 */
export const timeInput = z
  .string()
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(100, { error: 'must be at most 100 characters' })
  .describe('ISO-8601 time, or a phrase such as "yesterday", "先週", "March 2026" (read in the user\'s time zone)');

/**
 * The page's locale (BCP 47, "en-US", "ja-JP"), for the times a refusal says ("True until (Aug 1,
 * 2026) must be after true from (Sep 1, 2026)"), as the page says every other time; absent: en-GB.
 */
export const locale = z
  .string()
  .max(35)
  .refine((tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false;
    }
  }, { error: 'must be a language tag like en-US or ja-JP' });

export const editFactRequest = z.strictObject({
  id,
  fact: z.string().min(1).max(4000).optional(),
  object: z.string().min(1).max(2000).optional(),
  valid_at: timeInput.optional(),
  /** null reopens a closed fact. */
  invalid_at: timeInput.nullable().optional(),
  locale: locale.optional(),
});
export const closeFactRequest = z.strictObject({ id, at: timeInput, locale: locale.optional() });
/**
 * A moment typed into a screen's time field (as-of, known-at), read in the user's zone, now, with its
 * precision; a day, month or year means its end, or now while it lasts (so "today" is now). Refused
 * with an invalid_input error naming `field`.
 */
export const readTimeRequest = z.strictObject({ text: timeInput, field: z.string().min(1).max(100).optional() });
export const readTimeResponse = z.strictObject({
  at: isoTime,
  precision,
  /** The moment is now and follows the clock: "now", or a day, month or year that holds now ("today", 今日). */
  now: z.boolean(),
});
export type ReadTimeResponse = z.infer<typeof readTimeResponse>;

/** The zone every time is shown and read in, and where that choice comes from. */
export const timeSettings = z.strictObject({
  timeZone: z.string(),
  source: z.enum(['setting', 'environment', 'system']),
  systemTimeZone: z.string(),
  /** $TEMPORA_TZ when it is set but names no zone (ignored); null otherwise. */
  ignoredEnvironment: z.string().nullable(),
});
export type TimeSettings = z.infer<typeof timeSettings>;
/** The desktop app's MCP over Streamable HTTP: on or off, and when on the URL and token to give another agent. */
export const mcpStatus = z.strictObject({
  enabled: z.boolean(),
  url: z.string().nullable(),
  token: z.string().nullable(),
  /** Set where this switch is not here (the browser, over `tempora serve`): why, in words, shown as a note. */
  unavailable: z.string().max(500).optional(),
  /** Something the user should know about this start, in words (the kept port was taken, so the URL changed). */
  notice: z.string().max(500).optional(),
});
export type McpStatus = z.infer<typeof mcpStatus>;
/** Other agents Tempora can add itself to (Settings → Connect an agent; `tempora mcp connect CLIENT`). */
export const mcpClientId = z.enum(['claude-desktop', 'cursor', 'vscode', 'lm-studio', 'jan']);
export type McpClientId = z.infer<typeof mcpClientId>;
/** How the agent reaches Tempora: it starts the installed command (stdio), or calls the app's MCP over HTTP with its token. */
export const mcpWay = z.enum(['stdio', 'http']);
export type McpWay = z.infer<typeof mcpWay>;
/** One agent as found on this system: its config file, the Tempora entry in it now, and the entry each way would write. */
export const agentClient = z.strictObject({
  client: mcpClientId,
  title: z.string(),
  file: z.string(),
  /** Whether the client's folder exists (it makes it at first start); when not, `problem` says so. */
  installed: z.boolean(),
  /** Why the file cannot be changed as it is (not installed, not JSON …), in words; nothing is written while it stands. */
  problem: z.string().nullable(),
  /** The Tempora entry in the file now: none, the one each way would write, or another. */
  current: z.enum(['none', 'stdio', 'http', 'other']),
  /** The entry each way writes, as JSON text; http is null where it is not offered, and httpNote says why. */
  entries: z.strictObject({ stdio: z.string(), http: z.string().nullable() }),
  httpNote: z.string().nullable(),
});
export type AgentClient = z.infer<typeof agentClient>;
/** What Connect or Remove did: the client as it is now, whether the file changed, the backup of the old file, in words. */
export const agentChange = z.strictObject({ client: agentClient, changed: z.boolean(), backup: z.string().nullable(), message: z.string() });
export type AgentChange = z.infer<typeof agentChange>;
/** Where the memory lives on this computer: the data directory (memory.sqlite, vectors, settings) and the models folder. */
export const memoryLocation = z.strictObject({ dataDir: z.string(), modelsDir: z.string() });
export type MemoryLocation = z.infer<typeof memoryLocation>;
/** What a forget removed; entityNames: the removed entities' names, in entityIds' order (a name only forgotten facts held goes with them). */
export const forgotten = z.strictObject({ factIds: z.array(id), entityIds: z.array(id), entityNames: z.array(z.string()), episodeIds: z.array(id) });
/** A message a fact came from, and how many other facts it is also the source of. */
export const factSource = z.strictObject({
  id,
  role: episodeRecord.shape.role,
  conversation_id: id.nullable(),
  reference_time: isoTime,
  excerpt: z.string(),
  otherFacts: z.number().int().min(0),
});
export type FactSource = z.infer<typeof factSource>;
export const forgetFactRequest = z.strictObject({
  id,
  /** Also delete the messages it came from that are the source of nothing else. */
  withSources: z.boolean().optional(),
});
export const forgetFactResponse = forgotten.extend({
  sources: z.strictObject({ deleted: z.array(factSource), kept: z.array(factSource.extend({ reason: z.string() })) }),
});
export type ForgetFactResponse = z.infer<typeof forgetFactResponse>;

export const importPreview = z.strictObject({
  valid: z.boolean(),
  /** What is wrong with the file, naming the field, when not valid. */
  error: z.string().nullable(),
  conversations: z.number().int(),
  episodes: z.number().int(),
  entities: z.number().int(),
  facts: z.number().int(),
  /** Ids that already exist here (import refuses them unless replace). */
  clashes: z.number().int(),
  /** Entities of the file here already under another id (the user, the same name): the import joins their facts to those. */
  joins: z.number().int(),
});
export type ImportPreview = z.infer<typeof importPreview>;
export const importSummary = z.strictObject({
  conversations: z.number().int(),
  episodes: z.number().int(),
  entities: z.number().int(),
  facts: z.number().int(),
  replaced: z.number().int(),
  merged: z.number().int(),
  queued: z.number().int().describe('messages still to be learned where they were exported, queued here to be learned in the background'),
});

// ---------- chat ----------
/** learn: false — "don't learn from this conversation": its messages are kept and never learned. */
export const conversationSummary = conversationRecord.extend({ updated_at: isoTime, message_count: z.number().int(), learn: z.boolean() });
export type ConversationSummary = z.infer<typeof conversationSummary>;
/** learning: what the message taught and where its learning stands (null: not for learning, e.g. an answer). */
export const chatMessage = episodeRecord.extend({ fact_ids: z.array(id), learning: messageLearning.nullable().optional() });
export type ChatMessageRecord = z.infer<typeof chatMessage>;

export const sendMessageRequest = z.strictObject({
  conversationId: id,
  /** Chosen by the client, so it can match streamed events to this turn. */
  turnId: z.string().min(8).max(64),
  content: z.string().min(1).max(20_000).optional(),
  regenerate: z.boolean().optional(),
});
export const sendMessageResponse = z.strictObject({
  userMessage: episodeRecord,
  assistantMessage: chatMessage.nullable(),
  stopped: z.boolean(),
  factIds: z.array(id),
  retrievalMs: z.number(),
});

// ---------- models ----------
export const fitLabel = z.enum(['fits', 'may_be_slow', 'wont_fit']);
export const modelRole = z.enum(['chat', 'embedding']);
export const loadedModel = z.strictObject({ role: modelRole, path: z.string(), name: z.string().nullable(), sizeBytes: z.number(), contextSize: z.number(), embeddingLength: z.number(), threads: z.number() });
export const catalogueEntry = z.strictObject({
  id,
  name: z.string(),
  role: modelRole,
  sizeBytes: z.number(),
  ramBytes: z.number(),
  fit: fitLabel,
  notes: z.string(),
  /** Where it is on disk once downloaded (null before). */
  path: z.string().nullable(),
  /** A partial download that can be resumed. */
  partial: z.boolean(),
  /** The one model suggested for this machine: the best chat model that fits (listed first). */
  recommended: z.boolean(),
});
export type CatalogueEntry = z.infer<typeof catalogueEntry>;
export const queueCounts = z.strictObject({ pending: z.number().int(), running: z.number().int(), done: z.number().int(), parked: z.number().int() });
export const modelStatus = z.strictObject({
  chat: loadedModel.nullable(),
  embedding: loadedModel.nullable(),
  totalRamBytes: z.number(),
  modelsDir: z.string(),
  ingestion: queueCounts,
  /** The last model error (a failed load, say), for the Models screen. */
  lastError: z.string().nullable(),
});
export type ModelStatus = z.infer<typeof modelStatus>;

/** Every call of the API, keyed by the name the renderer uses. */
export const apiCalls = {
  listFacts: { channel: 'memory:listFacts', request: listFactsRequest, response: listFactsResponse },
  search: { channel: 'memory:search', request: searchRequest, response: searchResponse },
  factDetails: { channel: 'memory:factDetails', request: z.strictObject({ id }), response: factDetails },
  timelineWindow: { channel: 'memory:timelineWindow', request: timelineWindowRequest, response: timelineWindowResponse },
  /** "What changed", newest first, a page at a time (shared/change-feed-contract.ts). */
  changeFeed: { channel: 'memory:changeFeed', request: changeFeedRequest, response: changeFeedResponse },
  /** Every value a fact's slot held, newest first, a page at a time. */
  slotHistory: { channel: 'memory:slotHistory', request: slotHistoryRequest, response: slotHistoryResponse },
  editFact: { channel: 'memory:editFact', request: editFactRequest, response: factRecord },
  closeFact: { channel: 'memory:closeFact', request: closeFactRequest, response: factRecord },
  forgetFact: { channel: 'memory:forgetFact', request: forgetFactRequest, response: forgetFactResponse },
  /** The messages a fact came from, for the Forget dialog: which would go with it, which stay. */
  factSources: { channel: 'memory:factSources', request: z.strictObject({ id }), response: z.array(factSource) },
  forgetEntity: { channel: 'memory:forgetEntity', request: z.strictObject({ entity: z.string().min(1).max(500) }), response: forgotten },
  listEntities: { channel: 'memory:listEntities', request: empty, response: z.array(entityRecord) },
  /** A page of names for a filter as the user types (suggestNamesRequest): never every entity. */
  suggestNames: { channel: 'memory:suggestNames', request: suggestNamesRequest, response: z.array(nameSuggestion) },
  /** The whole document in one answer: small memories and tests only (a large one is longer than a string); the screens stream it (exportBegin). */
  exportMemory: { channel: 'memory:export', request: empty, response: memoryExport },
  /** An export pulled a piece at a time from one snapshot (shared/export-download.ts): the way the screens export, any size. */
  exportBegin: { channel: 'memory:exportBegin', request: empty, response: exportBeginResponse },
  exportRead: { channel: 'memory:exportRead', request: exportRef, response: exportReadResponse },
  exportCancel: { channel: 'memory:exportCancel', request: exportRef, response: ok },
  previewImport: { channel: 'memory:previewImport', request: z.strictObject({ document: z.unknown() }), response: importPreview },
  importMemory: { channel: 'memory:import', request: z.strictObject({ document: z.unknown(), replace: z.boolean().optional() }), response: importSummary },
  /** An export uploaded in chunks to a staged file (shared/import-upload.ts), previewed and imported from it: the way the screens import, any size. */
  uploadImportFile: { channel: 'memory:uploadImportFile', request: uploadChunkRequest, response: uploadChunkResponse },
  previewImportUpload: { channel: 'memory:previewImportUpload', request: importUploadRef, response: importPreview },
  importUpload: { channel: 'memory:importUpload', request: importUploadRequest, response: importSummary },
  cancelImportUpload: { channel: 'memory:cancelImportUpload', request: importUploadRef, response: ok },

  listConversations: { channel: 'chat:listConversations', request: empty, response: z.array(conversationSummary) },
  createConversation: { channel: 'chat:createConversation', request: z.strictObject({ title: z.string().min(1).max(500).optional() }), response: conversationSummary },
  renameConversation: { channel: 'chat:renameConversation', request: z.strictObject({ id, title: z.string().min(1).max(500) }), response: ok },
  deleteConversation: { channel: 'chat:deleteConversation', request: z.strictObject({ id, forget: z.boolean() }), response: z.strictObject({ forgottenFacts: z.number().int(), keptMessages: z.number().int() }) },
  /**
   * A conversation's messages, oldest first: all of them, or the latest `limit` (the chat asks for a
   * page and more on request); `from` (a message linked to) reaches back to a few before that one.
   */
  conversationMessages: {
    channel: 'chat:messages',
    request: z.strictObject({ id, limit: z.number().int().min(1).max(10_000).optional(), from: id.optional() }),
    response: z.array(chatMessage),
  },
  sendMessage: { channel: 'chat:send', request: sendMessageRequest, response: sendMessageResponse },
  stopMessage: { channel: 'chat:stop', request: z.strictObject({ turnId: z.string().min(8).max(64) }), response: ok },

  modelStatus: { channel: 'models:status', request: empty, response: modelStatus },
  listCatalogue: { channel: 'models:catalogue', request: empty, response: z.array(catalogueEntry) },
  downloadModel: { channel: 'models:download', request: z.strictObject({ id }), response: z.strictObject({ path: z.string() }) },
  cancelDownload: { channel: 'models:cancelDownload', request: z.strictObject({ id }), response: ok },
  /** Downloads in progress (the core keeps them: leaving the Models screen or reloading loses nothing). */
  listDownloads: { channel: 'models:downloads', request: empty, response: z.array(z.strictObject({ id, downloadedBytes: z.number(), totalBytes: z.number() })) },
  loadModel: { channel: 'models:load', request: z.strictObject({ role: modelRole, path: z.string().min(1).max(4096) }), response: loadedModel },
  unloadModel: { channel: 'models:unload', request: z.strictObject({ role: modelRole }), response: ok },
  /** Opens a file dialog (Electron only; the bridge answers null: type a path instead). */
  pickModelFile: { channel: 'models:pickFile', request: empty, response: z.strictObject({ path: z.string().nullable() }) },
  timeSettings: { channel: 'app:timeSettings', request: empty, response: timeSettings },
  /** A time as typed, read in the user's zone (readTimeRequest). */
  readTime: { channel: 'app:readTime', request: readTimeRequest, response: readTimeResponse },
  /** When the memory first recorded a fact (null: it holds none), for empty states that say why. */
  firstRecorded: { channel: 'memory:firstRecorded', request: empty, response: z.strictObject({ at: isoTime.nullable() }) },
  /** null: follow $TEMPORA_TZ, else the system's zone. */
  setTimeZone: { channel: 'app:setTimeZone', request: z.strictObject({ timeZone: z.string().trim().min(1).max(100).nullable() }), response: timeSettings },
  /** The desktop app only: `tempora serve` serves MCP at /mcp itself (the bridge answers an error). */
  mcpStatus: { channel: 'app:mcpStatus', request: empty, response: mcpStatus },
  setMcpEnabled: { channel: 'app:setMcpEnabled', request: z.strictObject({ enabled: z.boolean() }), response: mcpStatus },
  /** A new MCP token, kept for the next starts; the old one is refused at once. */
  rotateMcpToken: { channel: 'app:rotateMcpToken', request: empty, response: mcpStatus },
  /** The agents found on this system and Tempora's entry in each config (Settings → Connect an agent). */
  agentClients: {
    channel: 'app:agentClients',
    request: empty,
    /** commandOnPath: where "Put tempora on the PATH" writes the command (the app on macOS and Windows); null where it is not offered. */
    response: z.strictObject({ clients: z.array(agentClient), commandOnPath: z.strictObject({ dir: z.string() }).nullable() }),
  },
  /** Writes the `tempora` command into a folder on the PATH (macOS, Windows), saying whether that folder is on it. */
  putCommandOnPath: { channel: 'app:putCommandOnPath', request: empty, response: z.strictObject({ file: z.string(), onPath: z.boolean(), message: z.string() }) },
  /** Writes Tempora's entry into the agent's config, after a backup of the old file; a file that is not JSON is never touched. */
  connectAgent: { channel: 'app:connectAgent', request: z.strictObject({ client: mcpClientId, way: mcpWay }), response: agentChange },
  disconnectAgent: { channel: 'app:disconnectAgent', request: z.strictObject({ client: mcpClientId }), response: agentChange },
  memoryLocation: { channel: 'app:memoryLocation', request: empty, response: memoryLocation },
  retryParkedJobs: { channel: 'ingestion:retryParked', request: empty, response: z.strictObject({ retried: z.number().int() }) },
  /** ChatGPT / Claude history import (shared/chat-import.ts). pickChatExport: Electron's dialog (the bridge answers null: upload instead). */
  pickChatExport: { channel: 'history:pickFile', request: empty, response: z.strictObject({ path: z.string().nullable() }) },
  uploadChatExport: { channel: 'history:upload', request: uploadChunkRequest, response: uploadChunkResponse },
  previewChatImport: { channel: 'history:preview', request: chatImportRequest, response: chatImportReport },
  importChats: { channel: 'history:import', request: chatImportRequest, response: chatImportReport },
  backfillStatus: { channel: 'ingestion:backfill', request: empty, response: backfillStatus },
  setBackfillPaused: { channel: 'ingestion:setBackfillPaused', request: z.strictObject({ paused: z.boolean() }), response: backfillStatus },
  cancelBackfill: { channel: 'ingestion:cancelBackfill', request: empty, response: z.strictObject({ cancelled: z.number().int(), status: backfillStatus }) },
  /** Takes a cancel back: the cancelled imported messages wait to be learned again. */
  requeueBackfill: { channel: 'ingestion:requeueBackfill', request: empty, response: z.strictObject({ requeued: z.number().int(), status: backfillStatus }) },
  /** Review before remembering (shared/review-contract.ts): off by default; the setting lives in the memory. */
  reviewSettings: { channel: 'review:settings', request: empty, response: reviewSettings },
  setReviewBeforeRemembering: { channel: 'review:setEnabled', request: z.strictObject({ enabled: z.boolean() }), response: reviewSettings },
  pendingReviews: { channel: 'review:pending', request: empty, response: z.array(pendingReview) },
  approveReview: { channel: 'review:approve', request: approveReviewRequest, response: reviewDecision },
  rejectReview: { channel: 'review:reject', request: z.strictObject({ episodeId: z.string().min(1).max(200) }), response: reviewDecision },
  /** What a message taught the memory and where its learning stands (shared/learning-contract.ts). */
  messageLearning: { channel: 'learning:message', request: z.strictObject({ episodeId: id }), response: messageLearning.nullable() },
  /** Takes back what a message taught, in one write; the message stays and is never learned again. */
  undoLearning: { channel: 'learning:undo', request: z.strictObject({ episodeId: id }), response: undoReport },
  /** After Undo: applies the same learning again, in one write, without the model; the message's learning as it now stands. */
  redoLearning: { channel: 'learning:redo', request: z.strictObject({ episodeId: id }), response: messageLearning },
  /** learn: false keeps the conversation's messages unlearned; forget: also take back what was learned from it. */
  setConversationLearning: {
    channel: 'chat:setLearning',
    request: z.strictObject({ id, learn: z.boolean(), forget: z.boolean().optional() }),
    response: z.strictObject({ learn: z.boolean(), undoneMessages: z.number().int(), forgottenFacts: z.number().int() }),
  },
  /** Settings → Sync (shared/sync-contract.ts): the target without its secrets, this device, and the sync core's status. */
  syncState: { channel: 'sync:state', request: empty, response: syncState },
  /** Checks the target and the passphrase against its key check before anything is kept; a wrong one changes nothing. */
  saveSync: { channel: 'sync:save', request: saveSyncRequest, response: syncState },
  syncNow: { channel: 'sync:now', request: empty, response: syncNowResponse },
  setSyncPaused: { channel: 'sync:setPaused', request: z.strictObject({ paused: z.boolean() }), response: syncState },
  listParkedMessages: { channel: 'ingestion:parkedMessages', request: empty, response: z.array(parkedMessage) },
  /** Puts one parked message back in the queue. */
  retryParkedMessage: { channel: 'ingestion:retryParkedMessage', request: z.strictObject({ episodeId: id }), response: ok },
} as const;

export type ApiCallName = keyof typeof apiCalls;
export type ApiRequest<N extends ApiCallName> = z.input<(typeof apiCalls)[N]['request']>;
export type ApiResponse<N extends ApiCallName> = z.infer<(typeof apiCalls)[N]['response']>;

/** Events the core pushes to every window / bridge client. */
export const apiEvents = {
  chatToken: z.strictObject({ turnId: z.string(), text: z.string() }),
  chatContext: z.strictObject({ turnId: z.string(), factIds: z.array(id), retrievalMs: z.number(), note: z.string().nullable() }),
  ingestionProgress: z.strictObject({ counts: queueCounts, lastError: z.string().nullable() }),
  downloadProgress: z.strictObject({ id, downloadedBytes: z.number(), totalBytes: z.number(), done: z.boolean(), error: z.string().nullable() }),
  chatImportProgress,
  importUploadProgress,
  /** A running "sync now": how far it is, after each segment (Settings → Sync). */
  syncProgress,
  /**
   * What changed, where the memory knows (electron/memory's change-scope.ts): factIds are the facts
   * whose page may show something new, entityIds their subjects and objects. An absent list: anything
   * may have changed (an import, a forget); an empty one: nothing of that kind did.
   */
  memoryChanged: z.strictObject({
    reason: z.string(),
    factIds: z.array(id).optional(),
    entityIds: z.array(id).optional(),
    episodeIds: z.array(id).optional(),
    conversationIds: z.array(id).optional(),
  }),
  /** A message was learned (or its learning undone): what it changed. */
  messageLearned: z.strictObject({ conversationId: id.nullable(), episodeId: id, learning: messageLearning }),
  modelsChanged: z.strictObject({}),
} as const;
export type ApiEventName = keyof typeof apiEvents;
export type ApiEvent<N extends ApiEventName> = z.infer<(typeof apiEvents)[N]>;
export const EVENT_CHANNEL = 'tempora:event';
/** The envelope events travel in (IPC and bridge alike). */
export type ApiEventEnvelope = { [N in ApiEventName]: { name: N; payload: ApiEvent<N> } }[ApiEventName];

/** Checks an envelope: a known event name with a payload that matches that event's schema. */
export const apiEventEnvelope = envelopeSchema();

function envelopeSchema(): z.ZodType<ApiEventEnvelope> {
  const options = (Object.keys(apiEvents) as ApiEventName[]).map((name) => z.object({ name: z.literal(name), payload: apiEvents[name] }));
  return z.discriminatedUnion('name', options as [(typeof options)[number], ...(typeof options)[number][]]) as unknown as z.ZodType<ApiEventEnvelope>;
}

/** What the preload exposes as `window.tempora`, and what any other transport must implement. */
export type TemporaApi = { [N in ApiCallName]: (request: ApiRequest<N>) => Promise<ApiResponse<N>> } & {
  /** Subscribes to core events; returns the unsubscribe function. */
  onEvent(listener: (event: ApiEventEnvelope) => void): () => void;
};

/**
 * What the preload really exposes as `window.tempora`: each call resolves to its outcome (see
 * shared/api-error.ts), never rejects with the call's error, because an Error loses its code and
 * field on the way from main to the page (ipcMain.handle keeps only the message, and so does
 * contextBridge). renderer/src/api turns it back into a TemporaApi whose calls throw ApiError.
 */
export type TemporaIpcApi = { [N in ApiCallName]: (request: ApiRequest<N>) => Promise<ApiOutcome<ApiResponse<N>>> } & Pick<TemporaApi, 'onEvent'>;

/** The global name under which the preload exposes the API. */
export const API_GLOBAL = 'tempora';
