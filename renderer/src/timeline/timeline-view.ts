/** The timeline's view (zoom window, as-of cursor, known-at, row filter, groups and rows opened or closed), kept while the user visits other screens. */
import { useCallback, useEffect, useState } from 'react';
import type { IsoTime } from '../../../shared/time';
import type { Domain } from './timeline-scale';

export interface TimelineView {
  /** null: fit everything once the facts are loaded. */
  domain: Domain | null;
  /** The as-of cursor; null: now, following the clock ("today" typed, Today pressed; the first view). */
  asOf: number | null;
  /** How the as-of moment was typed when that was a month or a year ("March 2025"); null: the moment itself. */
  asOfPrecision: 'month' | 'year' | null;
  /** ISO time, or null for "now" (the memory as it is held now). */
  knownAt: IsoTime | null;
  filter: string;
  /** The user's choices of groups opened (true) or collapsed (false), by subject id; the rest follow the default. */
  groupChoices: Record<string, boolean>;
  /** Keys of folded rows (more than MAX_LANES lanes) the user opened. */
  openRows: string[];
}

let saved: TimelineView = { domain: null, asOf: null, asOfPrecision: null, knownAt: null, filter: '', groupChoices: {}, openRows: [] };

/** A fact opened from the timeline, and where its rows were scrolled (null: not known): going back returns there. */
export interface TimelineBack {
  factId: string;
  scrollTop: number | null;
}

let back: TimelineBack | null = null;

/** The fact's pages (its versions open by replacing the route) and the timeline keep it; any other screen drops it. */
function dropBackElsewhere(): void {
  if (!back) return;
  const hash = window.location.hash;
  if (hash !== '#/timeline' && !hash.startsWith('#/facts/')) back = null;
}

/** Noted as a fact is opened (before the screen goes: no render of this one follows). */
export function rememberBack(opened: TimelineBack): void {
  back = opened;
  window.removeEventListener('hashchange', dropBackElsewhere);
  window.addEventListener('hashchange', dropBackElsewhere);
}

/** What to return to, once: the next visit to the timeline from elsewhere starts as the view was. */
export function takeBack(): TimelineBack | null {
  const taken = back;
  back = null;
  return taken;
}

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

/** Now, as of the last minute; read afresh whenever `restart` changes (Today pressed: now, not a minute ago). */
export function useClock(restart: unknown): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, [restart]);
  return now;
}

/** The list with `item` added, or taken out if it was there. */
export function toggled(list: readonly string[], item: string): string[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}
