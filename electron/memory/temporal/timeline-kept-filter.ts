/**
 * The timeline's kept rows for a row filter (issue 26), for the window read from them
 * (timeline-kept-window.ts). The filter keeps a fact whose subject's name, predicate or object
 * contains its text (timeline-source.ts). A subject whose name contains it keeps all its rows whole;
 * a predicate that contains it keeps all its rows whole: those rows are the kept rows
 * (store/timeline-rows.ts) as they are, not counted again from the facts. Only the object keeps part
 * of a row: the held facts kept by their object alone, outside the rows kept whole, are found by
 * index and summed by row here (at most MAX_PART_FACTS; more: null, and the one pass over the facts
 * the filter keeps answers: timeline-window.ts).
 *
 * Cost: the names (as the indexed source finds them), the facts whose object is one of those
 * entities or whose literal contains the text, the totals by index (a count over the predicates'
 * rows), the page of subjects in the timeline's order (walked by index, each subject checked by its
 * key, or — when the kept subjects are few for where the page lies — the kept subjects sorted), and
 * the density: the named subjects' held facts by index, and each named predicate's starts and ends
 * counted per span of the density by index range (facts_by_predicate_time, its expired_at read
 * from the index since migration 0031, and facts_live_by_predicate_invalid_at, migration 0027).
 * Held now only; known at a time, the indexed source's pass answers.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { densityGrid, type TimelineDensity } from './timeline-density';
import type { KeptRows, KeptSlot, KeptSubject } from './timeline-kept-rows';
import { FILTER_CLAUSE, FILTER_JOINS, matchingEntities, matchingPredicates } from './timeline-source';
import { isoFromMs, type IsoTime } from '../../../shared/time';

const NAMED = 'SELECT value FROM json_each(@subjects)';
const PREDICATES = 'SELECT value FROM json_each(@predicates)';
const ESCAPE = "ESCAPE '\\'";
/** A subject of timeline_subjects `t` keeps rows: it is named, has part of a row, or has a row of a named predicate. */
const KEPT = `(t.subject_id IN (${NAMED}) OR t.subject_id IN (SELECT value FROM json_each(@parts)) OR EXISTS (SELECT 1 FROM timeline_slots s WHERE s.subject_id = t.subject_id AND s.predicate IN (${PREDICATES})))`;
const SUBJECT_COLUMNS = 't.subject_id, t.name, t.sort_key, t.mine, t.slots, t.n, t.open_n, t.first, t.last';
const ORDER = 't.mine DESC, t.sort_key, t.name, t.subject_id';
const BEFORE = `t.mine > @mine OR (t.mine = @mine AND (t.sort_key < @key OR (t.sort_key = @key AND (t.name < @name OR (t.name = @name AND t.subject_id < @id)))))`;

/** The most held facts kept by their object alone (parts of rows) that are summed here; more: the pass. */
export const MAX_PART_FACTS = 20_000;
const SURROGATE = /[\uD800-\uDFFF]/;
/** Strings in SQLite's BINARY order (UTF-8 bytes: UTF-16 order but for characters past U+FFFF). */
const binary = (a: string, b: string) => (SURROGATE.test(a) || SURROGATE.test(b) ? Buffer.compare(Buffer.from(a), Buffer.from(b)) : a < b ? -1 : a > b ? 1 : 0);
const minOf = <T extends string>(xs: (T | null | undefined)[]) => xs.reduce<T | null>((m, x) => (x == null ? m : m === null || x < m ? x : m), null);
const maxOf = <T extends string>(xs: (T | null | undefined)[]) => xs.reduce<T | null>((m, x) => (x == null ? m : m === null || x > m ? x : m), null);

