/**
 * The timeline's kept rows for a row filter (issue 26), for the window read from them
 * (timeline-kept-window.ts). The filter keeps a fact whose subject's name, predicate or object
 * contains its text (timeline-source.ts). A subject whose name contains it keeps all its rows whole;
 * a predicate that contains it keeps all its rows whole. Only the object keeps a part of a row. So
 * when no held fact is kept by its object alone (outside the rows kept whole), the filter's rows are
 * exactly the kept rows (store/timeline-rows.ts) of those subjects and predicates — their counts,
 * first and last as kept, not counted again from the facts. Otherwise null: the one pass over the
 * facts it keeps answers (timeline-window.ts).
 *
 * Cost: the names (as the indexed source finds them), a check of the facts whose object is one of
 * those entities or whose literal contains the text, the totals by index (a count over the
 * predicates' rows), the page of subjects in the timeline's order (walked by index, each subject
 * checked by its key, or — when the kept subjects are few for where the page lies — the kept
 * subjects sorted), and the density: the named subjects' held facts by index, and each named
 * predicate's starts and ends counted per span of the density by index range
 * (facts_live_by_predicate_valid_at / _invalid_at, migration 0027): no fact is read from the table.
 * Held now only; known at a time, the indexed source's pass answers.
 */
import type { Database } from 'better-sqlite3';
import { cachedStatement } from '../store/database/statement-cache';
import { densityGrid, type TimelineDensity } from './timeline-density';
import type { KeptRows, KeptSlot, KeptSubject } from './timeline-kept-rows';
import { FILTER_CLAUSE, FILTER_JOINS, matchingEntities, matchingPredicates } from './timeline-source';

const NAMED = 'SELECT value FROM json_each(@subjects)';
const PREDICATES = 'SELECT value FROM json_each(@predicates)';
const ESCAPE = "ESCAPE '\\'";
/** A subject of timeline_subjects `t` keeps rows: it is named, or it has a row of a named predicate. */
const KEPT = `(t.subject_id IN (${NAMED}) OR EXISTS (SELECT 1 FROM timeline_slots s WHERE s.subject_id = t.subject_id AND s.predicate IN (${PREDICATES})))`;
const SUBJECT_COLUMNS = 't.subject_id, t.name, t.sort_key, t.mine, t.slots, t.n, t.open_n, t.first, t.last';
const ORDER = 't.mine DESC, t.sort_key, t.name, t.subject_id';
const BEFORE = `t.mine > @mine OR (t.mine = @mine AND (t.sort_key < @key OR (t.sort_key = @key AND (t.name < @name OR (t.name = @name AND t.subject_id < @id)))))`;

const minOf = (xs: (string | null | undefined)[]) => xs.reduce<string | null>((m, x) => (x == null ? m : m === null || x < m ? x : m), null);
const maxOf = (xs: (string | null | undefined)[]) => xs.reduce<string | null>((m, x) => (x == null ? m : m === null || x > m ? x : m), null);

