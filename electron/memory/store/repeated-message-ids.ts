/**
 * A message id twice in one conversation of an export: the same message (role, text, time) is kept
 * once; two different messages under one id mean the export is damaged. One rule for the import's
 * store and the history readers that skip such a conversation before it is stored.
 */

export interface RepeatableMessage {
  sourceId: string;
  role: string;
  content: string;
  /** When it was said, as the caller compares it (the same value for the same message). */
  time: string | number;
}

export interface RepeatedMessageIds {
  /** Positions of messages that repeat an earlier one exactly: kept once. */
  repeats: Set<number>;
  /** The first id under two different messages, in words, and the later message's position; null when none. */
  fault: { message: string; index: number } | null;
}

export function findRepeatedMessageIds(messages: readonly RepeatableMessage[]): RepeatedMessageIds {
  const first = new Map<string, number>();
  const repeats = new Set<number>();
  for (const [i, m] of messages.entries()) {
    const at = first.get(m.sourceId);
    if (at === undefined) {
      first.set(m.sourceId, i);
      continue;
    }
    const earlier = messages[at]!;
    if (earlier.role !== m.role || earlier.content !== m.content || earlier.time !== m.time) {
      return { repeats, fault: { message: `messages ${at + 1} and ${i + 1} have the same id (${m.sourceId}) but differ: the export is damaged`, index: i } };
    }
    repeats.add(i);
  }
  return { repeats, fault: null };
}
