/**
 * Message input: Enter sends, Shift+Enter adds a line; Stop while an answer streams. Each
 * conversation has its own draft, kept for this window's session (a reload keeps it; another
 * conversation does not show it). Send and Stop leave the focus in the input, where the next
 * message is typed, not on the page when their button goes away.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

interface Props {
  /** Whose draft this is: a conversation's id, or null before one is made. */
  conversationId: string | null;
  disabled: boolean;
  disabledReason: string | null;
  streaming: boolean;
  onSend(text: string): void;
  onStop(): void;
}

const draftKey = (conversationId: string | null) => `tempora.draft.${conversationId ?? 'new'}`;

function readDraft(conversationId: string | null): string {
  try {
    return window.sessionStorage.getItem(draftKey(conversationId)) ?? '';
  } catch {
    return '';
  }
}

function keepDraft(conversationId: string | null, text: string): void {
  try {
    if (text === '') window.sessionStorage.removeItem(draftKey(conversationId));
    else window.sessionStorage.setItem(draftKey(conversationId), text);
  } catch {
    // not kept over a reload; still typed
  }
}

export function Composer({ conversationId, disabled, disabledReason, streaming, onSend, onStop }: Props) {
  const [draft, setDraft] = useState(() => ({ conversationId, text: readDraft(conversationId) }));
  // Another conversation shows its own draft (in the render that has it, not an effect after it).
  if (draft.conversationId !== conversationId) setDraft({ conversationId, text: readDraft(conversationId) });
  const text = draft.conversationId === conversationId ? draft.text : readDraft(conversationId);
  const setText = (next: string) => {
    setDraft({ conversationId, text: next });
    keepDraft(conversationId, next);
  };
  const input = useRef<HTMLTextAreaElement>(null);
  // Stop (or the answer's end) takes its button away: a focus left on it goes back to the input.
  const wasStreaming = useRef(streaming);
  useEffect(() => {
    const ended = wasStreaming.current && !streaming;
    wasStreaming.current = streaming;
    if (ended && (document.activeElement === null || document.activeElement === document.body)) input.current?.focus();
  }, [streaming]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const clean = text.trim();
    if (clean === '' || disabled || streaming) return;
    onSend(clean);
    setText('');
    input.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  return (
    <form className="composer" onSubmit={submit}>
      <label className="visually-hidden" htmlFor="composer-text">
        Message
      </label>
      <textarea
        ref={input}
        id="composer-text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={disabledReason ?? 'Tell Tempora something, or ask… (Enter to send, Shift+Enter for a new line)'}
        disabled={disabled}
        rows={2}
      />
      {streaming ? (
        <button type="button" className="danger" onClick={onStop}>
          ■ Stop
        </button>
      ) : (
        <button type="submit" className="primary" disabled={disabled || text.trim() === ''}>
          Send
        </button>
      )}
    </form>
  );
}
