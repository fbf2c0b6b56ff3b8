/**
 * Export files uploaded in chunks, for a page that cannot name a path (the browser over the
 * bridge): each chunk is appended to <dataDir>/uploads/<id>.part as it arrives, so a 200 MB export
 * never sits whole in memory, and the import then streams that file like any other. An upload is
 * removed after its import, and any left over from a day ago when the next one starts.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../../shared/api-error';
import type { ChatExportFile } from '../../shared/chat-import';

/** The largest export accepted by upload. */
export const MAX_UPLOAD_BYTES = 4 * 1024 ** 3;
const STALE_MS = 24 * 3600_000;

export class ChatUploads {
  constructor(private readonly dir: string) {}

  /** Appends a chunk at `offset` (the bytes received so far); null id: a new upload. */
  append(uploadId: string | null, offset: number, base64: string): { uploadId: string; bytes: number } {
    const bytes = Buffer.from(base64, 'base64');
    let id = uploadId;
    if (id === null) {
      if (offset !== 0) throw new ApiError('invalid_input', 'uploadChatExport: a new upload starts at offset 0', { field: 'offset' });
      mkdirSync(this.dir, { recursive: true });
      this.removeStale();
      id = `upl_${randomBytes(10).toString('hex')}`;
    }
    const path = join(this.dir, `${id}.part`);
    const size = uploadId === null ? 0 : this.sizeOf(id);
    if (offset !== size) throw new ApiError('invalid_input', `uploadChatExport: offset ${offset} does not follow the ${size} bytes received`, { field: 'offset' });
    if (size + bytes.length > MAX_UPLOAD_BYTES) throw new ApiError('invalid_input', `uploadChatExport: the file is larger than ${MAX_UPLOAD_BYTES / 1024 ** 3} GiB`, { field: 'data' });
    appendFileSync(path, bytes);
    return { uploadId: id, bytes: size + bytes.length };
  }

  /** The path to read an export from. */
  pathOf(file: ChatExportFile): string {
    if ('path' in file) return file.path;
    this.sizeOf(file.uploadId);
    return join(this.dir, `${file.uploadId}.part`);
  }

  remove(file: ChatExportFile): void {
    if ('uploadId' in file) rmSync(join(this.dir, `${file.uploadId}.part`), { force: true });
  }

  private sizeOf(id: string): number {
    try {
      return statSync(join(this.dir, `${id}.part`)).size;
    } catch {
      throw new ApiError('not_found', `no upload ${id} (it may have been imported already): upload the file again`, { field: 'uploadId' });
    }
  }

  private removeStale(): void {
    const now = Date.now();
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.part')) continue;
      const path = join(this.dir, name);
      try {
        if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
      } catch {
        // gone already
      }
    }
  }
}
