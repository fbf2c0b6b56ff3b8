/**
 * One conversation of a ChatGPT export (conversations.json) as a plain record. The export keeps
 * every branch of a conversation in `mapping` (a tree of nodes with `parent` and `children`); the
 * thread the user saw is the path from `current_node` up through `parent`, read root first.
 * Kept: user messages, assistant messages addressed to the user (recipient "all"), and the user's
 * custom instructions (content_type "user_editable_context"). Skipped, and counted: messages hidden
 * from the conversation, system and tool messages, assistant messages to a tool, content that is not
 * text. Text comes from the string parts; other parts (images, files) are counted. Each message's
 * create_time (Unix seconds) is its time; without one, the conversation's.
 */
import { z } from 'zod';
import { describeZodError } from '../../../shared/memory-schema';
import type { HistoryMessageInput } from '../../memory/index';
import { bump, ChatExportError, conversationLabel, type ParsedConversation, type ParsedItem, type SkipCounts } from './history-types';

/** Unix seconds; 0 is read as missing (as null is). */
const unixSeconds = z.number().finite().nonnegative().max(1e11).transform((s) => (s === 0 ? null : s));

const chatGptConversation = z.looseObject({
  title: z.string().nullish(),
  create_time: unixSeconds.nullish(),
  update_time: unixSeconds.nullish(),
  mapping: z.record(z.string(), z.unknown()),
  current_node: z.string().nullish(),
  conversation_id: z.string().min(1).nullish(),
  id: z.string().min(1).nullish(),
  is_do_not_remember: z.boolean().nullish(),
});

const chatGptMessage = z.looseObject({
  id: z.string().min(1),
  author: z.looseObject({ role: z.enum(['user', 'assistant', 'system', 'tool']) }),
  create_time: unixSeconds.nullish(),
  content: z.looseObject({
    content_type: z.string(),
    parts: z.array(z.unknown()).nullish(),
    user_profile: z.string().nullish(),
    user_instructions: z.string().nullish(),
  }),
  recipient: z.string().nullish(),
  metadata: z.looseObject({ is_visually_hidden_from_conversation: z.boolean().nullish() }).nullish(),
});
type ChatGptMessage = z.infer<typeof chatGptMessage>;

const chatGptNode = z.looseObject({
  message: chatGptMessage.nullish(),
  parent: z.string().nullish(),
  children: z.array(z.string()).nullish(),
});
type ChatGptNode = z.infer<typeof chatGptNode>;

const TEXT_TYPES = new Set(['text', 'multimodal_text']);

/** Is this value a ChatGPT conversation (for format detection)? */
export function looksLikeChatGpt(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'mapping' in value;
}

