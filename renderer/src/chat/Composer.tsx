/** Message input: Enter sends, Shift+Enter adds a line; Stop while an answer streams. */
import { useState, type FormEvent, type KeyboardEvent } from 'react';

interface Props {
  disabled: boolean;
  disabledReason: string | null;
  streaming: boolean;
  onSend(text: string): void;
  onStop(): void;
}

export function Composer({ disabled, disabledReason, streaming, onSend, onStop }: Props) {
  const [text, setText] = useState('');
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const clean = text.trim();
    if (clean === '' || disabled || streaming) return;
    onSend(clean);
    setText('');
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
