/**
 * Forget — the only delete. Removes facts (every version of their chains), entities with their
 * facts, or episodes with the facts only they support, from every table and full-text index; then
 * re-resolves the slots they left, so nothing stays closed by something that no longer exists.
 * A name the forgotten facts alone held (no remaining fact names it) goes with them: forgetting
 * the only fact about "Aoki" leaves no "Aoki" behind. Vectors are removed by the caller using the
 * returned ids.
 */
import type { Database } from 'better-sqlite3';
import type { ClaimRows } from '../store/claim-rows';
import type { EntityStore } from '../store/entity-store';
import type { EpisodeStore } from '../store/episode-store';
import type { FactRows } from '../store/fact-rows';
import { MemoryInputError } from '../memory-errors';
import { noteForgottenFacts } from '../store/sync-outbox';
import { sourcesOfFact, splitSources, type ForgetSources } from './forget-sources';
import type { WriteBatch } from './write-batch';

export interface ForgetContext {
  db: Database;
  rows: FactRows;
  claims: ClaimRows;
  entities: EntityStore;
  episodes: EpisodeStore;
  slots: WriteBatch;
}

export interface Forgotten {
  factIds: string[];
  entityIds: string[];
  /** The removed entities' names, in entityIds' order. */
  entityNames: string[];
  episodeIds: string[];
}

/** A forgotten fact, and what became of the messages it came from. */
export interface FactForgotten extends Forgotten {
  sources: ForgetSources;
}

type Slot = { subject_id: string; predicate: string };
type Doomed = { ids: string[]; slots: Slot[]; entities: string[] };

/** Forgets a fact's chain; withSources: also its source messages that support nothing else. */
export function forgetFact(ctx: ForgetContext, factId: string, options: { withSources?: boolean } = {}): FactForgotten {
  const row = ctx.rows.byId(factId);
  if (!row) throw new MemoryInputError(`no fact with id ${factId}`, 'fact_id', 'not_found');
  const { deletable, result } = splitSources(sourcesOfFact(ctx, factId), options.withSources === true);
  const { ids, slots, entities } = deleteLineages(ctx, [row.lineage_id]);
  refreshSlots(ctx, slots);
  const episodeIds: string[] = [];
  const removed = { entityIds: [] as string[], entityNames: [] as string[] };
  for (const source of deletable) {
    const gone = forgetEpisode(ctx, source.id);
    ids.push(...gone.factIds);
    removed.entityIds.push(...gone.entityIds);
    removed.entityNames.push(...gone.entityNames);
    episodeIds.push(source.id);
  }
  const unneeded = dropUnneededEntities(ctx, entities);
  return { factIds: ids, entityIds: [...removed.entityIds, ...unneeded.entityIds], entityNames: [...removed.entityNames, ...unneeded.entityNames], episodeIds, sources: result };
}

export function forgetEntity(ctx: ForgetContext, entityId: string): Forgotten {
  const lineages = ctx.db
    .prepare<[string, string], { lineage_id: string }>('SELECT DISTINCT lineage_id FROM facts WHERE subject_id = ? OR object_id = ?')
    .all(entityId, entityId)
    .map((r) => r.lineage_id);
  const name = ctx.entities.byId(entityId)?.name ?? entityId;
  const { ids, slots, entities } = deleteLineages(ctx, lineages);
  ctx.entities.delete(entityId);
  refreshSlots(ctx, slots.filter((s) => s.subject_id !== entityId));
  const unneeded = dropUnneededEntities(ctx, entities.filter((e) => e !== entityId));
  return { factIds: ids, entityIds: [entityId, ...unneeded.entityIds], entityNames: [name, ...unneeded.entityNames], episodeIds: [] };
}

