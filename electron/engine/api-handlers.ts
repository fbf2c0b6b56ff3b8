/**
 * One handler per call of shared/api-contract.ts, over the engine. Both transports — Electron IPC
 * and the loopback bridge — validate the request with the contract's schema, call these, and
 * validate the response. Handlers receive parsed requests only.
 */
import { resolve } from 'node:path';
import type { ApiCallName, ApiResponse, McpStatus } from '../../shared/api-contract';
import { apiCalls } from '../../shared/api-contract';
import type { z } from 'zod';
import type { TemporaEngine } from './engine';
import { searchMemory } from './memory-search';
import { ApiError } from '../../shared/api-error';
import { describeZodError } from '../../shared/memory-schema';
import { describeRequestError, endNotAfterStart, issueField, startNotBeforeEnd } from './api-errors';
import { readEndInput, readMomentInput, readTimeInput } from '../assistant/index';
import type { FactRecord } from '../../shared/memory-schema';
import type { Resolved } from '../memory/index';
import { learningHandlers } from './learning-handlers';
import { chatImportHandlers } from './chat-import-handlers';
import { importUploadHandlers } from './import-upload-handlers';
import { exportHandlers } from './export-handlers';
import { reviewHandlers } from './review-handlers';
import { changeHandlers } from './change-handlers';
import { agentHandlers, type AgentHandlerOptions } from './agent-handlers';
import { syncHandlers } from './sync-handlers';
import type { SecretSealer } from '../sync/sync-secrets';
import type { StdioLaunch } from './agent-configs';

export type ParsedRequest<N extends ApiCallName> = z.output<(typeof apiCalls)[N]['request']>;
export type ApiHandlers = { [N in ApiCallName]: (request: ParsedRequest<N>) => Promise<ApiResponse<N>> };

export interface HandlerOptions {
  /** How to pick a model file (Electron: a dialog). The bridge has none and answers null. */
  pickModelFile?: () => Promise<string | null>;
  /** How to pick a ChatGPT / Claude export (Electron: a dialog). The bridge has none: the page uploads the file. */
  pickChatExport?: () => Promise<string | null>;
  /** The desktop app's MCP over HTTP (electron/main's McpService). The bridge has none and answers an error. */
  mcp?: { status(): McpStatus; setEnabled(on: boolean): Promise<McpStatus>; rotateToken(): Promise<McpStatus> };
  /** How another agent starts this face's `tempora mcp`, for Settings → Connect an agent (default: `tempora` on the PATH). */
  agentLaunch?: () => StdioLaunch;
  /** "Put tempora on the PATH" (the desktop app on macOS and Windows). */
  commandOnPath?: AgentHandlerOptions['commandOnPath'];
  /** The system's keychain for sync's kept key (Electron's safeStorage, when it has one); else an owner-only file. */
  secretSealer?: SecretSealer;
}

const NO_MCP_HERE = 'Here in the browser, the tempora serve command itself serves MCP at /mcp, with the token it printed when it started; turning MCP on or off, and a new token, are for the desktop app.';

