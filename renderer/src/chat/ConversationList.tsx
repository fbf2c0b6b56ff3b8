/**
 * The conversation list: new, rename, delete (asking whether to forget what was learned from it, an
 * empty one only whether to delete it), the focus going to the next conversation once one is
 * deleted; a drawer in narrow windows (use-conversation-drawer.ts).
 */
import { useEffect, useRef, useState, type FocusEvent, type KeyboardEvent, type RefObject } from 'react';
import type { ConversationSummary } from '../../../shared/api-contract';
import { useApi } from '../app/api-context';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ErrorText } from '../common/ErrorText';
import { ConversationItem } from './ConversationItem';
import { plural } from '../common/format';

interface Props {
  conversations: readonly ConversationSummary[];
  selectedId: string | null;
  onCreate(): void;
  onChanged(deletedId: string | null): void;
  /** The drawer it is below ~1,000 px: open or not, its Escape key, the focus leaving it. */
  drawer?: { ref: RefObject<HTMLElement | null>; id: string; open: boolean; onKeyDown(event: KeyboardEvent<HTMLElement>): void; onBlur(event: FocusEvent<HTMLElement>): void };
}

export function ConversationList({ conversations, selectedId, onCreate, onChanged, drawer }: Props) {
  const api = useApi();
  const [deleting, setDeleting] = useState<ConversationSummary | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  /** A conversation deleted from the keyboard's place in the list: the focus goes to the one now there. */
  const focusAfterDelete = useRef<{ id: string; index: number } | null>(null);
  useEffect(() => {
    const after = focusAfterDelete.current;
    if (!after || conversations.some((c) => c.id === after.id)) return;
    focusAfterDelete.current = null;
    const links = list.current?.querySelectorAll<HTMLElement>('li > a') ?? [];
    (links[after.index] ?? links[after.index - 1] ?? newButton.current)?.focus();
  }, [conversations]);

  const rename = async (id: string, title: string) => {
    try {
      setError(null);
      await api.renameConversation({ id, title });
      onChanged(null);
    } catch (e) {
      setError(e);
    }
  };

  const remove = async (choice: string | null) => {
    const target = deleting;
    setDeleting(null);
    if (!target || choice === null) return;
    try {
      setError(null);
      const result = await api.deleteConversation({ id: target.id, forget: choice === 'forget' });
      setNote(
        choice === 'forget'
          ? `Deleted “${target.title}” and forgot ${plural(result.forgottenFacts, 'fact')} learned from it.`
          : target.message_count === 0
            ? `Deleted “${target.title}”.`
            : `Deleted “${target.title}”; what was learned stays${result.keptMessages > 0 ? ` (${plural(result.keptMessages, 'source message')} kept as provenance)` : ''}.`,
      );
      focusAfterDelete.current = { id: target.id, index: Math.max(0, conversations.findIndex((c) => c.id === target.id)) };
      onChanged(target.id);
    } catch (e) {
      setError(e);
    }
  };

  return (
    <aside className={`conversations${drawer?.open ? ' open' : ''}`} aria-label="Conversations" ref={drawer?.ref} id={drawer?.id} onKeyDown={drawer?.onKeyDown} onBlur={drawer?.onBlur}>
      <button ref={newButton} type="button" className="primary new-conversation" onClick={onCreate}>
        + New conversation
      </button>
      <ErrorText error={error} />
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      <ul ref={list}>
        {conversations.map((c) => (
          <ConversationItem key={c.id} conversation={c} selected={c.id === selectedId} onRename={(title) => rename(c.id, title)} onDelete={() => setDeleting(c)} />
        ))}
      </ul>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete “${deleting?.title ?? ''}”?`}
        choices={
          deleting?.message_count === 0
            ? [{ label: 'Delete', value: 'keep', danger: true }]
            : [
                { label: 'Delete and forget what was learned', value: 'forget', danger: true },
                { label: 'Delete, keep what was learned', value: 'keep' },
              ]
        }
        onChoose={(value) => void remove(value)}
      >
        {deleting?.message_count === 0 ? (
          <p>It has no messages.</p>
        ) : (
          <>
            <p>The conversation’s messages will be deleted.</p>
            <p>
              Tempora may have learned facts from it. <strong>Forget</strong> removes those facts everywhere and cannot be undone;{' '}
              <strong>keep</strong> leaves them in your memory, with their source messages kept as provenance.
            </p>
          </>
        )}
      </ConfirmDialog>
    </aside>
  );
}
