/**
 * A note for the Facts screen the next time it opens: what was just done on a fact's page that took
 * the fact away (forgotten), said there in a status line (FactsScreen.tsx), taken once.
 */
let note: string | null = null;

/** Leaves `text` for the Facts screen's next opening. */
export function leaveFactsNote(text: string): void {
  note = text;
}

/** The note left, once: null after it is taken. */
export function takeFactsNote(): string | null {
  const text = note;
  note = null;
  return text;
}