export function createApiHandlers(engine: TemporaEngine, options: HandlerOptions = {}): ApiHandlers {
  const memory = engine.memory;
  // "memory changed" is not told here: every write of the memory raises it (engine.ts).
  return {
    listFacts: async (r) => memory.facts.page(r),
    search: async (r) => searchMemory(memory, engine.vectors.ranker(), r, engine.timeZone()),
    factDetails: async ({ id }) => memory.facts.details(id),
    timelineWindow: async (r) => memory.facts.timelineWindow(r),
    editFact: async ({ id, valid_at, invalid_at, locale, ...edit }) => {
      const now = memory.clock.now();
      const zone = engine.timeZone();
      const start = valid_at === undefined ? undefined : readTimeInput(valid_at, 'valid_at', now, zone);
      const fact = memory.facts.currentVersionOf(id);
      const end = invalid_at === undefined || invalid_at === null ? undefined : readEndInput(invalid_at, 'invalid_at', now, zone, start?.at ?? fact?.valid_at ?? now);
      checkEndAfterStart(fact, start, end, 'invalid_at', zone, locale);
      const startPastEnd = invalid_at === undefined ? startNotBeforeEnd(fact, start, { start: 'valid_at', end: 'invalid_at', reopen: 'invalid_at null' }, zone, locale) : null;
      if (startPastEnd !== null) throw new ApiError('invalid_input', startPastEnd, { field: 'valid_at' });
      return memory.facts.edit(id, {
        ...edit,
        ...(start ? { valid_at: start.at, valid_at_precision: start.precision } : {}),
        ...(end ? { invalid_at: end.at, invalid_at_precision: end.precision } : invalid_at === null ? { invalid_at: null } : {}),
      });
    },
    closeFact: async ({ id, at, locale }) => {
      const zone = engine.timeZone();
      const end = readTimeInput(at, 'at', memory.clock.now(), zone);
      checkEndAfterStart(memory.facts.currentVersionOf(id), undefined, end, 'at', zone, locale);
      return memory.facts.close(id, end.at, end.precision);
    },
    forgetFact: async ({ id, withSources }) => memory.facts.forget(id, { withSources }),
    factSources: async ({ id }) => memory.facts.sources(id),
    forgetEntity: async ({ entity }) => memory.facts.forgetEntity(entity),
    listEntities: async () => memory.entities.all(),
    suggestNames: async ({ kind, text, limit }) => memory.facts.suggestNames(kind, text, limit),
    exportMemory: async () => memory.transfer.export(),
    previewImport: async ({ document }) => memory.transfer.previewImport(document),
    importMemory: async ({ document, replace }) => {
      const summary = memory.transfer.import(document, { replace });
      engine.worker.notify(); // messages that were still to be learned where it was exported are queued here
      return summary;
    },

    listConversations: async () => memory.conversations.list(),
    createConversation: async ({ title }) => {
      const record = memory.conversations.create(title);
      return { ...record, updated_at: record.created_at, message_count: 0, learn: true };
    },
    renameConversation: async ({ id, title }) => {
      memory.conversations.rename(id, title);
      return { ok: true as const };
    },
    deleteConversation: async ({ id, forget }) => {
      const result = memory.conversations.delete(id, { forget });
      return { forgottenFacts: result.forgottenFacts.length, keptMessages: result.keptMessages };
    },
    conversationMessages: async ({ id, limit, from }) => memory.conversations.messages(id, { limit, from }),
    sendMessage: async ({ conversationId, turnId, content, regenerate }) => {
      const result = await engine.chat(turnId, { conversationId, content, regenerate });
      return {
        userMessage: result.userMessage,
        assistantMessage: result.assistantMessage ? { ...result.assistantMessage, fact_ids: result.factIds } : null,
        stopped: result.stopped,
        factIds: result.factIds,
        retrievalMs: result.retrievalMs,
      };
    },
    stopMessage: async ({ turnId }) => {
      engine.stopTurn(turnId);
      return { ok: true as const };
    },

    timeSettings: async () => engine.timeSettings(),
    readTime: async ({ text, field }) => {
      const now = memory.clock.now();
      const { at, precision } = readMomentInput(text, field ?? 'time', now, engine.timeZone());
      return { at, precision, now: at === now };
    },
    firstRecorded: async () => ({ at: memory.facts.firstRecordedAt() }),
    setTimeZone: async ({ timeZone }) => engine.setTimeZone(timeZone),
    modelStatus: async () => engine.models.status(memory.jobs.counts()),
    listCatalogue: async () => engine.models.entries(),
    downloadModel: async ({ id }) => {
      const progress = (downloadedBytes: number, totalBytes: number, done: boolean, error: string | null) =>
        engine.emit({ name: 'downloadProgress', payload: { id, downloadedBytes, totalBytes, done, error } });
      try {
        const path = await engine.models.download(id, (p) => progress(p.downloadedBytes, p.totalBytes, false, null));
        progress(1, 1, true, null);
        return { path };
      } catch (error) {
        progress(0, 0, true, (error as Error).message);
        throw error;
      }
    },
    listDownloads: async () => engine.models.activeDownloads(),
    cancelDownload: async ({ id }) => {
      engine.models.cancelDownload(id);
      return { ok: true as const };
    },
    loadModel: async ({ role, path }) => {
      const info = await engine.loadModel(role, path);
      return { role: info.role, path: info.path, name: info.name, sizeBytes: info.sizeBytes, contextSize: info.contextSize, embeddingLength: info.embeddingLength, threads: info.threads };
    },
    unloadModel: async ({ role }) => {
      await engine.unloadModel(role);
      return { ok: true as const };
    },
    pickModelFile: async () => ({ path: options.pickModelFile ? await options.pickModelFile() : null }),
    // Without the app's MCP (the bridge) the switch is not here: a note saying why, not an error.
    mcpStatus: async () => options.mcp?.status() ?? { enabled: false, url: null, token: null, unavailable: NO_MCP_HERE },
    setMcpEnabled: async ({ enabled }) => {
      if (!options.mcp) throw new ApiError('invalid_input', NO_MCP_HERE);
      return options.mcp.setEnabled(enabled);
    },
    rotateMcpToken: async () => {
      if (!options.mcp) throw new ApiError('invalid_input', NO_MCP_HERE);
      return options.mcp.rotateToken();
    },
    memoryLocation: async () => ({ dataDir: resolve(engine.options.dataDir), modelsDir: resolve(engine.models.modelsDir) }),
    ...learningHandlers(engine),
    ...chatImportHandlers(engine, options.pickChatExport),
    ...importUploadHandlers(engine),
    ...exportHandlers(engine),
    ...reviewHandlers(engine),
    ...changeHandlers(engine),
    ...syncHandlers(engine, options.secretSealer ?? null),
    ...agentHandlers({
      ...(options.agentLaunch ? { launch: options.agentLaunch } : {}),
      ...(options.mcp ? { mcp: options.mcp } : {}),
      ...(options.commandOnPath ? { commandOnPath: options.commandOnPath } : {}),
    }),
    retryParkedJobs: async () => {
      const retried = memory.jobs.retryParked();
      engine.worker.notify();
      return { retried };
    },
  };
}