export function parseChatGptConversation(value: unknown, index: number): ParsedItem {
  const raw = value as Record<string, unknown> | null;
  const guessTitle = typeof raw?.title === 'string' ? raw.title : null;
  const guessId = typeof raw?.conversation_id === 'string' ? raw.conversation_id : typeof raw?.id === 'string' ? raw.id : null;
  const where = conversationLabel(index, guessTitle, guessId);
  const parsed = chatGptConversation.safeParse(value);
  if (!parsed.success) throw new ChatExportError(`${where}: not a ChatGPT conversation: ${describeZodError(parsed.error)}`, where, null);
  const conv = parsed.data;
  const sourceId = conv.conversation_id ?? conv.id;
  if (!sourceId) throw new ChatExportError(`${where}: has no conversation_id`, where, null);
  const title = conv.title ?? '';
  if (conv.is_do_not_remember === true) return { kind: 'do_not_remember', sourceId, title };

  const node = (id: string, child: string | null): ChatGptNode => {
    const checked = chatGptNode.safeParse(conv.mapping[id]);
    if (checked.success) return checked.data;
    const problem = conv.mapping[id] === undefined ? `is not in mapping${child ? ` (it is the parent of ${child})` : ' (current_node names it)'}` : describeZodError(checked.error);
    throw new ChatExportError(`${where}, message ${id}: ${problem}`, where, id);
  };

  // The thread: from current_node up to the root, then read root first.
  const thread: { id: string; node: ChatGptNode }[] = [];
  const seen = new Set<string>();
  let at: string | null = conv.current_node ?? lastLeaf(conv.mapping);
  let child: string | null = null;
  while (at !== null) {
    if (seen.has(at)) throw new ChatExportError(`${where}, message ${at}: the thread loops back on itself (parent links form a cycle)`, where, at);
    seen.add(at);
    const current = node(at, child);
    thread.push({ id: at, node: current });
    child = at;
    at = current.parent ?? null;
  }
  thread.reverse();

  const skipped: SkipCounts = {};
  const offThread = Object.entries(conv.mapping).filter(([id, n]) => !seen.has(id) && typeof n === 'object' && n !== null && (n as { message?: unknown }).message).length;
  if (offThread) bump(skipped, 'off_thread', offThread);
  const conversationTime = conv.create_time ?? conv.update_time ?? null;
  const messages: HistoryMessageInput[] = [];
  let nonTextParts = 0;
  let timesFromConversation = 0;
  for (const { id, node: n } of thread) {
    const message = n.message;
    if (!message) continue;
    const kept = keep(message, skipped);
    if (!kept) continue;
    nonTextParts += kept.nonTextParts;
    let seconds = message.create_time ?? null;
    if (seconds === null) {
      if (conversationTime === null) throw new ChatExportError(`${where}, message ${message.id}: has no create_time, and neither has the conversation`, where, id);
      seconds = conversationTime;
      timesFromConversation++;
    }
    messages.push({ sourceId: message.id, role: kept.role, content: kept.text, time: new Date(Math.round(seconds * 1000)).toISOString(), learn: kept.role === 'user' });
  }
  const result: ParsedConversation = { kind: 'conversation', conversation: { source: 'chatgpt', sourceId, title, messages }, skipped, nonTextParts, timesFromConversation };
  return result;
}

/** The role and text of a message to import, or null (counted in `skipped`) for one to leave out. */
function keep(message: ChatGptMessage, skipped: SkipCounts): { role: 'user' | 'assistant'; text: string; nonTextParts: number } | null {
  const content = message.content;
  if (content.content_type === 'user_editable_context') {
    // The user's custom instructions: written by the user, hidden from the thread, kept.
    const text = [content.user_profile, content.user_instructions].filter((t): t is string => typeof t === 'string' && t.trim() !== '').join('\n\n');
    if (!text) return (bump(skipped, 'empty'), null);
    return { role: 'user', text, nonTextParts: 0 };
  }
  if (message.metadata?.is_visually_hidden_from_conversation === true) return (bump(skipped, 'hidden'), null);
  const role = message.author.role;
  if (role === 'system') return (bump(skipped, 'system'), null);
  if (role === 'tool') return (bump(skipped, 'tool'), null);
  if (role === 'assistant' && (message.recipient ?? 'all') !== 'all') return (bump(skipped, 'not_to_user'), null);
  if (!TEXT_TYPES.has(content.content_type)) return (bump(skipped, 'not_text'), null);
  const parts = content.parts ?? [];
  const texts = parts.filter((p): p is string => typeof p === 'string');
  const text = texts.join('\n').trim();
  if (!text) return (bump(skipped, 'empty'), null);
  return { role, text, nonTextParts: parts.length - texts.length };
}

/** Without current_node: the thread ends at the leaf reached by always taking the last child. */
function lastLeaf(mapping: Record<string, unknown>): string | null {
  const nodes = mapping as Record<string, { parent?: string | null; children?: string[] | null } | undefined>;
  let at = Object.keys(mapping).find((id) => !nodes[id]?.parent) ?? null;
  const seen = new Set<string>();
  while (at !== null && !seen.has(at)) {
    seen.add(at);
    const children = nodes[at]?.children ?? [];
    const next = children[children.length - 1];
    if (next === undefined || nodes[next] === undefined) break;
    at = next;
  }
  return at;
}
