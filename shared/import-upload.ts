/**
 * The shapes of importing a Tempora export uploaded in chunks (the API contract's part for it): a
 * page sends the file in pieces (uploadChunkRequest, as for a chat history) to a file the engine
 * stages, then previews and imports that file by its upload id, or cancels it. The bridge's frames
 * stay small whatever the size of the export.
 */
import { z } from 'zod';

const uploadId = z.string().regex(/^upl_[0-9a-z]{8,40}$/, 'must be an id given by uploadImportFile');
export const importUploadRef = z.strictObject({ uploadId });
export const importUploadRequest = z.strictObject({ uploadId, replace: z.boolean().optional() });

/** Pushed while a staged export is read (bytes of it so far), then once as its import starts. */
export const importUploadProgress = z.strictObject({
  uploadId: z.string(),
  phase: z.enum(['reading', 'importing']),
  bytes: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
});
export type ImportUploadProgress = z.infer<typeof importUploadProgress>;
