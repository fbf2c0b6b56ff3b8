/**
 * Why each version was written: the write that wrote it records its cause on it (your edit of
 * fact X, learning from message Z, observing, forgetting, a migration); the fact page reads the
 * causes of a chain's versions and, with the versions' own fields, says why each one exists
 * (shared/fact-history.ts). Versions written before migration 0013, and imported ones, have none.
 */
import type { Database } from 'better-sqlite3';
import { writeCause, type WriteCause } from '../../../shared/fact-history';
import { cachedStatement } from '../store/database/statement-cache';

/**
 * Records `cause` on the versions a write inserted (call inside the write's transaction). An
 * observe file's cause names, on each version, only the lines of the file it came from: the whole
 * file's list on every version would make a file's cost grow with the square of its length.
 */
export function recordCause(db: Database, factIds: readonly string[], cause: WriteCause): void {
  if (factIds.length === 0) return;
  if (cause.kind === 'observed') {
    const ofWrite = new Set(cause.episodes);
    const episodes = new Map<string, string[]>();
    const links = cachedStatement<[string], { fact_id: string; episode_id: string }>(db, 'SELECT fact_id, episode_id FROM fact_episodes WHERE fact_id IN (SELECT value FROM json_each(?))').all(JSON.stringify(factIds));
    for (const { fact_id, episode_id } of links) if (ofWrite.has(episode_id)) episodes.set(fact_id, [...(episodes.get(fact_id) ?? []), episode_id].sort());
    const update = cachedStatement(db, 'UPDATE facts SET cause = ? WHERE id = ?');
    for (const id of factIds) update.run(JSON.stringify({ kind: 'observed', episodes: episodes.get(id) ?? [] } satisfies WriteCause), id);
    return;
  }
  cachedStatement(db, 'UPDATE facts SET cause = ? WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(cause), JSON.stringify(factIds));
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
