/** Converts Tempora's chat messages into node-llama-cpp's chat history, ending in the response to generate. */
import type { ChatHistoryItem } from 'node-llama-cpp';
import type { ChatMessage } from './ports';

/**
 * The last item is always a model response for LlamaChat to generate into: an empty one after a user
 * or system message, or the given assistant text (which the model then continues).
 */
export function toChatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((message): ChatHistoryItem => {
    if (message.role === 'system') return { type: 'system', text: message.content };
    if (message.role === 'user') return { type: 'user', text: message.content };
    return { type: 'model', response: [message.content] };
  });
  if (history.at(-1)?.type !== 'model') history.push({ type: 'model', response: [] });
  return history;
}

/** History of an independent structured call: optional system text, the prompt, an empty answer. */
export function structuredHistory(system: string | undefined, prompt: string): ChatHistoryItem[] {
  return toChatHistory(system ? [{ role: 'system', content: system }, { role: 'user', content: prompt }] : [{ role: 'user', content: prompt }]);
}