/** The kept rows of the filter `text` (trimmed; `pattern` its LIKE pattern), held now, or null when it keeps part of a row. */
export function keptRowsFiltered(db: Database, text: string, pattern: string): KeptRows | null {
  const named = matchingEntities(db, text, pattern);
  if (named === null) return null;
  const predicates = matchingPredicates(db, pattern);
  const params = { subjects: JSON.stringify(named), predicates: JSON.stringify(predicates), filter: pattern };
  const outside = `f.expired_at IS NULL AND f.subject_id NOT IN (${NAMED}) AND f.predicate NOT IN (${PREDICATES})`;
  const partial = cachedStatement(
    db,
    `SELECT EXISTS (SELECT 1 FROM facts f WHERE f.object_id IN (${NAMED}) AND ${outside})
       OR EXISTS (SELECT 1 FROM facts f INDEXED BY facts_literal_values WHERE f.object_literal IS NOT NULL AND ${outside} AND lower(f.object_literal) LIKE @filter ${ESCAPE}) AS partial`,
  ).get(params) as { partial: number };
  if (partial.partial) return null;

  const namedSet = new Set(named);
  const totalsOf = () => {
    const ofNamed = cachedStatement(db, `SELECT count(*) AS subjects, COALESCE(sum(slots), 0) AS slots FROM timeline_subjects WHERE subject_id IN (${NAMED})`).get(params) as { subjects: number; slots: number };
    // One predicate: each subject has one row of it at most.
    const ofPredicates = cachedStatement(
      db,
      `SELECT ${predicates.length === 1 ? 'count(*)' : 'count(DISTINCT subject_id)'} AS subjects, count(*) AS slots FROM timeline_slots INDEXED BY timeline_slots_by_predicate
       WHERE predicate IN (${PREDICATES}) AND subject_id NOT IN (${NAMED})`,
    ).get(params) as { subjects: number; slots: number };
    return { subjects: ofNamed.subjects + ofPredicates.subjects, slots: ofNamed.slots + ofPredicates.slots };
  };
  let totals: { subjects: number; slots: number } | undefined;
  const byId = cachedStatement(db, `SELECT ${SUBJECT_COLUMNS} FROM timeline_subjects t WHERE t.subject_id = ?`);
  const ofPredicates = cachedStatement(
    db,
    `SELECT count(*) AS slots, sum(n) AS n, sum(open_n) AS open_n, min(first) AS first, max(last) AS last FROM timeline_slots WHERE subject_id = @id AND predicate IN (${PREDICATES})`,
  );
  /** A subject as the filter keeps it: whole when named, else its rows of the named predicates. */
  const subject = (id: string): KeptSubject | undefined => {
    const held = byId.get(id) as KeptSubject | undefined;
    if (!held || namedSet.has(id)) return held;
    const rows = ofPredicates.get({ ...params, id }) as { slots: number; n: number; open_n: number; first: string; last: string };
    return rows.slots === 0 ? undefined : { ...held, ...rows };
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
      const ofNamed = cachedStatement(db, `SELECT min(first) AS first, max(last) AS last FROM timeline_subjects WHERE subject_id IN (${NAMED})`).get(params) as { first: string | null; last: string | null };
      const one = (sql: string, predicate: string) => (cachedStatement(db, sql).get(predicate) as { t: string } | undefined)?.t;
      const live = 'WHERE predicate = ? AND expired_at IS NULL';
      return {
        first: minOf([ofNamed.first, ...predicates.map((p) => one(`SELECT valid_at AS t FROM facts INDEXED BY facts_live_by_predicate_valid_at ${live} ORDER BY valid_at LIMIT 1`, p))]),
        last: maxOf([
          ofNamed.last,
          ...predicates.map((p) => one(`SELECT valid_at AS t FROM facts INDEXED BY facts_live_by_predicate_valid_at ${live} ORDER BY valid_at DESC LIMIT 1`, p)),
          ...predicates.map((p) => one(`SELECT invalid_at AS t FROM facts INDEXED BY facts_live_by_predicate_invalid_at ${live} AND invalid_at IS NOT NULL ORDER BY invalid_at DESC LIMIT 1`, p)),
        ]),
      };
    },
    density: (first, last) => density(db, params, predicates, first, last),
    page: (place, limit) => {
      const all = (cachedStatement(db, 'SELECT subjects FROM timeline_totals WHERE id = 1').get() as { subjects: number }).subjects;
      const kept = (totals ??= totalsOf()).subjects;
      // Walking the order visits about (place + limit) × all / kept subjects; sorting the kept ones costs about them.
      const walk = predicates.length > 0 && (place + limit) * all < 2 * kept * kept;
      const ids = (
        walk
          ? cachedStatement(db, `SELECT t.subject_id FROM timeline_subjects t INDEXED BY timeline_subjects_in_order WHERE ${KEPT} ORDER BY ${ORDER} LIMIT @limit OFFSET @place`)
          : cachedStatement(
              db,
              `SELECT t.subject_id FROM timeline_subjects t WHERE t.subject_id IN (${NAMED} UNION SELECT subject_id FROM timeline_slots INDEXED BY timeline_slots_by_predicate WHERE predicate IN (${PREDICATES}))
               ORDER BY ${ORDER} LIMIT @limit OFFSET @place`,
            )
      ).all({ ...params, limit, place }) as { subject_id: string }[];
      return ids.map((r) => subject(r.subject_id)).filter((s): s is KeptSubject => s !== undefined);
    },
    slotsOf: (s, limit, offset) =>
      cachedStatement(
        db,
        `SELECT r.subject_id, @name AS name, r.predicate, r.n, r.open_n, r.first, r.last FROM timeline_slots r
         WHERE r.subject_id = @id AND (@whole OR r.predicate IN (${PREDICATES})) ORDER BY r.predicate LIMIT @limit OFFSET @offset`,
      ).all({ ...params, name: s.name, id: s.subject_id, whole: namedSet.has(s.subject_id) ? 1 : 0, limit, offset }) as KeptSlot[],
  };
}

/**
 * The density of the rows kept whole (timeline-density.ts's meaning): the named subjects' held facts
 * read by index (their rows of a named predicate left to the predicate's count), and each named
 * predicate's starts and ends counted per bucket by index range.
 */
function density(db: Database, params: Record<string, string>, predicates: string[], first: string, last: string): TimelineDensity {
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
  ).all(params) as { valid_at: string; invalid_at: string | null }[];
  for (const f of ofNamed) {
    add(f.valid_at);
    add(f.invalid_at);
  }
  // Each bucket's span as text, compared as stored times are (canonical UTC, four-digit years:
  // shared/memory-schema.ts isoTime); its inner edges lie between two such times, so they are written
  // the same way. The first span is open below and the last above: every held time is on the grid.
  const edges = Array.from({ length: grid.buckets + 1 }, (_, i) => new Date(grid.from + i * grid.width).toISOString());
  const spans = JSON.stringify(Array.from({ length: grid.buckets }, (_, i) => [i === 0 ? '' : edges[i], i === grid.buckets - 1 ? '\u{10FFFF}' : edges[i + 1]]));
  for (const [column, index] of [
    ['valid_at', 'facts_live_by_predicate_valid_at'],
    ['invalid_at', 'facts_live_by_predicate_invalid_at'],
  ] as const) {
    const statement = cachedStatement(
      db,
      `SELECT j.key AS b, (SELECT count(*) FROM facts f INDEXED BY ${index} WHERE f.predicate = @predicate AND f.expired_at IS NULL
         AND f.${column} >= j.value ->> 0 AND f.${column} < j.value ->> 1) AS n FROM json_each(@spans) j`,
    );
    for (const predicate of predicates) for (const { b, n } of statement.all({ predicate, spans }) as { b: number; n: number }[]) counts[b]! += n;
  }
  return { from: new Date(grid.from).toISOString(), to: new Date(grid.from + grid.buckets * grid.width).toISOString(), counts };
}
