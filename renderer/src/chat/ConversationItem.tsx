/**
 * One conversation in the list: open it, rename it inline (Enter saves, Esc cancels, either giving the
 * focus back to Rename), delete it.
 */
import { useEffect, useRef, useState } from 'react';
import type { ConversationSummary } from '../../../shared/api-contract';
import { hrefOf } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { formatTime, plural } from '../common/format';

interface Props {
  conversation: ConversationSummary;
  selected: boolean;
  onRename(title: string): Promise<void>;
  onDelete(): void;
}

export function ConversationItem({ conversation, selected, onRename, onDelete }: Props) {
  const format = useTimeFormat();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(conversation.title);
  const renameButton = useRef<HTMLButtonElement>(null);
  /** Set when the field closes by Enter or Escape: the focus was in it, and goes back to Rename. */
  const refocus = useRef(false);
  useEffect(() => {
    if (editing || !refocus.current) return;
    refocus.current = false;
    renameButton.current?.focus();
  }, [editing]);

  const save = async () => {
    const clean = title.trim();
    if (clean !== '' && clean !== conversation.title) await onRename(clean);
    setEditing(false);
  };

  if (editing) {
    return (
      <li className="conversation editing">
        <input
          aria-label="Conversation title"
          value={title}
          autoFocus
          maxLength={500}
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={(e) => {
            if (e.nativeEvent.isComposing) return;
            if (e.key === 'Enter') {
              refocus.current = true;
              void save();
            }
            if (e.key === 'Escape') {
              refocus.current = true;
              setTitle(conversation.title);
              setEditing(false);
            }
          }}
          onBlur={() => void save()}
        />
      </li>
    );
  }
  return (
    <li className={`conversation${selected ? ' selected' : ''}`}>
      <a href={hrefOf({ screen: 'chat', conversationId: conversation.id })} aria-current={selected ? 'true' : undefined}>
        <span className="conversation-title" title={conversation.title}>
          {conversation.title || 'Untitled'}
        </span>
        <span className="conversation-meta">
          {formatTime(conversation.updated_at, format)} · {plural(conversation.message_count, 'message')}
          {!conversation.learn && (
            <span className="not-remembered" title="Not remembered: its messages are kept and never learned">
              {' '}
              · <span aria-hidden="true">⊘</span> not remembered
            </span>
          )}
        </span>
      </a>
      <div className="conversation-actions">
        <button ref={renameButton} type="button" className="icon-button" aria-label={`Rename ${conversation.title}`} title="Rename" onClick={() => { setTitle(conversation.title); setEditing(true); }}>
          ✎
        </button>
        <button type="button" className="icon-button" aria-label={`Delete ${conversation.title}`} title="Delete" onClick={onDelete}>
          ✕
        </button>
      </div>
    </li>
  );
}
