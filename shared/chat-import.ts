/**
 * The shapes of importing a ChatGPT or Claude history (the API contract's part for it): which file,
 * what the import would do or did, the chunks a browser uploads a file in, and the backfill queue
 * that learns from the imported messages.
 */
import { z } from 'zod';

export const chatExportFormat = z.enum(['chatgpt', 'claude']);
export type ChatExportFormat = z.infer<typeof chatExportFormat>;

/** The export to read: a path on this machine (the desktop app's dialog, the CLI), or a file uploaded in chunks. */
export const chatExportFile = z.union([
  z.strictObject({ path: z.string().min(1).max(4096) }),
  z.strictObject({ uploadId: z.string().regex(/^upl_[0-9a-z]{8,40}$/, 'must be an id given by uploadChatExport') }),
]);
export type ChatExportFile = z.infer<typeof chatExportFile>;

/** The most an imported message keeps (UTF-8 bytes): a longer one is cut there, at a character boundary, and counted. */
export const IMPORTED_MESSAGE_MAX_BYTES = 1024 * 1024;

export const chatImportRequest = z.strictObject({ file: chatExportFile, format: chatExportFormat.optional() });

const count = z.number().int().nonnegative();

/** How many conversations that cannot be read a report lists (the rest are counted). */
export const MALFORMED_LISTED = 20;

/** A conversation of the export that could not be read for a fault of its own: skipped whole, nothing of it stored. */
export const malformedConversation = z.strictObject({
  index: z.number().int().positive().describe("its place in the export's list, from 1"),
  title: z.string().nullable(),
  id: z.string().nullable(),
  label: z.string().describe('conversation 3 ("Trip", id c-123)'),
  fault: z.string().describe('what is wrong, in words: message m9 has no author'),
});
export type MalformedConversation = z.infer<typeof malformedConversation>;

/** What an import would do (preview: stored false) or did (stored true). */
export const chatImportReport = z.strictObject({
  stored: z.boolean(),
  format: chatExportFormat.nullable(),
  conversations: count.describe('conversations to import (do-not-remember ones not counted)'),
  newConversations: count,
  messages: count.describe('messages of the visible threads'),
  newMessages: count.describe('of those, the ones no earlier import stored'),
  alreadyImported: count,
  toLearn: count.describe('new messages that join the learning queue (your messages; answers are kept as history)'),
  from: z.string().nullable().describe('the earliest message time (ISO)'),
  to: z.string().nullable(),
  doNotRemember: count.describe('conversations marked do-not-remember, skipped'),
  skipped: z.array(z.strictObject({ reason: z.string(), why: z.string(), count })),
  nonTextParts: count.describe('images, files and tool calls left out of kept messages'),
  timesFromConversation: count.describe("messages without their own time, given the time of the message before them (or their conversation's)"),
  malformed: z
    .strictObject({ count, first: z.array(malformedConversation).max(MALFORMED_LISTED) })
    .describe('conversations that could not be read, skipped whole while the rest were read: how many, and the first of them'),
  profiles: count.describe('ChatGPT: distinct texts your custom instructions say about you, each imported once, dated when it first appears (not once per conversation; the instructions to ChatGPT left out)'),
});
export type ChatImportReport = z.infer<typeof chatImportReport>;

/** One chunk of a file uploaded through the bridge (base64, at most 4 MiB of bytes), appended at `offset`. */
export const CHAT_UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024;
export const uploadChunkRequest = z.strictObject({
  uploadId: z.string().regex(/^upl_[0-9a-z]{8,40}$/).nullable().describe('null: start a new upload'),
  offset: count,
  data: z.string().max(Math.ceil(CHAT_UPLOAD_CHUNK_BYTES / 3) * 4).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
});
export const uploadChunkResponse = z.strictObject({ uploadId: z.string(), bytes: count });

export const backfillStatus = z.strictObject({
  paused: z.boolean(),
  total: count,
  done: count,
  pending: count,
  running: count,
  parked: count,
  cancelled: count.describe("imported messages whose learning was cancelled: learned only if requeued ('tempora queue requeue')"),
  perMinute: z.number().nonnegative().nullable(),
  secondsLeft: count.nullable(),
});
export type BackfillStatus = z.infer<typeof backfillStatus>;

/** Pushed while an export is read: conversations and messages so far. */
export const chatImportProgress = z.strictObject({ stored: z.boolean(), conversations: count, messages: count });
