/**
 * Where the user's own story is, for Fit (timeline-fit.ts): the user's group ('me', first of the
 * rows) — its marks (where its facts begin and end), or its first start and last end. Kept while the
 * first row is not fetched (scrolled far away), so a fitted view does not move as one scrolls;
 * forgotten when what is asked changes (the filter, known at).
 */
import { useRef } from 'react';
import type { Density } from './timeline-fit';
import { USER_NAME, type TimelineLayout, type TimelineRow } from './timeline-model';

export type OwnSpan = Density | { from: number; to: number } | null;

export function useOwnSpan(layout: TimelineLayout, asked: string): OwnSpan {
  const seen = useRef<{ asked: string; row: TimelineRow | undefined; span: OwnSpan }>({ asked, row: undefined, span: null });
  const row = layout.rows[0];
  if (row !== undefined && row !== seen.current.row) seen.current = { asked, row, span: spanOf(row) };
  else if (row === undefined && seen.current.asked !== asked) seen.current = { asked, row, span: null };
  return seen.current.span;
}

function spanOf(row: TimelineRow): OwnSpan {
  if (!row.group || row.subject !== USER_NAME || !row.summary) return null;
  return row.summary.marks ?? { from: row.summary.first, to: row.summary.last };
}
