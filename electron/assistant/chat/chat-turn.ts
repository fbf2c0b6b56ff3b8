/**
 * One chat turn: store the user's message (with its ingestion job, durably), retrieve what the
 * memory knows, build the context, stream the answer with stop, store the answer with the facts
 * it was given. Learning happens afterwards in the ingestion worker: the answer never waits for it.
 */
import { defaultTimeZone } from '../user-time-zone';
import type { ChatMessage, ChatModel, ModelUsage } from '../../llm/ports';
import type { EpisodeRecord } from '../../../shared/memory-schema';
import { MemoryInputError, type Memory } from '../../memory/index';
import { buildContext } from '../retrieval/context-builder';
import { retrieve, type Retrieval, type VectorRanker } from '../retrieval/retrieve';

export interface ChatTurnRequest {
  conversationId: string;
  /** The user's message; omit with `regenerate` to answer the last user message again. */
  content?: string;
  regenerate?: boolean;
  /** When the message was written; default now. */
  time?: string;
  /** The user's zone (the engine's): the message keeps it, its question's days and the context's are read in it. Default $TEMPORA_TZ or the system's. */
  timeZone?: string;
  signal?: AbortSignal;
  onToken: (text: string) => void;
  /** Called once retrieval is done, before the first token, with what the answer will use. */
  onContext?: (info: { factIds: string[]; retrievalMs: number; note: string | null }) => void;
  maxTokens?: number;
}

export interface ChatTurnResult {
  userMessage: EpisodeRecord;
  assistantMessage: EpisodeRecord | null;
  text: string;
  stopped: boolean;
  usage: ModelUsage;
  factIds: string[];
  retrievalMs: number;
  retrieval: Retrieval;
}

export const SYSTEM_PROMPT = [
  'You are Tempora, a personal assistant running on the user\'s own computer. You remember what the user tells you.',
  'Use the remembered facts below when they help; each says since when it is true, or from when until when it was true.',
  'Prefer current facts; mention history only when the question is about the past or a change. If the memory does not say, say you do not know.',
  'Answer in the language of the user\'s message.',
].join('\n');

export async function runChatTurn(memory: Memory, model: ChatModel, vectors: VectorRanker | null, request: ChatTurnRequest): Promise<ChatTurnResult> {
  if (model.contextSize === 0) throw new MemoryInputError('no chat model is loaded: open Models to download or pick one', 'model');
  const zone = request.timeZone ?? defaultTimeZone();
  const conversation = memory.episodes.conversation(request.conversationId);
  if (!conversation) throw new MemoryInputError(`no conversation with id ${request.conversationId}`, 'conversation', 'not_found');
  const history = memory.episodes.ofConversation(request.conversationId);

  let userMessage: EpisodeRecord;
  if (request.regenerate) {
    const lastUser = [...history].reverse().find((e) => e.role === 'user');
    if (!lastUser) throw new MemoryInputError('nothing to regenerate: the conversation has no user message', 'regenerate');
    // The previous answers to it go; the question stays (and was learned from already).
    memory.messages.delete(history.filter((h) => h.role === 'assistant' && h.reference_time >= lastUser.reference_time).map((e) => e.id));
    userMessage = lastUser;
  } else {
    const content = request.content?.trim() ?? '';
    if (content === '') throw new MemoryInputError('message must not be empty', 'content');
    // The message keeps the user's zone: its dates are read there even if the setting changes later.
    userMessage = memory.messages.append({ role: 'user', content, time: request.time ?? memory.clock.now(), timeZone: zone, conversation: request.conversationId }).episode;
  }

  const started = performance.now();
  const retrieval = await retrieve(memory, userMessage.content, { vectors, signal: request.signal, zone });
  const now = memory.clock.now();
  const budget = Math.max(128, Math.min(1500, Math.floor(model.contextSize * 0.3)));
  // A time named in the question ("on 10 Sep", "去年") puts the facts true then first, and says so.
  const block = buildContext(retrieval.facts, { budget, countTokens: (t) => model.countTokens(t), now, time: retrieval.time, zone });
  const retrievalMs = performance.now() - started;
  request.onContext?.({ factIds: block.factIds, retrievalMs, note: retrieval.note });

  const system = block.text ? `${SYSTEM_PROMPT}\n\n${block.text}` : `${SYSTEM_PROMPT}\n\n(No remembered facts match this message.)`;
  const messages: ChatMessage[] = [{ role: 'system', content: system }, ...recentTurns(memory, request.conversationId, userMessage, model, Math.floor(model.contextSize * 0.35)), { role: 'user', content: userMessage.content }];
  const answer = await model.streamChat(messages, { onToken: request.onToken, signal: request.signal, maxTokens: request.maxTokens ?? 1024 });

  let assistantMessage: EpisodeRecord | null = null;
  if (answer.text.trim() !== '') {
    // Not learned from by itself: what it states is learned when the user's next message confirms it
    // (the extraction of that message sees this one; see ingestion/ingest-message.ts).
    assistantMessage = memory.messages.append({ role: 'assistant', content: answer.text, time: memory.clock.now(), conversation: request.conversationId, learn: false, id: undefined }).episode;
    memory.messages.recordFacts(assistantMessage.id, block.factIds);
  }
  return { userMessage, assistantMessage, text: answer.text, stopped: answer.stopped, usage: { promptTokens: answer.promptTokens, completionTokens: answer.completionTokens }, factIds: block.factIds, retrievalMs, retrieval };
}

/** The latest turns before this message that fit the budget, oldest first. */
function recentTurns(memory: Memory, conversationId: string, current: EpisodeRecord, model: ChatModel, budget: number): ChatMessage[] {
  const earlier = memory.episodes.ofConversation(conversationId).filter((e) => e.id !== current.id && (e.role === 'user' || e.role === 'assistant'));
  const out: ChatMessage[] = [];
  let used = 0;
  for (const e of earlier.reverse()) {
    const cost = model.countTokens(e.content) + 4;
    if (used + cost > budget) break;
    used += cost;
    out.unshift({ role: e.role as 'user' | 'assistant', content: e.content });
  }
  return out;
}
