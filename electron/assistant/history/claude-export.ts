/**
 * One conversation of a Claude export (conversations.json) as a plain record: `chat_messages` in
 * order, sender human → user and assistant → assistant, each message's `created_at` its time (the
 * previous message's when missing, or the conversation's), its text from the `content` blocks of
 * type text (else `text`), then the text Claude extracted from each attached file
 * (`attachments[].extracted_content`: what the user pasted or attached is part of what they said),
 * cut at 1 MB (capMessage); other blocks (tool use, tool results, images) are counted, not imported.
 */
import { z } from 'zod';
import { toIsoUtc } from '../../../shared/time';
import type { HistoryMessageInput } from '../../memory/index';
import { issuesInWords, timeTextFault } from './export-faults';
import { bump, capMessage, MalformedConversation, repeatedIdFault, type DoNotRemember, type ParsedConversation, type SkipCounts } from './history-types';

/** An ISO-8601 time; an impossible one is said in words with its value ('"2025-02-30T10:00:00Z" is not a date: February 2025 has 28 days'). */
const isoText = z.string().refine((t) => timeTextFault(t) === null, { error: (issue) => timeTextFault(issue.input as string) ?? 'is not a time' });

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
  attachments: z.array(z.looseObject({ file_name: z.string().nullish(), extracted_content: z.string().nullish() })).nullish(),
});

/** Is this value a Claude conversation (for format detection)? */
export function looksLikeClaude(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'chat_messages' in value;
}

export function parseClaudeConversation(value: unknown, index: number): ParsedConversation | DoNotRemember {
  const raw = value as Record<string, unknown> | null;
  const malformed = (fault: string, messageId: string | null = null) => new MalformedConversation(index, typeof raw?.name === 'string' ? raw.name : null, typeof raw?.uuid === 'string' ? raw.uuid : null, fault, messageId);
  const parsed = claudeConversation.safeParse(value);
  if (!parsed.success) throw malformed(issuesInWords(parsed.error, value, ''));
  const conv = parsed.data;
  const conversationTime = conv.created_at ?? conv.updated_at ?? null;
  const skipped: SkipCounts = {};
  const messages: HistoryMessageInput[] = [];
  let nonTextParts = 0;
  let timesFromConversation = 0;
  let previousTime: string | null = null;
  conv.chat_messages.forEach((item, i) => {
    const id = typeof (item as { uuid?: unknown } | null)?.uuid === 'string' ? (item as { uuid: string }).uuid : `#${i + 1}`;
    const checked = claudeMessage.safeParse(item);
    if (!checked.success) throw malformed(issuesInWords(checked.error, item, `message ${id}`), id);
    const message = checked.data;
    const blocks = message.content ?? [];
    const textBlocks = blocks.filter((b) => b.type === 'text' && typeof b.text === 'string' && b.text.trim() !== '');
    nonTextParts += blocks.filter((b) => b.type !== 'text').length;
    const said = (textBlocks.length ? textBlocks.map((b) => b.text!.trim()).join('\n\n') : (message.text ?? '')).trim();
    const attached = (message.attachments ?? []).filter((a) => a.extracted_content?.trim()).map((a) => `${a.file_name?.trim() || 'Attached file'}:\n${a.extracted_content!.trim()}`);
    const text = [said, ...attached].filter(Boolean).join('\n\n');
    const own = message.created_at ?? null;
    if (own !== null) previousTime = own;
    if (!text) return bump(skipped, 'empty');
    let time = own;
    if (time === null) {
      // Said after the message before it, not when the conversation began.
      time = previousTime ?? conversationTime;
      if (time === null) throw malformed(`message ${message.uuid} has no created_at, and neither has the conversation`, message.uuid);
      timesFromConversation++;
    }
    const role = message.sender === 'human' ? 'user' : 'assistant';
    messages.push({ sourceId: message.uuid, role, content: capMessage(text, skipped), time: toIsoUtc(time), learn: role === 'user' });
  });
  const repeated = repeatedIdFault(messages);
  if (repeated) throw malformed(repeated);
  return { kind: 'conversation', conversation: { source: 'claude', sourceId: conv.uuid, title: conv.name ?? '', messages }, skipped, nonTextParts, timesFromConversation };
}
