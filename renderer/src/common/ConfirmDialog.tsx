/**
 * A modal question on the native <dialog>: focus moves into it, Esc cancels, focus returns after.
 * Each choice is a button; Cancel is focused, so Enter never destroys anything by accident.
 */
import { useEffect, useRef, type ReactNode } from 'react';

export interface Choice {
  label: string;
  value: string;
  danger?: boolean;
}

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  choices: Choice[];
  onChoose(value: string | null): void;
}

export function ConfirmDialog({ open, title, children, choices, onChoose }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // showModal() focuses the first focusable element (a checkbox, the destructive choice): Cancel instead.
    if (open && !dialog.open) {
      dialog.showModal();
      cancel.current?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby="confirm-dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        onChoose(null);
      }}
    >
      <h2 id="confirm-dialog-title">{title}</h2>
      <div className="confirm-body">{children}</div>
      <div className="confirm-actions">
        {choices.map((choice, index) => (
          <button
            key={choice.value}
            type="button"
            className={choice.danger ? 'danger' : index === 0 ? 'primary' : ''}
            onClick={() => onChoose(choice.value)}
          >
            {choice.label}
          </button>
        ))}
        <button ref={cancel} type="button" autoFocus onClick={() => onChoose(null)}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
