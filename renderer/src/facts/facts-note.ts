/**
 * Notes for the Facts screen the next time it opens, each taken once: what was just done on a fact's
 * page that took the fact away (forgotten), said there in a status line (FactsScreen.tsx); and the
 * fact opened from its list, so that back from the fact (← Facts, the browser's Back) the focus
 * returns to its row, as the Timeline returns to a bar (timeline-view.ts: rememberBack).
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

let opened: string | null = null;

/** A fact's pages (its versions open by replacing the route) keep the row opened; any other screen drops it. */
function dropOpenedElsewhere(): void {
  const hash = window.location.hash;
  if (hash !== '#/facts' && !hash.startsWith('#/facts/')) opened = null;
}

/** Noted as a fact is opened from the list (before the screen goes). */
export function rememberOpened(factId: string): void {
  opened = factId;
  window.removeEventListener('hashchange', dropOpenedElsewhere);
  window.addEventListener('hashchange', dropOpenedElsewhere);
}

/** The fact opened from the list, once: the row the focus returns to. */
export function takeOpened(): string | null {
  const id = opened;
  opened = null;
  return id;
}
