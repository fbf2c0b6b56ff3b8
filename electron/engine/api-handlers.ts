/**
 * One handler per call of shared/api-contract.ts, over the engine. Both transports — Electron IPC
 * and the loopback bridge — validate the request with the contract's schema, call these, and
 * validate the response. Handlers receive parsed requests only.
 */
import type { ApiCallName, ApiResponse } from '../../shared/api-contract';
import { apiCalls } from '../../shared/api-contract';
import type { z } from 'zod';
import { conversationMessages, deleteConversation, listConversations, renameConversation } from '../memory/store/conversations';
import { parseExport } from '../memory/transfer/memory-import';
import type { TemporaEngine } from './engine';

export type ParsedRequest<N extends ApiCallName> = z.output<(typeof apiCalls)[N]['request']>;
export type ApiHandlers = { [N in ApiCallName]: (request: ParsedRequest<N>) => Promise<ApiResponse<N>> };

export interface HandlerOptions {
  /** How to pick a model file (Electron: a dialog). The bridge has none and answers null. */
  pickModelFile?: () => Promise<string | null>;
}

export function createApiHandlers(engine: TemporaEngine, options: HandlerOptions = {}): ApiHandlers {
  const memory = engine.memory;
  const changed = (reason: string) => engine.emit({ name: 'memoryChanged', payload: { reason } });
  return {
    listFacts: async (r) => memory.listFacts(r),
    search: async (r) => {
      const result = await engine.retrieve(r.query, { asOf: r.asOf, knownAt: r.knownAt, history: r.history, limit: r.limit });
      return { hits: result.hits, vectorsUsed: result.vectorsUsed, note: result.note, history: result.intent.history };
    },
    factDetails: async ({ id }) => {
      const details = memory.provenance(id);
      const closed = memory.listFacts({ history: true }).filter((f) => f.invalidated_by !== null && details.versions.some((v) => v.id === f.invalidated_by) && f.expired_at === null);
      return { ...details, closed };
    },
    editFact: async ({ id, ...edit }) => {
      const fact = memory.editFact(id, edit);
      changed('edit');
      return fact;
    },
    closeFact: async ({ id, at }) => {
      const fact = memory.closeFact(id, at);
      changed('close');
      return fact;
    },
    forgetFact: async ({ id }) => {
      const result = memory.forgetFact(id);
      changed('forget');
      return result;
    },
    forgetEntity: async ({ entity }) => {
      const result = memory.forgetEntity(entity);
      changed('forget');
      return result;
    },
    listEntities: async () => memory.entities.all(),
    exportMemory: async () => memory.exportMemory(),
    previewImport: async ({ document }) => {
      try {
        const doc = parseExport(document);
        const exists = (table: string, ids: string[]) =>
          ids.length === 0 ? 0 : (memory.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`).get(JSON.stringify(ids)) as { n: number }).n;
        const clashes =
          exists('conversations', doc.conversations.map((c) => c.id)) + exists('episodes', doc.episodes.map((e) => e.id)) + exists('entities', doc.entities.map((e) => e.id)) + exists('facts', doc.facts.map((f) => f.id));
        return { valid: true, error: null, conversations: doc.conversations.length, episodes: doc.episodes.length, entities: doc.entities.length, facts: doc.facts.length, clashes };
      } catch (error) {
        return { valid: false, error: (error as Error).message, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0 };
      }
    },
    importMemory: async ({ document, replace }) => {
      const summary = memory.importMemory(document, { replace });
      changed('import');
      return summary;
    },

    listConversations: async () => listConversations(memory),
    createConversation: async ({ title }) => {
      const record = memory.episodes.createConversation(title ?? 'New conversation');
      return { ...record, updated_at: record.created_at, message_count: 0 };
    },
    renameConversation: async ({ id, title }) => {
      renameConversation(memory, id, title);
      return { ok: true as const };
    },
    deleteConversation: async ({ id, forget }) => {
      const result = deleteConversation(memory, id, { forget });
      changed('conversation deleted');
      return { forgottenFacts: result.forgottenFacts.length, keptMessages: result.keptMessages };
    },
    conversationMessages: async ({ id }) => conversationMessages(memory, id),
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
    retryParkedJobs: async () => {
      const retried = memory.jobs.retryParked();
      engine.worker.notify();
      return { retried };
    },
  };
}

/** Validates a request, runs its handler, validates the response: the one path every transport takes. */
export async function dispatchCall(handlers: ApiHandlers, name: string, payload: unknown): Promise<unknown> {
  if (!Object.hasOwn(apiCalls, name)) throw new Error(`unknown call ${JSON.stringify(name)}`);
  const call = apiCalls[name as ApiCallName];
  const parsed = call.request.safeParse(payload ?? {});
  if (!parsed.success) throw new Error(`${name}: invalid request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  const handler = handlers[name as ApiCallName] as (request: unknown) => Promise<unknown>;
  const result = await handler(parsed.data);
  const checked = call.response.safeParse(result);
  if (!checked.success) throw new Error(`${name}: invalid response: ${checked.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return checked.data;
}