export function forgetEpisode(ctx: ForgetContext, episodeId: string): Forgotten {
  if (!ctx.episodes.byId(episodeId)) throw new MemoryInputError(`no episode with id ${episodeId}`, 'episode_id', 'not_found');
  const slots: Slot[] = [];
  // Claims stated only by this episode go; others just stop citing it.
  for (const claim of ctx.claims.citing(episodeId)) {
    const rest = (JSON.parse(claim.episode_ids) as string[]).filter((e) => e !== episodeId);
    if (rest.length) ctx.claims.setEpisodes(claim.id, rest);
    else ctx.claims.delete(claim.id);
    slots.push(claim);
  }
  const linked = ctx.db
    .prepare<[string], { lineage_id: string }>('SELECT DISTINCT f.lineage_id FROM fact_episodes fe JOIN facts f ON f.id = fe.fact_id WHERE fe.episode_id = ?')
    .all(episodeId);
  ctx.db.prepare('DELETE FROM fact_episodes WHERE episode_id = ?').run(episodeId);
  // A chain whose live version has no claim left was known only from this episode: it goes whole.
  const orphaned = linked
    .map((r) => r.lineage_id)
    .filter((lineage) => {
      const live = ctx.db.prepare<[string], { id: string }>('SELECT id FROM facts WHERE lineage_id = ? AND expired_at IS NULL').get(lineage);
      return !live || ctx.claims.ofFact(live.id).length === 0;
    });
  const removed = deleteLineages(ctx, orphaned);
  ctx.episodes.delete(episodeId);
  refreshSlots(ctx, [...slots, ...removed.slots]);
  return { factIds: removed.ids, ...dropUnneededEntities(ctx, removed.entities), episodeIds: [episodeId] };
}

function deleteLineages(ctx: ForgetContext, lineages: string[]): Doomed {
  if (lineages.length === 0) return { ids: [], slots: [], entities: [] };
  const doomed = ctx.db
    .prepare<[string], { id: string; object_id: string | null } & Slot>(
      'SELECT id, subject_id, predicate, object_id FROM facts WHERE lineage_id IN (SELECT value FROM json_each(?))',
    )
    .all(JSON.stringify(lineages));
  const ids = doomed.map((d) => d.id);
  const list = JSON.stringify(ids);
  noteForgottenFacts(ctx.db, ids);
  // Claims ended by a judgement against a forgotten fact lose that end: their facts reopen.
  const reopened: Slot[] = [];
  for (const claim of ctx.claims.endedBy(ids)) {
    ctx.claims.clearEnd(claim.id);
    reopened.push(claim);
  }
  ctx.claims.deleteOfFacts(ids);
  ctx.db.prepare('DELETE FROM message_facts WHERE fact_id IN (SELECT value FROM json_each(?))').run(list);
  ctx.db.prepare('DELETE FROM fact_episodes WHERE fact_id IN (SELECT value FROM json_each(?))').run(list);
  // No reference may point at what is gone (history rows keep their times, lose the dangling link).
  ctx.db.prepare('UPDATE facts SET invalidated_by = NULL WHERE invalidated_by IN (SELECT value FROM json_each(?))').run(list);
  ctx.db.prepare('UPDATE facts SET supersedes = NULL WHERE supersedes IN (SELECT value FROM json_each(?))').run(list);
  ctx.db.prepare('DELETE FROM facts WHERE id IN (SELECT value FROM json_each(?))').run(list);
  const entities = new Set(doomed.flatMap((d) => (d.object_id === null ? [d.subject_id] : [d.subject_id, d.object_id])));
  return { ids, slots: [...doomed, ...reopened], entities: [...entities] };
}

/**
 * Deletes those of `candidates` (the subjects and objects of forgotten facts) that no remaining
 * fact names — as subject or object, in any version — and that are not the user. A claim always
 * shares its fact's subject and object, so the facts decide. A message held for review that names
 * one finds it gone when approved and stores the name anew (learn.ts), as after any forget.
 */
function dropUnneededEntities(ctx: ForgetContext, candidates: string[]): Pick<Forgotten, 'entityIds' | 'entityNames'> {
  const named = ctx.db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one WHERE EXISTS (SELECT 1 FROM facts WHERE subject_id = ?) OR EXISTS (SELECT 1 FROM facts WHERE object_id = ?)',
  );
  const dropped: Pick<Forgotten, 'entityIds' | 'entityNames'> = { entityIds: [], entityNames: [] };
  for (const id of candidates) {
    const entity = ctx.entities.byId(id);
    if (!entity || entity.type === 'user' || named.get(id, id)) continue;
    ctx.entities.delete(id);
    dropped.entityIds.push(id);
    dropped.entityNames.push(entity.name);
  }
  return dropped;
}

function refreshSlots(ctx: ForgetContext, slots: Slot[]): void {
  const unique = new Map(slots.map((s) => [`${s.subject_id}\u0000${s.predicate}`, s]));
  for (const slot of unique.values()) ctx.slots.refresh(slot.subject_id, slot.predicate);
}
