/**
 * What the timeline's window reads of the rows kept by triggers (store/timeline-rows.ts), as one
 * interface (timeline-kept-window.ts reads it): the rows as they are now (keptRowsNow, here), as
 * they were at a known-at time (timeline-known-at.ts), or those a row filter keeps whole
 * (timeline-kept-filter.ts).
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { keptDensity, type TimelineDensity } from './timeline-density';
import type { IsoTime } from '../../../shared/time';

export interface KeptRow {
  subject_id: string;
  name: string;
  n: number;
  open_n: number;
  first: IsoTime;
  last: IsoTime;
}

export interface KeptSubject extends KeptRow {
  mine: number;
  sort_key: string;
  slots: number;
}

export interface KeptSlot extends KeptRow {
  predicate: string;
}

/**
 * What the window reads of the kept rows: as they are now (below), or as they were at a known-at
 * time (timeline-known-at.ts: the rows now, less what was recorded since, plus what was replaced since).
 */
export interface KeptRows {
  /** The held facts' clause (on `f`) and its parameters. */
  held: string;
  params: Record<string, string>;
  /** A row filter's clause on `f` (" AND …") and the joins it reads (timeline-kept-filter.ts); none: every held fact. */
  filter?: string;
  joins?: string;
  totals(): { subjects: number; slots: number };
  subject(id: string): KeptSubject | undefined;
  /** How many subjects come before this one in the timeline's order. */
  placeOf(subject: KeptSubject): number;
  bounds(): { first: IsoTime | null; last: IsoTime | null };
  density(first: IsoTime, last: IsoTime): TimelineDensity;
  /** The subjects from `place` in the timeline's order. */
  page(place: number, limit: number): KeptSubject[];
  /** A subject's rows by predicate, from `offset`. */
  slotsOf(subject: KeptSubject, limit: number, offset: number): KeptSlot[];
}

/** The timeline's order: the user's first, then names in natural order (store/natural-order.ts). */
const SUBJECT_ORDER = 'mine DESC, sort_key, name, subject_id';
/** Subjects that come before @id in the timeline's order. */
const BEFORE = `mine > @mine OR (mine = @mine AND (sort_key < @key OR (sort_key = @key AND (name < @name OR (name = @name AND subject_id < @id)))))`;

/** The kept rows as they are: the facts held now. */
export function keptRowsNow(db: Database): KeptRows {
  return {
    held: 'f.expired_at IS NULL',
    params: {},
    totals: () => cachedStatement(db, 'SELECT subjects, slots FROM timeline_totals WHERE id = 1').get() as { subjects: number; slots: number },
    subject: (id) => cachedStatement(db, 'SELECT subject_id, name, sort_key, mine, slots, n, open_n, first, last FROM timeline_subjects WHERE subject_id = ?').get(id) as KeptSubject | undefined,
    placeOf: (s) =>
      (cachedStatement(db, `SELECT count(*) AS place FROM timeline_subjects WHERE ${BEFORE}`).get({ mine: s.mine, key: s.sort_key, name: s.name, id: s.subject_id }) as { place: number }).place,
    bounds: () => cachedStatement(db, 'SELECT (SELECT min(first) FROM timeline_subjects) AS first, (SELECT max(last) FROM timeline_subjects) AS last').get() as { first: IsoTime | null; last: IsoTime | null },
    density: (first, last) => keptDensity(db, first, last),
    page: (place, limit) =>
      cachedStatement(db, `SELECT subject_id, name, sort_key, mine, slots, n, open_n, first, last FROM timeline_subjects ORDER BY ${SUBJECT_ORDER} LIMIT ? OFFSET ?`).all(limit, place) as KeptSubject[],
    slotsOf: (subject, limit, offset) =>
      cachedStatement(db, 'SELECT s.subject_id, ? AS name, s.predicate, s.n, s.open_n, s.first, s.last FROM timeline_slots s WHERE s.subject_id = ? ORDER BY s.predicate LIMIT ? OFFSET ?').all(
        subject.name,
        subject.subject_id,
        limit,
        offset,
      ) as KeptSlot[],
  };
}
