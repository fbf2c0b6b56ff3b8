/**
 * The first step of an import: is the input an export document at all (its shape, not its
 * references)? Version-1 and version-2 documents are read by their own schemas and upgraded.
 */
import { isExportDocument } from '../../../shared/export-check';
import { describeZodError, memoryExport, memoryExportV1, memoryExportV2, upgradeExport, type MemoryExport } from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';

/**
 * "ChatGPT" or "Claude" when a document is a chat history those export (conversations.json: a list
 * of conversations with `mapping`, or with `chat_messages`; or one such conversation), else null.
 * Looks only at what was parsed, and only at its first conversation.
 */
export function chatHistoryOf(input: unknown): 'ChatGPT' | 'Claude' | null {
  const first: unknown = Array.isArray(input) ? input[0] : input;
  if (typeof first !== 'object' || first === null || Array.isArray(first)) return null;
  if ('mapping' in first) return 'ChatGPT';
  if ('chat_messages' in first) return 'Claude';
  return null;
}

/** Parses and checks a document's shape. Throws MemoryInputError naming the field. */
export function parseExport(input: unknown): MemoryExport {
  // The document as it is when it passes (most do); zod only for the message when it does not.
  if (isExportDocument(input)) return upgradeExport(input);
  const chats = chatHistoryOf(input);
  if (chats !== null) {
    throw new MemoryInputError(
      `looks like a ${chats} chat history, not a Tempora memory export: import it as your chats (tempora import-chats, or “Your history from ChatGPT or Claude” on the Export / Import screen)`,
      '(root)',
    );
  }
  const version = typeof input === 'object' && input !== null ? (input as { version?: unknown }).version : undefined;
  const schema = version === 1 ? memoryExportV1 : version === 2 ? memoryExportV2 : memoryExport;
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new MemoryInputError(`not a valid Tempora export: ${describeZodError(parsed.error)}`, parsed.error.issues[0]?.path.join('.') || '(root)');
  return upgradeExport(parsed.data);
}
