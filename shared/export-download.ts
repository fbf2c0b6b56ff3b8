/**
 * The shapes of exporting through the screens (the API contract's part for it): a page opens an
 * export (exportBegin: what it holds, counted in one snapshot of the memory), pulls its pretty JSON a
 * piece at a time (exportRead, about 1 MiB each, with how many records are in so far: a progress
 * bar), and may stop it (exportCancel). Neither side ever holds the document as one value, so a
 * memory of a million facts exports over IPC and the bridge alike, its frames small.
 */
import { z } from 'zod';

const exportId = z.string().regex(/^exp_[0-9a-z]{8,40}$/, 'must be an id given by exportBegin');
export const exportRef = z.strictObject({ exportId });

export const exportBeginResponse = z.strictObject({
  exportId: z.string(),
  exportedAt: z.string(),
  counts: z.strictObject({
    conversations: z.number().int().nonnegative(),
    episodes: z.number().int().nonnegative(),
    entities: z.number().int().nonnegative(),
    facts: z.number().int().nonnegative(),
  }),
  /** Every record of the document (claims included): what `records` counts to. */
  totalRecords: z.number().int().nonnegative(),
});
export type ExportBegun = z.infer<typeof exportBeginResponse>;

export const exportReadResponse = z.strictObject({
  /** The next piece of the document's text ('' once done); joined in order, the pieces are the file. */
  text: z.string(),
  records: z.number().int().nonnegative(),
  totalRecords: z.number().int().nonnegative(),
  done: z.boolean(),
});
export type ExportPiece = z.infer<typeof exportReadResponse>;
