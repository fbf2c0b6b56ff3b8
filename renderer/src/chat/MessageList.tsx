/**
 * The messages of a conversation, the live (streaming) answer, Regenerate on the last answer. What
 * the latest message taught is told under its answer, where the list ends, so it is in view when the
 * answer finishes and when the learning arrives after it; earlier messages keep theirs under them.
 * "Show earlier messages" keeps the focus while more are left; once the last of them are read in
 * (the button gone), the focus goes to the first message newly shown.
 */
import { useEffect, useLayoutEffect, useRef, type UIEvent } from 'react';
import type { ChatMessageRecord } from '../../../shared/api-contract';
import { useTimeFormat } from '../app/time-format';
import { useFocusAfterRender } from '../common/form-focus';
import { formatTime, plural } from '../common/format';
import { MessageLearned } from './MessageLearned';
import { UsedFacts } from './UsedFacts';
import type { LiveTurn } from './use-chat-turn';

interface Props {
  messages: readonly ChatMessageRecord[];
  turn: LiveTurn | null;
  stoppedIds: ReadonlySet<string>;
  canRegenerate: boolean;
  onRegenerate(): void;
  /** A message to scroll to and highlight (a deep link from a fact's sources). */
  highlightId?: string | null;
  /** A message's learning was undone: its list is stale. */
  onLearningChanged(): void;
  /** Earlier messages of the conversation not read yet (a long one is read from its end). */
  notShown?: number;
  onShowEarlier?(): void;
}

export function MessageList({ messages, turn, stoppedIds, canRegenerate, onRegenerate, highlightId = null, onLearningChanged, notShown = 0, onShowEarlier }: Props) {
  const end = useRef<HTMLDivElement>(null);
  // Whether the list was at its end when last scrolled: then what grows at the end stays in view.
  const atEnd = useRef(true);
  const format = useTimeFormat();
  // While regenerating, the old answer is being replaced: hide it.
  const regenerating = turn !== null && turn.userText === null;
  const lastUserIndex = messages.findLastIndex((m) => m.role === 'user');
  const shown = regenerating ? messages.filter((m, i) => !(m.role === 'assistant' && i > lastUserIndex)) : messages;
  const last = shown[shown.length - 1];
  // The message being sent may already be in the list (stored before the answer starts).
  const pendingShown = turn !== null && turn.userText !== null && !(last?.role === 'user' && last.content === turn.userText);
  // The latest exchange, once answered: the user's message whose learning is told under the answer.
  const before = shown[shown.length - 2];
  const taughtBy = turn === null && last?.role === 'assistant' && before?.role === 'user' && before.learning ? before : null;
  const taught = taughtBy?.learning;

  useEffect(() => {
    // A linked message stays in view until a turn starts; otherwise the list follows its end.
    const linked = highlightId && turn === null ? document.getElementById(`message-${highlightId}`) : null;
    if (linked) linked.scrollIntoView({ block: 'center' });
    else end.current?.scrollIntoView({ block: 'end' });
    // Keyed by the last message, not the count: earlier messages read in above leave the view where it is.
  }, [last?.id, turn?.text.length, highlightId, turn === null]);

  useEffect(() => {
    // The learning arrives after the answer: the list follows it if the reader is at the end.
    if (taught && atEnd.current && !highlightId) end.current?.scrollIntoView({ block: 'end' });
  }, [taught?.state, taught?.added.length, taught?.closed.length, taught?.confirmed.length]);

  // Earlier messages read in above: the one that was first stays where the reader saw it.
  const list = useRef<HTMLDivElement>(null);
  const anchor = useRef<{ id: string; top: number } | null>(null);
  const setFocusTo = useFocusAfterRender({ first: () => (shown[0] ? document.getElementById(`message-${shown[0].id}`) : null) });
  const showEarlier = () => {
    const first = shown[0] && document.getElementById(`message-${shown[0].id}`);
    anchor.current = first ? { id: shown[0]!.id, top: first.getBoundingClientRect().top } : null;
    onShowEarlier?.();
  };
  useLayoutEffect(() => {
    const kept = anchor.current;
    const element = kept && shown[0]?.id !== kept.id ? document.getElementById(`message-${kept.id}`) : null;
    if (!kept || !element || !list.current) return;
    // Measured now, so a browser that already anchored the view moves it by nothing.
    list.current.scrollTop += element.getBoundingClientRect().top - kept.top;
    anchor.current = null;
    // The button pressed is gone with the last of them: the focus on where the earlier ones begin.
    if (notShown === 0) setFocusTo('first');
  }, [shown[0]?.id]);

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const list = event.currentTarget;
    atEnd.current = list.scrollHeight - list.scrollTop - list.clientHeight < 48;
  };

  return (
    <div className="messages" aria-label="Messages" role="log" aria-live="off" onScroll={onScroll} ref={list}>
      {notShown > 0 && onShowEarlier && (
        <button type="button" className="link-button show-earlier" onClick={showEarlier} data-testid="show-earlier">
          Show earlier messages ({plural(notShown, 'message')} not shown)
        </button>
      )}
      {shown.length === 0 && turn === null && <p className="muted empty">No messages yet. Tell Tempora something, or ask what it remembers.</p>}
      {shown.map((message) => (
        <article
          key={message.id}
          id={`message-${message.id}`}
          className={`message ${message.role}${message.id === highlightId ? ' highlight' : ''}`}
          aria-label={message.role === 'user' ? 'You' : 'Tempora'}
          aria-current={message.id === highlightId ? 'true' : undefined}
          tabIndex={-1}
        >
          <div className="message-meta">
            <span className="who">{message.role === 'user' ? 'You' : 'Tempora'}</span>
            <time dateTime={message.reference_time}>{formatTime(message.reference_time, format)}</time>
            {stoppedIds.has(message.id) && <span className="badge">stopped</span>}
          </div>
          <div className="message-text">{message.content}</div>
          {message.role === 'assistant' && <UsedFacts factIds={message.fact_ids} />}
          {message.role === 'user' && message !== taughtBy && <MessageLearned learning={message.learning} onChanged={onLearningChanged} />}
          {message === last && taught && (
            <div className="learned-echo" role="group" aria-label="What your message taught">
              <span className="echo-label">Your message:</span>
              <MessageLearned learning={taught} onChanged={onLearningChanged} />
            </div>
          )}
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
