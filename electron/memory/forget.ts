/**
 * Forget — the only delete. Removes facts (every version of their chains), entities with their
 * facts, or episodes with the facts only they support, from every table and full-text index; then
 * re-resolves the slots they left so nothing stays closed by something that no longer exists.
 * Vectors are removed by the caller using the returned ids.
 */
import type { Database } from 'better-sqlite3';
import type { EntityStore } from './entity-store';
import type { EpisodeStore } from './episode-store';
import type { FactRows } from './fact-rows';
import { MemoryInputError } from './memory-errors';
import type { SlotResolver } from './slot-resolver';

export interface ForgetContext {
  db: Database;
  rows: FactRows;
  entities: EntityStore;
  episodes: EpisodeStore;
  slots: SlotResolver;
}

export interface Forgotten {
  factIds: string[];
  entityIds: string[];
  episodeIds: string[];
}

export function forgetFact(ctx: ForgetContext, factId: string): Forgotten {
  const row = ctx.rows.byId(factId);
  if (!row) throw new MemoryInputError(`no fact with id ${factId}`, 'fact_id');
  return { factIds: forgetLineages(ctx, [row.lineage_id]), entityIds: [], episodeIds: [] };
}

export function forgetEntity(ctx: ForgetContext, entityId: string): Forgotten {
  const lineages = ctx.db
    .prepare<[string, string], { lineage_id: string }>('SELECT DISTINCT lineage_id FROM facts WHERE subject_id = ? OR object_id = ?')
    .all(entityId, entityId)
    .map((r) => r.lineage_id);
  const factIds = forgetLineages(ctx, lineages);
  ctx.entities.delete(entityId);
  return { factIds, entityIds: [entityId], episodeIds: [] };
}

export function forgetEpisode(ctx: ForgetContext, episodeId: string): Forgotten {
  if (!ctx.episodes.byId(episodeId)) throw new MemoryInputError(`no episode with id ${episodeId}`, 'episode_id');
  const linked = ctx.db
    .prepare<[string], { id: string; lineage_id: string }>('SELECT f.id, f.lineage_id FROM fact_episodes fe JOIN facts f ON f.id = fe.fact_id WHERE fe.episode_id = ?')
    .all(episodeId);
  ctx.db.prepare('DELETE FROM fact_episodes WHERE episode_id = ?').run(episodeId);
  // A chain whose versions have no source left was known only from this episode: it goes too.
  const orphaned = [...new Set(linked.map((r) => r.lineage_id))].filter(
    (lineage) =>
      ctx.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM fact_episodes fe JOIN facts f ON f.id = fe.fact_id WHERE f.lineage_id = ?').get(lineage)!.n === 0,
  );
  const factIds = forgetLineages(ctx, orphaned);
  ctx.episodes.delete(episodeId);
  return { factIds, entityIds: [], episodeIds: [episodeId] };
}

function forgetLineages(ctx: ForgetContext, lineages: string[]): string[] {
  if (lineages.length === 0) return [];
  const list = JSON.stringify(lineages);
  const doomed = ctx.db
    .prepare<[string], { id: string; subject_id: string; predicate: string }>('SELECT id, subject_id, predicate FROM facts WHERE lineage_id IN (SELECT value FROM json_each(?))')
    .all(list);
  const ids = JSON.stringify(doomed.map((d) => d.id));
  // Facts closed by a judgement against a forgotten fact lose that reason: reopen them (as a new version).
  const judged = ctx.db
    .prepare<[string, string], { id: string }>(
      "SELECT id FROM facts WHERE expired_at IS NULL AND end_kind = 'judged' AND invalidated_by IN (SELECT value FROM json_each(?)) AND id NOT IN (SELECT value FROM json_each(?))",
    )
    .all(ids, ids);
  ctx.db.prepare('DELETE FROM fact_episodes WHERE fact_id IN (SELECT value FROM json_each(?))').run(ids);
  ctx.db.prepare('DELETE FROM facts WHERE id IN (SELECT value FROM json_each(?))').run(ids);
  // No reference may point at what is gone (history rows keep their times, lose the dangling link).
  ctx.db.prepare('UPDATE facts SET invalidated_by = NULL WHERE invalidated_by IN (SELECT value FROM json_each(?))').run(ids);
  ctx.db.prepare('UPDATE facts SET supersedes = NULL WHERE supersedes IN (SELECT value FROM json_each(?))').run(ids);
  for (const { id } of judged) {
    const row = ctx.rows.byId(id);
    if (!row) continue;
    ctx.slots.apply([
      {
        subjectId: row.subject_id,
        predicate: row.predicate,
        objectId: row.object_id,
        objectLiteral: row.object_literal,
        fact: row.fact,
        cardinality: row.cardinality,
        validAt: row.valid_at,
        referenceTime: row.reference_time,
        end: null,
        episodeIds: ctx.rows.episodesOf(row.id),
        origin: row.origin,
        replaces: row,
      },
    ]);
  }
  const slots = new Map(doomed.map((d) => [`${d.subject_id}\u0000${d.predicate}`, d]));
  for (const slot of slots.values()) {
    if (ctx.entities.byId(slot.subject_id)) ctx.slots.refresh(slot.subject_id, slot.predicate);
  }
  return doomed.map((d) => d.id);
}
