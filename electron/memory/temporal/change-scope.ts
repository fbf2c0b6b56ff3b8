/**
 * What a change touched, for listeners that refresh only that (the UI's queries): the facts whose
 * page may show something new, their entities, the messages and conversations involved. Read after
 * the commit, by index only: the touched ids, their chains (facts_by_lineage) and the live facts
 * they closed (facts_live_by_invalidated_by). Undefined where anything may have changed (an import,
 * a migration's re-resolution, a forget — which reopens what the forgotten fact had closed).
 */
import type { Database } from 'better-sqlite3';
import type { ChangeScope, MemoryChange } from '../memory-api';
import { cachedStatement } from '../store/database/statement-cache';

export function changeScope(db: Database, change: MemoryChange): ChangeScope | undefined {
  switch (change.kind) {
    case 'facts': {
      // A migration's re-resolution, or another device's segment applied (sync): anything may have changed.
      if (change.reason === 'migrated' || change.reason === 'synced') return undefined;
      const { inserted, expired, confirmed } = change.changes;
      const touched = [...new Set([...inserted, ...expired, ...confirmed])];
      const { factIds, entityIds } = touched.length ? affectedFacts(db, touched) : { factIds: [], entityIds: [] };
      return { factIds, entityIds, episodeIds: change.episodeIds ?? [], conversationIds: [] };
    }
    case 'messages':
    case 'review':
      return { factIds: [], entityIds: [], episodeIds: change.episodeIds, conversationIds: [] };
    case 'conversations':
      return { factIds: [], entityIds: [], episodeIds: [], conversationIds: change.conversationIds };
    case 'forgotten':
    case 'imported':
      return undefined;
  }
}

function affectedFacts(db: Database, touched: string[]): { factIds: string[]; entityIds: string[] } {
  const rows = cachedStatement(
    db,
    `WITH t(id) AS (SELECT value FROM json_each(@ids)),
     chain(id, subject_id, object_id) AS (
       SELECT f.id, f.subject_id, f.object_id FROM facts f WHERE f.lineage_id IN (SELECT h.lineage_id FROM t JOIN facts h ON h.id = t.id)
     )
     SELECT id, subject_id, object_id FROM chain
     UNION
     SELECT f.id, f.subject_id, f.object_id FROM chain c JOIN facts f ON f.invalidated_by = c.id AND f.invalidated_by IS NOT NULL AND f.expired_at IS NULL`,
  ).all({ ids: JSON.stringify(touched) }) as { id: string; subject_id: string; object_id: string | null }[];
  const factIds = new Set(touched);
  const entityIds = new Set<string>();
  for (const row of rows) {
    factIds.add(row.id);
    entityIds.add(row.subject_id);
    if (row.object_id !== null) entityIds.add(row.object_id);
  }
  return { factIds: [...factIds], entityIds: [...entityIds] };
}
