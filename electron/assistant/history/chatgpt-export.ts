/**
 * One conversation of a ChatGPT export (conversations.json) as a plain record. The export keeps
 * every branch of a conversation in `mapping` (a tree of nodes with `parent` and `children`); the
 * thread the user saw is the path from `current_node` up through `parent`, read root first.
 * Kept: user messages and assistant messages addressed to the user (recipient "all"). Skipped, and
 * counted: messages hidden from the conversation, system and tool messages, assistant messages to a
 * tool, content that is not text. Text comes from the string parts; other parts (images, files) are
 * counted; a text over 1 MB is cut there (capMessage). Each message's create_time (Unix seconds) is
 * its time; without one, the time of the message before it in the thread, or the conversation's.
 * The user's custom instructions (content_type "user_editable_context", metadata
 * is_user_system_message) ride along in every conversation, wrapped in OpenAI's words to the model:
 * of them only what the user wrote about themselves is kept, as the conversation's `profile`, for
 * the import to store once per distinct text (engine/chat-import.ts); the preamble and "how would
 * you like ChatGPT to respond" are instructions to the model, not facts, and are left out.
 */
import { z } from 'zod';
import type { HistoryMessageInput } from '../../memory/index';
import { issuesInWords, secondsFault } from './export-faults';
import { bump, capMessage, MalformedConversation, repeatedIdFault, type DoNotRemember, type ParsedConversation, type SkipCounts } from './history-types';
import { isoFromMs } from '../../../shared/time';

/** Unix seconds; 0 is read as missing (as null is). */
const unixSeconds = z
  .number()
  .refine((s) => secondsFault(s) === null, { error: (issue) => secondsFault(issue.input as number) ?? 'is not a time' })
  .transform((s) => (s === 0 ? null : s));

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
  metadata: z
    .looseObject({
      is_visually_hidden_from_conversation: z.boolean().nullish(),
      is_user_system_message: z.boolean().nullish(),
      user_context_message_data: z.looseObject({ about_user_message: z.string().nullish() }).nullish(),
    })
    .nullish(),
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

export function parseChatGptConversation(value: unknown, index: number): ParsedConversation | DoNotRemember {
  const raw = value as Record<string, unknown> | null;
  const guessTitle = typeof raw?.title === 'string' ? raw.title : null;
  const guessId = typeof raw?.conversation_id === 'string' ? raw.conversation_id : typeof raw?.id === 'string' ? raw.id : null;
  const malformed = (fault: string, messageId: string | null = null) => new MalformedConversation(index, guessTitle, guessId, fault, messageId);
  const parsed = chatGptConversation.safeParse(value);
  if (!parsed.success) throw malformed(issuesInWords(parsed.error, value, ''));
  const conv = parsed.data;
  const sourceId = conv.conversation_id ?? conv.id;
  if (!sourceId) throw malformed('has no conversation_id');
  const title = conv.title ?? '';
  if (conv.is_do_not_remember === true) return { kind: 'do_not_remember', sourceId, title };

  const node = (id: string, child: string | null): ChatGptNode => {
    const checked = chatGptNode.safeParse(conv.mapping[id]);
    if (checked.success) return checked.data;
    const fault = conv.mapping[id] === undefined ? `message ${id} is not in mapping${child ? ` (it is the parent of ${child})` : ' (current_node names it)'}` : issuesInWords(checked.error, conv.mapping[id], `message ${id}`, 'message');
    throw malformed(fault, id);
  };

  // The thread: from current_node up to the root, then read root first.
  const thread: { id: string; node: ChatGptNode }[] = [];
  const seen = new Set<string>();
  let at: string | null = conv.current_node ?? lastLeaf(conv.mapping);
  let child: string | null = null;
  while (at !== null) {
    if (seen.has(at)) throw malformed(`message ${at}: the thread loops back on itself (parent links form a cycle)`, at);
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
  let profile: ParsedConversation['profile'] = null;
  let previousTime: number | null = null;
  const isoOf = (seconds: number) => isoFromMs(Math.round(seconds * 1000));
  for (const { id, node: n } of thread) {
    const message = n.message;
    if (!message) continue;
    const own = message.create_time ?? null;
    if (own !== null) previousTime = own;
    if (isCustomInstructions(message)) {
      const text = aboutUser(message);
      const seconds = own ?? conversationTime;
      if (text && seconds !== null && profile === null) profile = { text: capMessage(text, skipped), time: isoOf(seconds) };
      continue;
    }
    const kept = keep(message, skipped);
    if (!kept) continue;
    nonTextParts += kept.nonTextParts;
    let seconds = own;
    if (seconds === null) {
      // A message without a time of its own was said after the one before it, not when the conversation began.
      seconds = previousTime ?? conversationTime;
      if (seconds === null) throw malformed(`message ${message.id} has no create_time, and neither has the conversation`, id);
      timesFromConversation++;
    }
    messages.push({ sourceId: message.id, role: kept.role, content: capMessage(kept.text, skipped), time: isoOf(seconds), learn: kept.role === 'user' });
  }
  const repeated = repeatedIdFault(messages);
  if (repeated) throw malformed(repeated);
  const result: ParsedConversation = { kind: 'conversation', conversation: { source: 'chatgpt', sourceId, title, messages }, skipped, nonTextParts, timesFromConversation, profile };
  return result;
}

/** The user's custom instructions, as ChatGPT adds them (hidden) to every conversation. */
function isCustomInstructions(message: ChatGptMessage): boolean {
  return message.content.content_type === 'user_editable_context' || (message.metadata?.is_user_system_message === true && message.author.role !== 'assistant');
}

/**
 * What the user wrote about themselves in their custom instructions: metadata's about_user_message,
 * else the fenced text after "User profile:" in the profile OpenAI wrapped in words to the model,
 * else the profile as it stands (older exports). Never the instructions to the model.
 */
function aboutUser(message: ChatGptMessage): string | null {
  const fromMetadata = message.metadata?.user_context_message_data?.about_user_message?.trim();
  if (fromMetadata) return fromMetadata;
  const profile = message.content.user_profile?.trim();
  if (!profile) return null;
  const marker = profile.lastIndexOf('User profile:');
  if (marker < 0) return /^The user provided /.test(profile) ? null : profile;
  const text = profile
    .slice(marker + 'User profile:'.length)
    .trim()
    .replace(/^```/, '')
    .replace(/```$/, '')
    .trim();
  return text || null;
}

/** The role and text of a message to import, or null (counted in `skipped`) for one to leave out. */
function keep(message: ChatGptMessage, skipped: SkipCounts): { role: 'user' | 'assistant'; text: string; nonTextParts: number } | null {
  const content = message.content;
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
