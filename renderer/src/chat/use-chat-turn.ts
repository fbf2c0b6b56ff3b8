/**
 * One streamed chat turn: pick a turnId, listen to chatToken / chatContext for it, call sendMessage,
 * stop with stopMessage. When the call returns, the stored messages (the window of them the screen
 * shows) are fetched before the live bubble goes, so the answer never flickers.
 */
import { useRef, useState } from 'react';
import type { ChatMessageRecord } from '../../../shared/api-contract';
import { useApi, useApiEvent } from '../app/api-context';

export interface LiveTurn {
  turnId: string;
  conversationId: string;
  /** The message being sent (null when regenerating the last answer). */
  userText: string | null;
  text: string;
  factIds: string[];
  stopping: boolean;
}

export function newTurnId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Which of a conversation's messages the screen shows (conversationMessages' limit and from). */
export interface MessageWindow {
  limit: number;
  from?: string;
}

export function useChatTurn(
  onFinished: (conversationId: string, messages: ChatMessageRecord[] | null, stoppedMessageId: string | null) => void,
  windowOf: (conversationId: string) => MessageWindow,
) {
  const api = useApi();
  const [turn, setTurn] = useState<LiveTurn | null>(null);
  const [error, setError] = useState<unknown>(null);
  const current = useRef<string | null>(null);
  // The latest callback, so a turn that outlives a re-render reports to the current screen state.
  const finished = useRef(onFinished);
  finished.current = onFinished;
  const shownWindow = useRef(windowOf);
  shownWindow.current = windowOf;

  useApiEvent('chatToken', (payload) => {
    if (payload.turnId !== current.current) return;
    setTurn((t) => (t && t.turnId === payload.turnId ? { ...t, text: t.text + payload.text } : t));
  });
  useApiEvent('chatContext', (payload) => {
    if (payload.turnId !== current.current) return;
    setTurn((t) => (t && t.turnId === payload.turnId ? { ...t, factIds: payload.factIds } : t));
  });

  const run = async (conversationId: string, content: string | null): Promise<void> => {
    if (current.current !== null) return;
    const turnId = newTurnId();
    current.current = turnId;
    setError(null);
    setTurn({ turnId, conversationId, userText: content, text: '', factIds: [], stopping: false });
    let stoppedId: string | null = null;
    try {
      const result = await api.sendMessage(content === null ? { conversationId, turnId, regenerate: true } : { conversationId, turnId, content });
      if (result.stopped && result.assistantMessage) stoppedId = result.assistantMessage.id;
    } catch (e) {
      setError(e);
    }
    let messages: ChatMessageRecord[] | null = null;
    try {
      messages = await api.conversationMessages({ id: conversationId, ...shownWindow.current(conversationId) });
    } catch {
      // the list reloads on its own later
    }
    current.current = null;
    finished.current(conversationId, messages, stoppedId);
    setTurn(null);
  };

  const stop = () => {
    const turnId = current.current;
    if (turnId === null) return;
    setTurn((t) => (t ? { ...t, stopping: true } : t));
    api.stopMessage({ turnId }).catch((e: unknown) => setError(e));
  };

  return {
    turn,
    error,
    clearError: () => setError(null),
    send: (conversationId: string, content: string) => run(conversationId, content),
    regenerate: (conversationId: string) => run(conversationId, null),
    stop,
  };
}
