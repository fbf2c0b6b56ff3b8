/** The messages of a conversation, the live (streaming) answer, Regenerate on the last answer. */
import { useEffect, useRef } from 'react';
import type { ChatMessageRecord } from '../../../shared/api-contract';
import { useTimeFormat } from '../app/time-format';
import { formatTime } from '../common/format';
import { UsedFacts } from './UsedFacts';
import type { LiveTurn } from './use-chat-turn';

interface Props {
  messages: readonly ChatMessageRecord[];
  turn: LiveTurn | null;
  stoppedIds: ReadonlySet<string>;
  canRegenerate: boolean;
  onRegenerate(): void;
}

export function MessageList({ messages, turn, stoppedIds, canRegenerate, onRegenerate }: Props) {
  const end = useRef<HTMLDivElement>(null);
  const format = useTimeFormat();
  // While regenerating, the old answer is being replaced: hide it.
  const regenerating = turn !== null && turn.userText === null;
  const lastUserIndex = messages.findLastIndex((m) => m.role === 'user');
  const shown = regenerating ? messages.filter((m, i) => !(m.role === 'assistant' && i > lastUserIndex)) : messages;
  const last = shown[shown.length - 1];
  // The message being sent may already be in the list (stored before the answer starts).
  const pendingShown = turn !== null && turn.userText !== null && !(last?.role === 'user' && last.content === turn.userText);

  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [shown.length, turn?.text.length]);

  return (
    <div className="messages" aria-label="Messages" role="log" aria-live="off">
      {shown.length === 0 && turn === null && <p className="muted empty">No messages yet. Tell Tempora something, or ask what it remembers.</p>}
      {shown.map((message) => (
        <article key={message.id} className={`message ${message.role}`} aria-label={message.role === 'user' ? 'You' : 'Tempora'}>
          <div className="message-meta">
            <span className="who">{message.role === 'user' ? 'You' : 'Tempora'}</span>
            <time dateTime={message.reference_time}>{formatTime(message.reference_time, format)}</time>
            {stoppedIds.has(message.id) && <span className="badge">stopped</span>}
          </div>
          <div className="message-text">{message.content}</div>
          {message.role === 'assistant' && <UsedFacts factIds={message.fact_ids} />}
          {message === last && canRegenerate && turn === null && (
            <button type="button" className="link-button regenerate" onClick={onRegenerate}>
              ↻ {message.role === 'assistant' ? 'Regenerate' : 'Answer'}
            </button>
          )}
        </article>
      ))}
      {turn !== null && pendingShown && (
        <article className="message user pending" aria-label="You">
          <div className="message-meta">
            <span className="who">You</span>
          </div>
          <div className="message-text">{turn.userText}</div>
        </article>
      )}
      {turn !== null && (
        <article className="message assistant streaming" aria-label="Tempora (answering)" aria-busy="true" data-testid="streaming-answer">
          <div className="message-meta">
            <span className="who">Tempora</span>
            <span className="badge live">{turn.stopping ? 'stopping…' : 'answering…'}</span>
          </div>
          <div className="message-text">
            {turn.text}
            <span className="caret" aria-hidden="true" />
          </div>
          {turn.factIds.length > 0 && <UsedFacts factIds={turn.factIds} />}
        </article>
      )}
      <div ref={end} />
    </div>
  );
}
