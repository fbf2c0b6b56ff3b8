/**
 * Below ~1,000 px the conversation list is a drawer (chat.css): a button in the chat's header opens
 * it and the focus moves into it (to the open conversation, else "New conversation"); Escape, a
 * click beside it, or picking a conversation closes it, and the focus goes back to the button;
 * tabbing out of it closes it too.
 * Wide windows show the list always; the button and the backdrop are then not displayed.
 */
import { useCallback, useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

export const DRAWER_ID = 'conversation-drawer';

export function useConversationDrawer(conversationId: string | null) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLElement>(null);

  const close = useCallback((returnFocus = true) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const list = drawer.current;
    (list?.querySelector<HTMLElement>('a[aria-current="true"]') ?? list?.querySelector<HTMLElement>('button'))?.focus();
  }, [open]);

  // Picking a conversation (or a new one) closes the drawer.
  const shown = useRef(conversationId);
  useEffect(() => {
    if (shown.current === conversationId) return;
    shown.current = conversationId;
    // The focus was in the drawer: it goes back to the button, not to the page's start.
    const inside = drawer.current?.contains(document.activeElement) ?? false;
    setOpen(false);
    if (inside) button.current?.focus();
  }, [conversationId]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (!open || event.key !== 'Escape') return;
    // Escape in the rename field or the delete dialog is theirs.
    if ((event.target as HTMLElement).closest('input, dialog')) return;
    event.preventDefault();
    close();
  };

  // The focus left for the page behind it (Tab past its end): it closes, the focus stays where it went.
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    const to = event.relatedTarget;
    if (open && to instanceof Node && !event.currentTarget.contains(to)) setOpen(false);
  };

  return {
    open,
    toggle: {
      ref: button,
      'aria-expanded': open,
      'aria-controls': DRAWER_ID,
      onClick: () => (open ? close() : setOpen(true)),
    },
    drawer: { ref: drawer, id: DRAWER_ID, open, onKeyDown, onBlur },
    close,
  };
}
