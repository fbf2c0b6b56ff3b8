/**
 * Why each version was written: the write that wrote it records its cause on it (your edit of
 * fact X, learning from message Z, observing, forgetting, a migration); the fact page reads the
 * causes of a chain's versions and, with the versions' own fields, says why each one exists
 * (shared/fact-history.ts). Versions written before migration 0013, and imported ones, have none.
 */
import type { Database } from 'better-sqlite3';
import { writeCause, type WriteCause } from '../../../shared/fact-history';

/** Records `cause` on the versions a write inserted (call inside the write's transaction). */
export function recordCause(db: Database, factIds: readonly string[], cause: WriteCause): void {
  if (factIds.length === 0) return;
  db.prepare('UPDATE facts SET cause = ? WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(cause), JSON.stringify(factIds));
}

/** The recorded causes of these versions, by id (versions without one are left out). */
export function causesOf(db: Database, factIds: readonly string[]): Record<string, WriteCause> {
  const rows = db
    .prepare<[string], { id: string; cause: string }>('SELECT id, cause FROM facts WHERE cause IS NOT NULL AND id IN (SELECT value FROM json_each(?))')
    .all(JSON.stringify(factIds));
  const causes: Record<string, WriteCause> = {};
  for (const row of rows) {
    const parsed = writeCause.safeParse(JSON.parse(row.cause));
    if (parsed.success) causes[row.id] = parsed.data;
  }
  return causes;
}
