/** The facts of the timeline's rows that overlap its range, whole (timeline-window.ts, timeline-kept-window.ts). */
import type { Database } from 'better-sqlite3';
import type { FactRecord } from '../../../shared/memory-schema';
import { cachedStatement } from '../store/database/statement-cache';
import { FACT_RECORD_SELECT, toFactRecord } from '../store/fact-rows';

/**
 * The facts of these rows that overlap [from, to), held and filtered as the rows were, by row: each
 * row's facts by index on its subject (CROSS JOIN: the rows first, whatever the held clause; known at
 * a time, the planner otherwise read the facts whole by valid time).
 */
export function windowFacts(
  db: Database,
  held: string,
  filter: string,
  joins: string,
  params: Record<string, string | number>,
  rows: readonly { subject_id: string; predicate: string | null }[],
): Map<string, FactRecord[]> {
  if (rows.length === 0) return new Map();
  const slots = JSON.stringify(rows.map((r) => [r.subject_id, r.predicate]));
  const { limit: _limit, offset: _offset, grouped: _grouped, collapseAbove: _collapseAbove, expanded: _expanded, collapsed: _collapsed, ...bound } = params;
  const found = cachedStatement(
    db,
    `SELECT ${FACT_RECORD_SELECT} FROM (
       SELECT f.rowid AS r FROM json_each(@slots) j
       CROSS JOIN facts f ON f.subject_id = json_extract(j.value, '$[0]') AND f.predicate = json_extract(j.value, '$[1]')${joins}
       WHERE ${held}${filter} AND f.valid_at < @to AND (f.invalid_at IS NULL OR f.invalid_at > @from)
     ) w JOIN facts f ON f.rowid = w.r JOIN entities s ON s.id = f.subject_id LEFT JOIN entities o ON o.id = f.object_id
     ORDER BY f.valid_at, f.created_at, f.id`,
  ).all({ ...bound, slots }) as Parameters<typeof toFactRecord>[0][];
  const records = found.map(toFactRecord);
  nameShownClosers(db, records);
  const byRow = new Map<string, FactRecord[]>();
  for (const fact of records) {
    const key = `${fact.subject_id}\u0000${fact.predicate}`;
    const list = byRow.get(key);
    if (list) list.push(fact);
    else byRow.set(key, [fact]);
  }
  return byRow;
}

/**
 * A closed version keeps the id of its closer's version of the time; a later version of that closer
 * (edited, or reopened when the value after it was forgotten) leaves it as it is (slot-resolver.ts
 * sameInvalidator). For the hooks on screen, a closer not among these facts is named by its version
 * that is, when one of its lineage is shown.
 */
function nameShownClosers(db: Database, facts: FactRecord[]): void {
  const shown = new Set(facts.map((f) => f.id));
  const missing = [...new Set(facts.map((f) => f.invalidated_by).filter((id): id is string => id !== null && !shown.has(id)))];
  if (missing.length === 0) return;
  const lineages = (ids: string[]) => cachedStatement(db, 'SELECT f.id, f.lineage_id FROM json_each(?) j JOIN facts f ON f.id = j.value').all(JSON.stringify(ids)) as { id: string; lineage_id: string }[];
  const lineageOf = new Map(lineages(missing).map((r) => [r.id, r.lineage_id]));
  const wanted = new Set(lineageOf.values());
  const shownOf = new Map<string, string>();
  for (const r of lineages([...shown])) if (wanted.has(r.lineage_id) && !shownOf.has(r.lineage_id)) shownOf.set(r.lineage_id, r.id);
  for (const f of facts) {
    if (f.invalidated_by === null || shown.has(f.invalidated_by)) continue;
    const lineage = lineageOf.get(f.invalidated_by);
    const closer = lineage === undefined ? undefined : shownOf.get(lineage);
    if (closer !== undefined) f.invalidated_by = closer;
  }
}
