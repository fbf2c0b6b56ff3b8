/**
 * Focus for a form that opens in place of a button (a fact's edit and close forms): the focus moves
 * into its first field when it opens, to the field main refused (or the submit button) when a
 * save fails, and Escape cancels it, as Cancel does. Escape that something inside already handled
 * (a native picker, a composition in an input method) is left alone.
 */
import { useEffect, useState, type KeyboardEvent, type RefObject } from 'react';

const FIELDS = 'input:not([type="hidden"]):not(:disabled), textarea:not(:disabled), select:not(:disabled)';

/** Focuses the form's first field once, when it mounts. */
export function useFocusFirstField(form: RefObject<HTMLFormElement | null>): void {
  useEffect(() => {
    form.current?.querySelector<HTMLElement>(FIELDS)?.focus();
  }, [form]);
}

/** After a refused save (`error` set), focuses the field marked invalid, else the submit button. */
export function useFocusOnError(form: RefObject<HTMLFormElement | null>, error: unknown): void {
  useEffect(() => {
    if (!error || !form.current) return;
    const target = form.current.querySelector<HTMLElement>('[aria-invalid="true"]') ?? form.current.querySelector<HTMLElement>('[type="submit"]');
    target?.focus();
  }, [form, error]);
}

/**
 * Focus that moves after the render that shows its target: a note that appears once a call is done,
 * or a field when the button pressed is gone. `focusAfterRender(key)` focuses `targets[key]()` then.
 */
export function useFocusAfterRender<K extends string>(targets: Record<K, () => HTMLElement | null | undefined>): (key: K) => void {
  const [focusTo, setFocusTo] = useState<K | null>(null);
  useEffect(() => {
    if (focusTo === null) return;
    targets[focusTo]()?.focus();
    setFocusTo(null);
  }, [focusTo, targets]);
  return setFocusTo;
}

/** A keydown handler for the form: Escape cancels, unless handled already or part of a composition. */
export function escapeCancels(onCancel: () => void): (event: KeyboardEvent<HTMLElement>) => void {
  return (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onCancel();
  };
}
