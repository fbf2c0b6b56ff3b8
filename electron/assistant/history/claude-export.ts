/**
 * One conversation of a Claude export (conversations.json) as a plain record: `chat_messages` in
 * order, sender human → user and assistant → assistant, each message's `created_at` its time (the
 * conversation's when missing), its text from the `content` blocks of type text (else `text`);
 * other blocks (tool use, tool results, images) are counted, not imported.
 */
import { z } from 'zod';
import { describeZodError } from '../../../shared/memory-schema';
import { toIsoUtc } from '../../../shared/time';
import type { HistoryMessageInput } from '../../memory/index';
import { bump, ChatExportError, conversationLabel, type ParsedItem, type SkipCounts } from './history-types';

const isoText = z.string().refine((t) => {
  try {
    toIsoUtc(t);
    return true;
  } catch {
    return false;
  }
}, 'must be an ISO-8601 time');

const claudeConversation = z.looseObject({
  uuid: z.string().min(1),
  name: z.string().nullish(),
  created_at: isoText.nullish(),
  updated_at: isoText.nullish(),
  chat_messages: z.array(z.unknown()),
});

const claudeMessage = z.looseObject({
  uuid: z.string().min(1),
  sender: z.enum(['human', 'assistant']),
  text: z.string().nullish(),
  content: z.array(z.looseObject({ type: z.string(), text: z.string().nullish() })).nullish(),
  created_at: isoText.nullish(),
});

/** Is this value a Claude conversation (for format detection)? */
export function looksLikeClaude(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'chat_messages' in value;
}

export function parseClaudeConversation(value: unknown, index: number): ParsedItem {
  const raw = value as Record<string, unknown> | null;
  const where = conversationLabel(index, typeof raw?.name === 'string' ? raw.name : null, typeof raw?.uuid === 'string' ? raw.uuid : null);
  const parsed = claudeConversation.safeParse(value);
  if (!parsed.success) throw new ChatExportError(`${where}: not a Claude conversation: ${describeZodError(parsed.error)}`, where, null);
  const conv = parsed.data;
  const conversationTime = conv.created_at ?? conv.updated_at ?? null;
  const skipped: SkipCounts = {};
  const messages: HistoryMessageInput[] = [];
  let nonTextParts = 0;
  let timesFromConversation = 0;
  conv.chat_messages.forEach((item, i) => {
    const id = typeof (item as { uuid?: unknown } | null)?.uuid === 'string' ? (item as { uuid: string }).uuid : `#${i + 1}`;
    const checked = claudeMessage.safeParse(item);
    if (!checked.success) throw new ChatExportError(`${where}, message ${id}: ${describeZodError(checked.error)}`, where, id);
    const message = checked.data;
    const blocks = message.content ?? [];
    const textBlocks = blocks.filter((b) => b.type === 'text' && typeof b.text === 'string' && b.text.trim() !== '');
    nonTextParts += blocks.filter((b) => b.type !== 'text').length;
    const text = (textBlocks.length ? textBlocks.map((b) => b.text!.trim()).join('\n\n') : (message.text ?? '')).trim();
    if (!text) return bump(skipped, 'empty');
    let time = message.created_at ?? null;
    if (time === null) {
      if (conversationTime === null) throw new ChatExportError(`${where}, message ${message.uuid}: has no created_at, and neither has the conversation`, where, message.uuid);
      time = conversationTime;
      timesFromConversation++;
    }
    const role = message.sender === 'human' ? 'user' : 'assistant';
    messages.push({ sourceId: message.uuid, role, content: text, time: toIsoUtc(time), learn: role === 'user' });
  });
  return { kind: 'conversation', conversation: { source: 'claude', sourceId: conv.uuid, title: conv.name ?? '', messages }, skipped, nonTextParts, timesFromConversation };
}
