/**
 * The user's own group on the timeline starts open, whatever the memory's size: the screens open on
 * the user, their facts in the first view (design, "The screens"). Unless the user closed it, it joins
 * the groups opened; every way of reading the window (timeline-window.ts) asks with it.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import type { TimelineWindowQuery } from './timeline-window-shape';

export function ownGroupOpen(db: Database, q: TimelineWindowQuery): TimelineWindowQuery {
  if (!q.groups) return q;
  // By index (timeline_subject_lives_in_order leads with mine): every subject that is the user's, held now or ever.
  const mine = cachedStatement<[], string>(db, 'SELECT subject_id FROM timeline_subject_lives WHERE mine = 1').pluck().all();
  const closed = new Set(q.groups.collapsed ?? []);
  const opened = new Set(q.groups.expanded ?? []);
  const own = mine.filter((id) => !closed.has(id) && !opened.has(id));
  return own.length === 0 ? q : { ...q, groups: { ...q.groups, expanded: [...opened, ...own] } };
}
