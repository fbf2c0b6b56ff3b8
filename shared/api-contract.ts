/**
 * The API between the UI and the app core: every call with its channel, request schema and response
 * schema, and every event the core pushes. Electron main validates each request (and its own
 * response) with these schemas; the loopback bridge does the same; the renderer uses the inferred
 * types through one client with two transports. Nothing here is `any`.
 */
import { z } from 'zod';
import type { ApiOutcome } from './api-error';
import { conversationRecord, entityRecord, episodeRecord, factRecord, isoTime, memoryExport, precision } from './memory-schema';

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
  /** Include closed facts and expired versions. */
  history: z.boolean().optional(),
  limit: z.number().int().min(1).max(200_000).optional(),
  offset: z.number().int().min(0).optional(),
});
export type ListFactsRequest = z.infer<typeof listFactsRequest>;
export const listFactsResponse = z.array(factRecord);
export type ListFactsResponse = z.infer<typeof listFactsResponse>;

export const scorePart = z.enum(['text', 'entity', 'episode', 'vector']);
export const searchRequest = z.strictObject({
  query: z.string().min(1).max(2000),
  asOf: isoTime.optional(),
  knownAt: isoTime.optional(),
  history: z.boolean().optional(),
  limit: z.number().int().min(1).max(200).optional(),
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
});
export type FactDetails = z.infer<typeof factDetails>;

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

export const editFactRequest = z.strictObject({
  id,
  fact: z.string().min(1).max(4000).optional(),
  object: z.string().min(1).max(2000).optional(),
  valid_at: timeInput.optional(),
  /** null reopens a closed fact. */
  invalid_at: timeInput.nullable().optional(),
});
export const closeFactRequest = z.strictObject({ id, at: timeInput });

/** The zone every time is shown and read in, and where that choice comes from. */
export const timeSettings = z.strictObject({
  timeZone: z.string(),
  source: z.enum(['setting', 'environment', 'system']),
  systemTimeZone: z.string(),
});
export type TimeSettings = z.infer<typeof timeSettings>;
/** The desktop app's MCP over Streamable HTTP: on or off, and when on the URL and token to give another agent. */
export const mcpStatus = z.strictObject({ enabled: z.boolean(), url: z.string().nullable(), token: z.string().nullable() });
export type McpStatus = z.infer<typeof mcpStatus>;
export const forgotten = z.strictObject({ factIds: z.array(id), entityIds: z.array(id), episodeIds: z.array(id) });

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
});
export type ImportPreview = z.infer<typeof importPreview>;
export const importSummary = z.strictObject({ conversations: z.number().int(), episodes: z.number().int(), entities: z.number().int(), facts: z.number().int(), replaced: z.number().int(), merged: z.number().int() });

// ---------- chat ----------
export const conversationSummary = conversationRecord.extend({ updated_at: isoTime, message_count: z.number().int() });
export type ConversationSummary = z.infer<typeof conversationSummary>;
export const chatMessage = episodeRecord.extend({ fact_ids: z.array(id) });
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
  editFact: { channel: 'memory:editFact', request: editFactRequest, response: factRecord },
  closeFact: { channel: 'memory:closeFact', request: closeFactRequest, response: factRecord },
  forgetFact: { channel: 'memory:forgetFact', request: z.strictObject({ id }), response: forgotten },
  forgetEntity: { channel: 'memory:forgetEntity', request: z.strictObject({ entity: z.string().min(1).max(500) }), response: forgotten },
  listEntities: { channel: 'memory:listEntities', request: empty, response: z.array(entityRecord) },
  exportMemory: { channel: 'memory:export', request: empty, response: memoryExport },
  previewImport: { channel: 'memory:previewImport', request: z.strictObject({ document: z.unknown() }), response: importPreview },
  importMemory: { channel: 'memory:import', request: z.strictObject({ document: z.unknown(), replace: z.boolean().optional() }), response: importSummary },

  listConversations: { channel: 'chat:listConversations', request: empty, response: z.array(conversationSummary) },
  createConversation: { channel: 'chat:createConversation', request: z.strictObject({ title: z.string().min(1).max(500).optional() }), response: conversationSummary },
  renameConversation: { channel: 'chat:renameConversation', request: z.strictObject({ id, title: z.string().min(1).max(500) }), response: ok },
  deleteConversation: { channel: 'chat:deleteConversation', request: z.strictObject({ id, forget: z.boolean() }), response: z.strictObject({ forgottenFacts: z.number().int(), keptMessages: z.number().int() }) },
  conversationMessages: { channel: 'chat:messages', request: z.strictObject({ id }), response: z.array(chatMessage) },
  sendMessage: { channel: 'chat:send', request: sendMessageRequest, response: sendMessageResponse },
  stopMessage: { channel: 'chat:stop', request: z.strictObject({ turnId: z.string().min(8).max(64) }), response: ok },

  modelStatus: { channel: 'models:status', request: empty, response: modelStatus },
  listCatalogue: { channel: 'models:catalogue', request: empty, response: z.array(catalogueEntry) },
  downloadModel: { channel: 'models:download', request: z.strictObject({ id }), response: z.strictObject({ path: z.string() }) },
  cancelDownload: { channel: 'models:cancelDownload', request: z.strictObject({ id }), response: ok },
  loadModel: { channel: 'models:load', request: z.strictObject({ role: modelRole, path: z.string().min(1).max(4096) }), response: loadedModel },
  unloadModel: { channel: 'models:unload', request: z.strictObject({ role: modelRole }), response: ok },
  /** Opens a file dialog (Electron only; the bridge answers null: type a path instead). */
  pickModelFile: { channel: 'models:pickFile', request: empty, response: z.strictObject({ path: z.string().nullable() }) },
  timeSettings: { channel: 'app:timeSettings', request: empty, response: timeSettings },
  /** null: follow $TEMPORA_TZ, else the system's zone. */
  setTimeZone: { channel: 'app:setTimeZone', request: z.strictObject({ timeZone: z.string().trim().min(1).max(100).nullable() }), response: timeSettings },
  /** The desktop app only: `tempora serve` serves MCP at /mcp itself (the bridge answers an error). */
  mcpStatus: { channel: 'app:mcpStatus', request: empty, response: mcpStatus },
  setMcpEnabled: { channel: 'app:setMcpEnabled', request: z.strictObject({ enabled: z.boolean() }), response: mcpStatus },
  retryParkedJobs: { channel: 'ingestion:retryParked', request: empty, response: z.strictObject({ retried: z.number().int() }) },
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
  memoryChanged: z.strictObject({ reason: z.string() }),
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
