/**
 * What the export parsers give: plain conversation records ready for Memory.importHistoryConversation,
 * with what was left out of each and why. An error names the conversation and the message.
 */
import type { HistoryConversationInput, HistorySource } from '../../memory/index';

/** Why a message of an export is not imported. */
export const SKIP_REASONS = {
  off_thread: 'on a regenerated or edited branch, not the conversation as it was left',
  hidden: 'hidden from the conversation by the app',
  system: 'a system message (not written by you)',
  tool: 'a tool or plugin message',
  not_to_user: 'an assistant message addressed to a tool, not to you',
  not_text: 'content that is not text (code run, browsing, reasoning, files)',
  empty: 'no text (an image or file only, or empty)',
} as const;
export type SkipReason = keyof typeof SKIP_REASONS;
export type SkipCounts = Partial<Record<SkipReason, number>>;

export interface ParsedConversation {
  kind: 'conversation';
  conversation: HistoryConversationInput;
  skipped: SkipCounts;
  /** Parts of kept messages that are not text (images, files, tool calls): left out of the text. */
  nonTextParts: number;
  /** Messages without their own time, given the conversation's. */
  timesFromConversation: number;
}

/** A conversation the user asked the other assistant not to remember: not imported, counted. */
export interface DoNotRemember {
  kind: 'do_not_remember';
  sourceId: string;
  title: string;
}

export type ParsedItem = ParsedConversation | DoNotRemember;

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

/** "conversation 3 ("Trip to Kyoto", id 6f1c…)": how errors name a conversation (index is 0-based). */
export function conversationLabel(index: number, title: string | null, id: string | null): string {
  const parts = [title ? JSON.stringify(title.length > 60 ? `${title.slice(0, 57)}…` : title) : null, id ? `id ${id}` : null].filter(Boolean);
  return `conversation ${index + 1}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

export function bump(counts: SkipCounts, reason: SkipReason, by = 1): void {
  counts[reason] = (counts[reason] ?? 0) + by;
}

export type { HistorySource };