/** The kept rows of the filter `text` (trimmed; `pattern` its LIKE pattern), held now, or null when it keeps more than `maxParts` facts by their object alone. */
export function keptRowsFiltered(db: Database, text: string, pattern: string, maxParts = MAX_PART_FACTS): KeptRows | null {
  const named = matchingEntities(db, text, pattern);
  if (named === null) return null;
  const predicates = matchingPredicates(db, pattern);
  const found = { subjects: JSON.stringify(named), predicates: JSON.stringify(predicates), filter: pattern };
  const parts = partRows(db, found, maxParts);
  if (parts === null) return null;
  const params = { ...found, parts: JSON.stringify([...parts.bySubject.keys()]) };

  const namedSet = new Set(named);
  const totalsOf = () => {
    const ofNamed = cachedStatement(db, `SELECT count(*) AS subjects, COALESCE(sum(slots), 0) AS slots FROM timeline_subjects WHERE subject_id IN (${NAMED})`).get(params) as { subjects: number; slots: number };
    // One predicate: each subject has one row of it at most.
    const ofPredicates = cachedStatement(
      db,
      `SELECT ${predicates.length === 1 ? 'count(*)' : 'count(DISTINCT subject_id)'} AS subjects, count(*) AS slots FROM timeline_slots INDEXED BY timeline_slots_by_predicate
       WHERE predicate IN (${PREDICATES}) AND subject_id NOT IN (${NAMED})`,
    ).get(params) as { subjects: number; slots: number };
    // The subjects with part of a row and none of a named predicate's.
    const onlyParts = cachedStatement(
      db,
      `SELECT count(*) AS n FROM json_each(@parts) j WHERE NOT EXISTS (SELECT 1 FROM timeline_slots s WHERE s.subject_id = j.value AND s.predicate IN (${PREDICATES}))`,
    ).get(params) as { n: number };
    return { subjects: ofNamed.subjects + ofPredicates.subjects + onlyParts.n, slots: ofNamed.slots + ofPredicates.slots + parts.rows };
  };
  let totals: { subjects: number; slots: number } | undefined;
  const byId = cachedStatement(db, `SELECT ${SUBJECT_COLUMNS} FROM timeline_subjects t WHERE t.subject_id = ?`);
  const predicateRows = cachedStatement(db, `SELECT r.subject_id, r.predicate, r.n, r.open_n, r.first, r.last FROM timeline_slots r WHERE r.subject_id = @id AND r.predicate IN (${PREDICATES})`);
  /** A subject's rows as the filter keeps them (null: whole), in the timeline's order of predicates. */
  const rowsOf = (id: string): KeptSlot[] | null => {
    if (namedSet.has(id)) return null;
    const rows = [...(predicateRows.all({ ...params, id }) as KeptSlot[]), ...(parts.bySubject.get(id) ?? [])];
    return rows.sort((x, y) => binary(x.predicate, y.predicate));
  };
  /** A subject as the filter keeps it: whole when named, else its rows of the named predicates and its parts of rows. */
  const subject = (id: string): KeptSubject | undefined => {
    const held = byId.get(id) as KeptSubject | undefined;
    const rows = held && rowsOf(id);
    if (!held || !rows) return held;
    if (rows.length === 0) return undefined;
    const sum = (key: 'n' | 'open_n') => rows.reduce((total, r) => total + r[key], 0);
    return { ...held, slots: rows.length, n: sum('n'), open_n: sum('open_n'), first: minOf(rows.map((r) => r.first))!, last: maxOf(rows.map((r) => r.last))! };
  };

  return {
    held: 'f.expired_at IS NULL',
    filter: FILTER_CLAUSE,
    joins: FILTER_JOINS,
    params,
    totals: () => (totals ??= totalsOf()),
    subject,
    placeOf: (s) =>
      (cachedStatement(db, `SELECT count(*) AS place FROM timeline_subjects t WHERE (${BEFORE}) AND ${KEPT}`).get({ ...params, mine: s.mine, key: s.sort_key, name: s.name, id: s.subject_id }) as { place: number }).place,
    bounds: () => {
      const ofNamed = cachedStatement(db, `SELECT min(first) AS first, max(last) AS last FROM timeline_subjects WHERE subject_id IN (${NAMED})`).get(params) as { first: IsoTime | null; last: IsoTime | null };
      const one = (sql: string, predicate: string) => (cachedStatement(db, sql).get(predicate) as { t: IsoTime } | undefined)?.t;
      const live = 'WHERE predicate = ? AND expired_at IS NULL';
      return {
        first: minOf([ofNamed.first, parts.first, ...predicates.map((p) => one(`SELECT valid_at AS t FROM facts INDEXED BY facts_by_predicate_time ${live} ORDER BY valid_at LIMIT 1`, p))]),
        last: maxOf([
          ofNamed.last,
          parts.last,
          ...predicates.map((p) => one(`SELECT valid_at AS t FROM facts INDEXED BY facts_by_predicate_time ${live} ORDER BY valid_at DESC LIMIT 1`, p)),
          ...predicates.map((p) => one(`SELECT invalid_at AS t FROM facts INDEXED BY facts_live_by_predicate_invalid_at ${live} AND invalid_at IS NOT NULL ORDER BY invalid_at DESC LIMIT 1`, p)),
        ]),
      };
    },
    density: (first, last) => density(db, params, predicates, parts.times, first, last),
    page: (place, limit) => {
      const all = (cachedStatement(db, 'SELECT subjects FROM timeline_totals WHERE id = 1').get() as { subjects: number }).subjects;
      const kept = (totals ??= totalsOf()).subjects;
      // Walking the order visits about (place + limit) × all / kept subjects; sorting the kept ones costs about them.
      const walk = (predicates.length > 0 || parts.bySubject.size > 0) && (place + limit) * all < 2 * kept * kept;
      const ids = (
        walk
          ? cachedStatement(db, `SELECT t.subject_id FROM timeline_subjects t INDEXED BY timeline_subjects_in_order WHERE ${KEPT} ORDER BY ${ORDER} LIMIT @limit OFFSET @place`)
          : cachedStatement(
              db,
              `SELECT t.subject_id FROM timeline_subjects t
               WHERE t.subject_id IN (${NAMED} UNION SELECT value FROM json_each(@parts) UNION SELECT subject_id FROM timeline_slots INDEXED BY timeline_slots_by_predicate WHERE predicate IN (${PREDICATES}))
               ORDER BY ${ORDER} LIMIT @limit OFFSET @place`,
            )
      ).all({ ...params, limit, place }) as { subject_id: string }[];
      return ids.map((r) => subject(r.subject_id)).filter((s): s is KeptSubject => s !== undefined);
    },
    slotsOf: (s, limit, offset) =>
      (
        rowsOf(s.subject_id) ??
        (cachedStatement(db, 'SELECT r.subject_id, r.predicate, r.n, r.open_n, r.first, r.last FROM timeline_slots r WHERE r.subject_id = @id ORDER BY r.predicate LIMIT @limit OFFSET @offset').all({
          id: s.subject_id,
          limit,
          offset,
        }) as KeptSlot[])
      )
        .slice(namedSet.has(s.subject_id) ? 0 : offset)
        .slice(0, limit)
        .map((r) => ({ ...r, name: s.name })),
  };
}

