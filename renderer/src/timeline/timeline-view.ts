/** The timeline's view (zoom window, as-of cursor, known-at, row filter), kept while the user visits other screens. */
import { useCallback, useState } from 'react';
import type { Domain } from './timeline-scale';

export interface TimelineView {
  /** null: fit everything once the facts are loaded. */
  domain: Domain | null;
  asOf: number;
  /** ISO time, or null for "now" (the memory as it is held now). */
  knownAt: string | null;
  filter: string;
}

let saved: TimelineView = { domain: null, asOf: Date.now(), knownAt: null, filter: '' };

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
