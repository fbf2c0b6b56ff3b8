/**
 * The API calls of importing a Tempora export uploaded in chunks (shared/import-upload.ts), the way
 * the Export / Import screen imports over IPC and the bridge alike: each chunk is appended to a
 * file staged in <dataDir>/uploads (chat-uploads.ts, the same staging as a chat history's); the
 * preview and the import read that file record by record (memory's previewFile, importFile), never
 * holding it whole; the staged file is removed once imported, on cancel, and a day after its last chunk when
 * the next upload starts. Part of createApiHandlers.
 */
import { join } from 'node:path';
import type { z } from 'zod';
import type { ApiResponse, apiCalls } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import { NotJsonError, ReadCancelled, type ImportProgress, type RecordProgress } from '../memory/index';
import { ChatUploads } from './chat-uploads';
import type { TemporaEngine } from './engine';

type ImportUploadCalls = 'uploadImportFile' | 'previewImportUpload' | 'importUpload' | 'cancelImportUpload';
type ImportUploadHandlers = { [N in ImportUploadCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

/** At most this often a reading progress is pushed (the last one always). */
const PROGRESS_EVERY_MS = 150;

export function importUploadHandlers(engine: TemporaEngine): ImportUploadHandlers {
  const memory = engine.memory;
  const uploads = new ChatUploads(join(engine.options.dataDir, 'uploads'));
  /** The staged file being read, with the means to stop it (cancel). One at a time. */
  let reading: { uploadId: string; stop: AbortController } | null = null;

  const progress = (uploadId: string, phase: 'reading' | 'importing', bytes: number, totalBytes: number) =>
    engine.emit({ name: 'importUploadProgress', payload: { uploadId, phase, bytes, totalBytes } });

  /**
   * Runs `work` on the staged file with a signal (cancel) and a progress callback: reading while the
   * file is read or checked, importing while it is written (one transaction, told as it begins).
   */
  const withStaged = async <T>(uploadId: string, work: (path: string, signal: AbortSignal, onProgress: (p: ImportProgress | RecordProgress) => void) => Promise<T>): Promise<T> => {
    if (reading) throw new ApiError('invalid_input', 'another export is being read: wait for it to finish, or cancel it', { field: 'uploadId' });
    const path = uploads.pathOf({ uploadId });
    reading = { uploadId, stop: new AbortController() };
    let told = 0;
    let toldPhase = '';
    const onProgress = (p: ImportProgress | RecordProgress) => {
      const phase = 'phase' in p && p.phase === 'writing' ? 'importing' : 'reading';
      const now = Date.now();
      if (phase === toldPhase && p.bytes < p.totalBytes && now - told < PROGRESS_EVERY_MS) return;
      told = now;
      toldPhase = phase;
      progress(uploadId, phase, p.bytes, p.totalBytes);
    };
    try {
      return await work(path, reading.stop.signal, onProgress);
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
      try {
        // "x.json cannot be imported: it is not JSON: line 4, column 13: …" (the page names the file).
        return await withStaged(uploadId, (path, signal, onProgress) => memory.transfer.previewFile(path, { label: 'it', signal, onProgress }));
      } catch (error) {
        // Not JSON is an answer of the preview (valid: false), as a document of the wrong shape is.
        if (error instanceof NotJsonError) return { valid: false, error: error.message, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0, joins: 0 };
        throw error;
      }
    },
    importUpload: async ({ uploadId, replace }) => {
      // Checked record by record (progress, cancel), then written in one transaction as the file is read again.
      const summary = await withStaged(uploadId, (path, signal, onProgress) => memory.transfer.importFile(path, { label: 'the file', replace, signal, onProgress }));
      uploads.remove({ uploadId });
      engine.worker.notify(); // messages that were still to be learned where it was exported are queued here
      return summary;
    },
    cancelImportUpload: async ({ uploadId }) => {
      if (reading?.uploadId === uploadId) reading.stop.abort();
      uploads.remove({ uploadId });
      return { ok: true as const };
    },
  };
}
