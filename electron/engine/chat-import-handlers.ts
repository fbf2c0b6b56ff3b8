/**
 * The API calls of the ChatGPT / Claude history import and of the backfill queue that learns from
 * it: pick a file (Electron's dialog), upload one in chunks (a browser), preview, import, and the
 * backfill's status, pause / resume, cancel and requeue (a cancel taken back). Part of createApiHandlers.
 */
import type { z } from 'zod';
import type { ApiResponse, apiCalls } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import type { ChatExportFile } from '../../shared/chat-import';
import { ChatExportError } from '../assistant/index';
import { importChatExport, previewChatImport } from './chat-import';
import { ChatUploads } from './chat-uploads';
import type { TemporaEngine } from './engine';
import { join } from 'node:path';

type ChatImportCalls = 'pickChatExport' | 'uploadChatExport' | 'previewChatImport' | 'importChats' | 'backfillStatus' | 'setBackfillPaused' | 'cancelBackfill' | 'requeueBackfill';
type ChatImportHandlers = { [N in ChatImportCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

export function chatImportHandlers(engine: TemporaEngine, pickFile?: () => Promise<string | null>): ChatImportHandlers {
  const memory = engine.memory;
  const uploads = new ChatUploads(join(engine.options.dataDir, 'uploads'));
  let busy = false;

  const read = async <T>(file: ChatExportFile, run: (path: string) => Promise<T>): Promise<T> => {
    if (busy) throw new ApiError('invalid_input', 'an export is being read already: wait for it to finish', { field: 'file' });
    busy = true;
    try {
      return await run(uploads.pathOf(file));
    } catch (error) {
      if (error instanceof ChatExportError) throw new ApiError('invalid_input', error.message, { field: 'file' });
      throw error;
    } finally {
      busy = false;
    }
  };
  const label = (file: ChatExportFile) => ('path' in file ? file.path : 'the uploaded file');
  // The queue changed without a job running: tell the pages (they refresh the queue on this event).
  const told = () => {
    engine.worker.notify();
    engine.emit({ name: 'ingestionProgress', payload: { counts: memory.jobs.counts(), lastError: null } });
  };
  const progress = (stored: boolean) => (p: { conversations: number; messages: number }) => engine.emit({ name: 'chatImportProgress', payload: { stored, ...p } });

  return {
    pickChatExport: async () => ({ path: pickFile ? await pickFile() : null }),
    uploadChatExport: async ({ uploadId, offset, data }) => uploads.append(uploadId, offset, data),
    previewChatImport: ({ file, format }) => read(file, (path) => previewChatImport(memory, path, { format, label: label(file), onProgress: progress(false) })),
    importChats: async ({ file, format }) => {
      const report = await read(file, (path) => importChatExport(memory, path, { format, label: label(file), timeZone: engine.timeZone(), onProgress: progress(true) }));
      uploads.remove(file);
      told();
      return report;
    },
    backfillStatus: async () => memory.history.backfillStatus(),
    setBackfillPaused: async ({ paused }) => {
      memory.history.setBackfillPaused(paused);
      told();
      return memory.history.backfillStatus();
    },
    cancelBackfill: async () => {
      const cancelled = memory.history.cancelBackfill();
      told();
      return { cancelled, status: memory.history.backfillStatus() };
    },
    requeueBackfill: async () => {
      const requeued = memory.history.requeueBackfill();
      told();
      return { requeued, status: memory.history.backfillStatus() };
    },
  };
}