/**
 * The density of the kept rows (timeline-density.ts's meaning): the named subjects' held facts read
 * by index (their rows of a named predicate left to the predicate's count), the parts of rows' facts,
 * and each named predicate's starts and ends counted per bucket by index range.
 */
function density(db: Database, params: Record<string, string>, predicates: string[], partTimes: readonly (string | null)[], first: string, last: string): TimelineDensity {
  const grid = densityGrid(first, last);
  const counts = new Array<number>(grid.buckets).fill(0);
  const add = (t: string | null) => {
    if (t === null) return;
    const b = Math.floor((Date.parse(t) - grid.from) / grid.width);
    if (b >= 0 && b < grid.buckets) counts[b]! += 1;
  };
  const ofNamed = cachedStatement(
    db,
    `SELECT f.valid_at, f.invalid_at FROM facts f INDEXED BY facts_live_by_slot_time
     WHERE f.subject_id IN (${NAMED}) AND f.expired_at IS NULL AND f.predicate NOT IN (${PREDICATES})`,
  ).all(params) as { valid_at: IsoTime; invalid_at: IsoTime | null }[];
  for (const f of ofNamed) {
    add(f.valid_at);
    add(f.invalid_at);
  }
  for (const t of partTimes) add(t);
  // Each bucket's span as text, compared as stored times are (canonical UTC, four-digit years:
  // shared/memory-schema.ts isoTime); its inner edges lie between two such times, so they are written
  // the same way. The first span is open below and the last above: every held time is on the grid.
  const edges = Array.from({ length: grid.buckets + 1 }, (_, i) => new Date(grid.from + i * grid.width).toISOString());
  const spans = JSON.stringify(Array.from({ length: grid.buckets }, (_, i) => [i === 0 ? '' : edges[i], i === grid.buckets - 1 ? '\u{10FFFF}' : edges[i + 1]]));
  for (const [column, index] of [
    ['valid_at', 'facts_by_predicate_time'],
    ['invalid_at', 'facts_live_by_predicate_invalid_at'],
  ] as const) {
    const statement = cachedStatement(
      db,
      `SELECT j.key AS b, (SELECT count(*) FROM facts f INDEXED BY ${index} WHERE f.predicate = @predicate AND f.expired_at IS NULL
         AND f.${column} >= j.value ->> 0 AND f.${column} < j.value ->> 1) AS n FROM json_each(@spans) j`,
    );
    for (const predicate of predicates) for (const { b, n } of statement.all({ predicate, spans }) as { b: number; n: number }[]) counts[b]! += n;
  }
  return { from: isoFromMs(grid.from), to: isoFromMs(grid.from + grid.buckets * grid.width), counts };
}

