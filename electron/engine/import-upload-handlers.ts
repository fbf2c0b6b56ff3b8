/**
 * The API calls of importing a Tempora export uploaded in chunks (shared/import-upload.ts), the way
 * the Export / Import screen imports over IPC and the bridge alike: each chunk is appended to a
 * file staged in <dataDir>/uploads (chat-uploads.ts, the same staging as a chat history's); the
 * preview and the import stream that file (memory's streamJsonFile), never holding its text as one
 * string; the staged file is removed once imported, on cancel, and a day after its last chunk when
 * the next upload starts. Part of createApiHandlers.
 */
import { join } from 'node:path';
import type { z } from 'zod';
import type { ApiResponse, apiCalls } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import { NotJsonError, ReadCancelled, streamJsonFile } from '../memory/index';
import { ChatUploads } from './chat-uploads';
import type { TemporaEngine } from './engine';

type ImportUploadCalls = 'uploadImportFile' | 'previewImportUpload' | 'importUpload' | 'cancelImportUpload';
type ImportUploadHandlers = { [N in ImportUploadCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

/** At most this often a reading progress is pushed (the last one always). */
const PROGRESS_EVERY_MS = 150;

export function importUploadHandlers(engine: TemporaEngine): ImportUploadHandlers {
  const memory = engine.memory;
  const uploads = new ChatUploads(join(engine.options.dataDir, 'uploads'));
  /** The staged file being read, with the means to stop it (cancel). One at a time: each holds a whole document. */
  let reading: { uploadId: string; stop: AbortController } | null = null;

  const progress = (uploadId: string, phase: 'reading' | 'importing', bytes: number, totalBytes: number) =>
    engine.emit({ name: 'importUploadProgress', payload: { uploadId, phase, bytes, totalBytes } });

  const read = async (uploadId: string, label: string): Promise<unknown> => {
    if (reading) throw new ApiError('invalid_input', 'another export is being read: wait for it to finish, or cancel it', { field: 'uploadId' });
    const path = uploads.pathOf({ uploadId });
    reading = { uploadId, stop: new AbortController() };
    let told = 0;
    try {
      return await streamJsonFile(path, {
        label,
        signal: reading.stop.signal,
        onProgress: ({ bytes, totalBytes }) => {
          const now = Date.now();
          if (bytes < totalBytes && now - told < PROGRESS_EVERY_MS) return;
          told = now;
          progress(uploadId, 'reading', bytes, totalBytes);
        },
      });
    } catch (error) {
      if (error instanceof ReadCancelled) throw new ApiError('invalid_input', 'the import was cancelled', { field: 'uploadId' });
      throw error;
    } finally {
      reading = null;
    }
  };

  return {
    uploadImportFile: async ({ uploadId, offset, data }) => uploads.append(uploadId, offset, data),
    previewImportUpload: async ({ uploadId }) => {
      let document: unknown;
      try {
        // "x.json cannot be imported: it is not JSON: line 4, column 13: …" (the page names the file).
        document = await read(uploadId, 'it');
      } catch (error) {
        // Not JSON is an answer of the preview (valid: false), as a document of the wrong shape is.
        if (error instanceof NotJsonError) return { valid: false, error: error.message, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0 };
        throw error;
      }
      return memory.transfer.previewImport(document);
    },
    importUpload: async ({ uploadId, replace }) => {
      const document = await read(uploadId, 'the file');
      progress(uploadId, 'importing', 0, 0);
      // The import is one synchronous transaction: let the event go out before it starts.
      await new Promise((resolve) => setImmediate(resolve));
      const summary = memory.transfer.import(document, { replace });
      uploads.remove({ uploadId });
      return summary;
    },
    cancelImportUpload: async ({ uploadId }) => {
      if (reading?.uploadId === uploadId) reading.stop.abort();
      uploads.remove({ uploadId });
      return { ok: true as const };
    },
  };
}
