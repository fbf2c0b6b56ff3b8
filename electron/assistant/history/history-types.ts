/**
 * What the export parsers give: plain conversation records ready for Memory.importHistoryConversation,
 * with what was left out of each and why. An error names the conversation and the message.
 */
import { IMPORTED_MESSAGE_MAX_BYTES } from '../../../shared/chat-import';
import { findRepeatedMessageIds, type HistoryConversationInput, type HistorySource } from '../../memory/index';
import type { IsoTime } from '../../../shared/time';

/** Why a message of an export is not imported: the words after its count, for one and for many ("1 system message", "2 system messages"). */
export const SKIP_REASONS = {
  off_thread: ['message on a regenerated or edited branch, not the conversation as it was left', 'messages on regenerated or edited branches, not the conversation as it was left'],
  hidden: ['message hidden from the conversation by the app', 'messages hidden from the conversation by the app'],
  system: ['system message (not written by you)', 'system messages (not written by you)'],
  tool: ['tool or plugin message', 'tool or plugin messages'],
  not_to_user: ['assistant message addressed to a tool, not to you', 'assistant messages addressed to a tool, not to you'],
  not_text: ['message whose content is not text (code run, browsing, reasoning, files)', 'messages whose content is not text (code run, browsing, reasoning, files)'],
  empty: ['message without text (an image or file only, or empty)', 'messages without text (an image or file only, or empty)'],
  truncated: ['message over 1 MB, the most a message keeps: cut there (the rest left out)', 'messages over 1 MB, the most a message keeps: cut there (the rest left out)'],
} as const satisfies Record<string, readonly [string, string]>;
export type SkipReason = keyof typeof SKIP_REASONS;
export type SkipCounts = Partial<Record<SkipReason, number>>;

export interface ParsedConversation {
  kind: 'conversation';
  conversation: HistoryConversationInput;
  skipped: SkipCounts;
  /** Parts of kept messages that are not text (images, files, tool calls): left out of the text. */
  nonTextParts: number;
  /** Messages without their own time, given the time of the message before them (or the conversation's). */
  timesFromConversation: number;
  /** ChatGPT: what the user's custom instructions say about them, and when the conversation that carries them began. */
  profile?: { text: string; time: IsoTime } | null;
}

/** A conversation the user asked the other assistant not to remember: not imported, counted. */
export interface DoNotRemember {
  kind: 'do_not_remember';
  sourceId: string;
  title: string;
}

/** A conversation with more text than one import reads at once (see export-items.ts): left out, counted. */
export interface TooLarge {
  kind: 'too_large';
}

/** A conversation that cannot be read for a fault of its own: skipped whole, the rest of the export is read on. */
export interface Malformed {
  kind: 'malformed';
  title: string | null;
  id: string | null;
  /** In words, naming the message and field where known ("message m9 has no author"). */
  fault: string;
}

export type ParsedItem = ParsedConversation | DoNotRemember | TooLarge | Malformed;

/** A malformed export: `conversation` and `message` say where (a label and the ids, when known). */
export class ChatExportError extends Error {
  constructor(
    message: string,
    readonly conversation: string | null,
    readonly messageId: string | null,
  ) {
    super(message);
    this.name = 'ChatExportError';
  }
}

/** A fault of one conversation (not of the file): the reader yields it as Malformed and reads on. */
export class MalformedConversation extends ChatExportError {
  constructor(
    readonly index: number,
    readonly title: string | null,
    readonly id: string | null,
    readonly fault: string,
    messageId: string | null = null,
  ) {
    const where = conversationLabel(index, title, id);
    super(`${where}: ${fault}`, where, messageId);
    this.name = 'MalformedConversation';
  }
}

/** Two different messages under one id in a conversation (the same message twice is kept once, as the store does): the fault in the store's words, or null. */
export function repeatedIdFault(messages: readonly HistoryConversationInput['messages'][number][]): string | null {
  return findRepeatedMessageIds(messages).fault?.message ?? null;
}

/** "conversation 3 ("Trip to Kyoto", id 6f1c…)": how errors name a conversation (index is 0-based). */
export function conversationLabel(index: number, title: string | null, id: string | null): string {
  const parts = [title ? JSON.stringify(title.length > 60 ? `${title.slice(0, 57)}…` : title) : null, id ? `id ${id}` : null].filter(Boolean);
  return `conversation ${index + 1}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

export function bump(counts: SkipCounts, reason: SkipReason, by = 1): void {
  counts[reason] = (counts[reason] ?? 0) + by;
}

export type { HistorySource };

/**
 * A message's text within IMPORTED_MESSAGE_MAX_BYTES of UTF-8: a longer one is cut at the last
 * whole character that fits (counted in `skipped` as truncated).
 */
export function capMessage(text: string, skipped: SkipCounts): string {
  // Each UTF-16 unit is at most 3 bytes of UTF-8: a text of a third of the cap or less is within it.
  if (text.length * 3 <= IMPORTED_MESSAGE_MAX_BYTES || Buffer.byteLength(text, 'utf8') <= IMPORTED_MESSAGE_MAX_BYTES) return text;
  bump(skipped, 'truncated');
  const bytes = Buffer.from(text.slice(0, IMPORTED_MESSAGE_MAX_BYTES), 'utf8');
  let end = IMPORTED_MESSAGE_MAX_BYTES;
  // Back to the first byte of a character (continuation bytes are 10xxxxxx).
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}