interface Parts {
  /** The rows kept in part, by subject. */
  bySubject: Map<string, KeptSlot[]>;
  rows: number;
  first: IsoTime | null;
  last: IsoTime | null;
  /** Their facts' starts and ends. */
  times: (string | null)[];
}

/**
 * The held facts kept by their object alone — an entity's name or a literal that contains the text,
 * in a row not kept whole (subject not named, predicate not named) — summed by row; null when there
 * are more than MAX_PART_FACTS.
 */
function partRows(db: Database, params: Record<string, string>, max: number): Parts | null {
  const outside = `f.expired_at IS NULL AND f.subject_id NOT IN (${NAMED}) AND f.predicate NOT IN (${PREDICATES})`;
  const facts = cachedStatement(
    db,
    `SELECT f.subject_id, f.predicate, f.valid_at, f.invalid_at FROM facts f WHERE f.object_id IN (${NAMED}) AND ${outside}
     UNION ALL
     SELECT f.subject_id, f.predicate, f.valid_at, f.invalid_at FROM facts f INDEXED BY facts_literal_values
       WHERE f.object_literal IS NOT NULL AND f.object_id IS NULL AND ${outside} AND lower(f.object_literal) LIKE @filter ${ESCAPE}
     LIMIT @cap`,
  ).all({ ...params, cap: max + 1 }) as { subject_id: string; predicate: string; valid_at: IsoTime; invalid_at: IsoTime | null }[];
  if (facts.length > max) return null;
  const rows = new Map<string, KeptSlot>();
  const times: (IsoTime | null)[] = [];
  for (const f of facts) {
    const key = `${f.subject_id}\u0000${f.predicate}`;
    const end = f.invalid_at !== null && f.invalid_at > f.valid_at ? f.invalid_at : f.valid_at;
    const row = rows.get(key);
    if (row) {
      row.n += 1;
      row.open_n += f.invalid_at === null ? 1 : 0;
      if (f.valid_at < row.first) row.first = f.valid_at;
      if (end > row.last) row.last = end;
    } else rows.set(key, { subject_id: f.subject_id, name: '', predicate: f.predicate, n: 1, open_n: f.invalid_at === null ? 1 : 0, first: f.valid_at, last: end });
    times.push(f.valid_at, f.invalid_at);
  }
  const bySubject = new Map<string, KeptSlot[]>();
  for (const row of rows.values()) bySubject.set(row.subject_id, [...(bySubject.get(row.subject_id) ?? []), row]);
  const all = [...rows.values()];
  return { bySubject, rows: rows.size, first: minOf(all.map((r) => r.first)), last: maxOf(all.map((r) => r.last)), times };
}
