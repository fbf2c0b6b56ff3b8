/**
 * A file sent to the engine in chunks (base64, at most CHAT_UPLOAD_CHUNK_BYTES of bytes each), so
 * that no message passes the bridge's frame limit whatever the file's size: the upload of a chat
 * history and of a memory export. The engine appends each chunk to a staged file (electron/engine/
 * chat-uploads.ts) and answers with the upload's id.
 */
import { CHAT_UPLOAD_CHUNK_BYTES } from '../../../shared/chat-import';

export type SendChunk = (chunk: { uploadId: string | null; offset: number; data: string }) => Promise<{ uploadId: string }>;

export interface UploadOptions {
  /** Told before each chunk and once at the end: bytes sent so far of the whole. */
  onProgress?: (sent: number, total: number) => void;
  /** Told the upload's id as soon as the engine gives it (to cancel it). */
  onId?: (uploadId: string) => void;
  /** Asked after each chunk: true stops the upload (it rejects with UploadStopped). */
  stopped?: () => boolean;
}

export class UploadStopped extends Error {
  constructor() {
    super('the upload was cancelled');
    this.name = 'UploadStopped';
  }
}

/** Uploads `file`; resolves to the upload's id. */
export async function uploadInChunks(file: File, send: SendChunk, options: UploadOptions = {}): Promise<string> {
  let uploadId: string | null = null;
  for (let offset = 0; offset < file.size || uploadId === null; offset += CHAT_UPLOAD_CHUNK_BYTES) {
    options.onProgress?.(offset, file.size);
    const data = await toBase64(file.slice(offset, offset + CHAT_UPLOAD_CHUNK_BYTES));
    uploadId = (await send({ uploadId, offset, data })).uploadId;
    options.onId?.(uploadId);
    if (options.stopped?.()) throw new UploadStopped();
  }
  options.onProgress?.(file.size, file.size);
  return uploadId;
}

/** A blob as base64, encoded by the browser (a data: URL), not a loop of string pieces on the page's thread. */
function toBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = reader.result as string;
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsDataURL(blob);
  });
}
