/**
 * The first step of an import: is the input an export document at all (its shape, not its
 * references)? Version-1 and version-2 documents are read by their own schemas and upgraded.
 */
import { isExportDocument } from '../../../shared/export-check';
import { describeZodError, EXPORT_FORMAT, EXPORT_VERSION, memoryExport, memoryExportV1, memoryExportV2, upgradeExport, type MemoryExport } from '../../../shared/memory-schema';
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
  const notOne = notAnExport(input);
  if (notOne !== null) throw new MemoryInputError(notOne.message, notOne.where);
  const version = (input as { version?: unknown }).version;
  const schema = version === 1 ? memoryExportV1 : version === 2 ? memoryExportV2 : memoryExport;
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new MemoryInputError(`not a valid Tempora export: ${describeZodError(parsed.error, { input })}`, parsed.error.issues[0]?.path.join('.') || '(root)');
  return upgradeExport(parsed.data);
}

/** The versions this Tempora reads, in words ("1, 2 and 3"). */
const VERSIONS = `${Array.from({ length: EXPORT_VERSION - 1 }, (_, v) => v + 1).join(', ')} and ${EXPORT_VERSION}`;
const FORMAT = `"format": "${EXPORT_FORMAT}"`;

/** A value short and plain enough to quote in a sentence ("other", 7). */
function quotable(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && /^[\w .:/-]{1,40}$/.test(value) ? JSON.stringify(value) : null;
}

/**
 * Why `input` is not a memory export at all, in one plain sentence, when what identifies one is
 * wrong: not one JSON object, no `"format": "tempora.memory"`, no version this Tempora reads (a file
 * of something else, say `{"nope": 1}`); null when it names itself an export (its records are then
 * checked field by field, each fault named by its path).
 */
function notAnExport(input: unknown): { message: string; where: string } | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    const holds = Array.isArray(input) ? 'a list' : input === null ? 'null' : typeof input === 'string' ? 'a piece of text' : typeof input === 'number' ? 'a number' : 'true or false';
    return { message: `not a Tempora memory export: it holds ${holds}, and an export is one JSON object with ${FORMAT}`, where: '(root)' };
  }
  const { format, version } = input as { format?: unknown; version?: unknown };
  if (format === undefined) return { message: `not a Tempora memory export: it has no ${FORMAT}, which every export has`, where: 'format' };
  if (format !== EXPORT_FORMAT) {
    const said = quotable(format);
    return { message: `not a Tempora memory export: its "format" is ${said === null ? `not "${EXPORT_FORMAT}"` : `${said}, and an export's is "${EXPORT_FORMAT}"`}`, where: 'format' };
  }
  if (version === undefined) return { message: `a Tempora memory export without its "version", which says how to read it (this Tempora reads versions ${VERSIONS}): the file was edited or cut short`, where: 'version' };
  if (version === 1 || version === 2 || version === EXPORT_VERSION) return null;
  const said = quotable(version);
  return typeof version === 'number' && Number.isInteger(version) && version > EXPORT_VERSION
    ? { message: `a Tempora memory export of version ${said}, which this Tempora cannot read (it reads versions ${VERSIONS}): a newer Tempora may have written it`, where: 'version' }
    : { message: `a Tempora memory export whose "version" is ${said ?? 'not a number'}, which this Tempora cannot read (it reads versions ${VERSIONS})`, where: 'version' };
}