/** An end at or before the fact's start, refused in words with both times in the user's zone. */
function checkEndAfterStart(fact: FactRecord | undefined, start: Resolved | undefined, end: Resolved | undefined, field: 'invalid_at' | 'at', zone: string, locale?: string): void {
  const message = endNotAfterStart(fact, start, end, field, zone, locale);
  if (message !== null) throw new ApiError('invalid_input', message, { field });
}

/**
 * Validates a request, runs its handler, validates the response: the one path every transport
 * takes. Its own failures are ApiErrors (unknown_call; invalid_request naming the field;
 * invalid_response); a handler's errors pass through, for the edge to convert (api-errors.ts).
 */
export async function dispatchCall(handlers: ApiHandlers, name: string, payload: unknown): Promise<unknown> {
  if (!Object.hasOwn(apiCalls, name)) throw new ApiError('unknown_call', `unknown call ${JSON.stringify(name)}`);
  const call = apiCalls[name as ApiCallName];
  const parsed = call.request.safeParse(payload ?? {});
  if (!parsed.success) throw new ApiError('invalid_request', describeRequestError(name, parsed.error), { field: issueField(parsed.error) });
  const handler = handlers[name as ApiCallName] as (request: unknown) => Promise<unknown>;
  const result = await handler(parsed.data);
  const checked = call.response.safeParse(result);
  if (!checked.success) throw new ApiError('invalid_response', `${name}: invalid response: ${describeZodError(checked.error)}`);
  return checked.data;
}
