/** The timeline's view (zoom window, as-of cursor, known-at, row filter, groups and rows opened or closed), kept while the user visits other screens. */
import { useCallback, useState } from 'react';
import type { IsoTime } from '../../../shared/time';
import type { Domain } from './timeline-scale';

export interface TimelineView {
  /** null: fit everything once the facts are loaded. */
  domain: Domain | null;
  asOf: number;
  /** ISO time, or null for "now" (the memory as it is held now). */
  knownAt: IsoTime | null;
  filter: string;
  /** The user's choices of groups opened (true) or collapsed (false), by subject id; the rest follow the default. */
  groupChoices: Record<string, boolean>;
  /** Keys of folded rows (more than MAX_LANES lanes) the user opened. */
  openRows: string[];
}

let saved: TimelineView = { domain: null, asOf: Date.now(), knownAt: null, filter: '', groupChoices: {}, openRows: [] };

export function useTimelineView(): [TimelineView, (patch: Partial<TimelineView> | ((view: TimelineView) => Partial<TimelineView>)) => void] {
  const [view, setView] = useState(saved);
  const update = useCallback((patch: Partial<TimelineView> | ((view: TimelineView) => Partial<TimelineView>)) => {
    setView((current) => {
      const next = { ...current, ...(typeof patch === 'function' ? patch(current) : patch) };
      saved = next;
      return next;
    });
  }, []);
  return [view, update];
}

/** The list with `item` added, or taken out if it was there. */
export function toggled(list: readonly string[], item: string): string[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}
