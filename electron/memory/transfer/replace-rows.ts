/**
 * What `replace` does to the rows of the store whose ids the document also has: clashing facts go
 * (with their claims and episode links) and are inserted again like the others; entities and
 * episodes are rewritten in place, as facts may cite them.
 */
import type { Database } from 'better-sqlite3';
import type { EntityRecord, EpisodeRecord, FactRecord } from '../../../shared/memory-schema';
import type { ClaimRows } from '../store/claim-rows';
import type { EntityStore } from '../store/entity-store';
import { normalizeName } from '../store/normalize';
import { queueEpisodeIndexing, unindexEpisode } from '../text-search/full-text-upkeep';

/** Deletes the facts among `clashes` (the clashing ids of every kind), their claims and episode links. */
export function deleteReplacedFacts(db: Database, claims: ClaimRows, clashes: string[]): void {
  const ids = JSON.stringify(clashes);
  claims.deleteOfFacts(clashes);
  db.prepare('DELETE FROM fact_episodes WHERE fact_id IN (SELECT value FROM json_each(?))').run(ids);
  db.prepare('DELETE FROM facts WHERE id IN (SELECT value FROM json_each(?))').run(ids);
}

/**
 * The slots of the replaced facts that still hold claims of the store once those facts are gone (a
 * later version the file does not have, as an edit made since the export): they are resolved again
 * from all their claims after the file's are written (refreshSlots), as joined slots are, so the
 * file's version of an edited fact does not come back current beside the edit's.
 */
export function replacedSlotsInUse(claims: ClaimRows, facts: ReadonlyMap<string, Pick<FactRecord, 'subject_id' | 'predicate'>>, clashes: string[], entityId: (id: string) => string): { subjectId: string; predicate: string }[] {
  const touched = new Map<string, { subjectId: string; predicate: string }>();
  for (const id of clashes) {
    const f = facts.get(id);
    if (f === undefined) continue;
    const slot = { subjectId: entityId(f.subject_id), predicate: f.predicate };
    const key = `${slot.subjectId}\u0000${slot.predicate}`;
    if (!touched.has(key) && claims.inSlot(slot.subjectId, slot.predicate).length > 0) touched.set(key, slot);
  }
  return [...touched.values()];
}

/** Rewrites stored entity `e.id` as the document has it: name, type, summary, aliases and their index. */
export function rewriteEntity(db: Database, entities: EntityStore, e: EntityRecord): void {
  db.prepare('UPDATE entities SET name = ?, normalized_name = ?, type = ?, summary = ?, created_at = ? WHERE id = ?').run(e.name, normalizeName(e.name), e.type, e.summary, e.created_at, e.id);
  db.prepare('DELETE FROM entity_aliases WHERE entity_id = ?').run(e.id);
  const alias = db.prepare('INSERT INTO entity_aliases (entity_id, position, alias, normalized_alias) VALUES (?, ?, ?, ?)');
  e.aliases.forEach((a, i) => alias.run(e.id, i, a, normalizeName(a)));
  entities.indexNames(e);
}

/** Episodes are append-only in use; `replace` rewrites the row in place (facts may cite it) and its full text. */
export function rewriteEpisode(db: Database, e: EpisodeRecord): void {
  const rowid = unindexEpisode(db, e.id);
  db.prepare('UPDATE episodes SET conversation_id = @conversation_id, role = @role, content = @content, reference_time = @reference_time, created_at = @created_at, utc_offset = @utc_offset, time_zone = @time_zone WHERE id = @id').run(e);
  queueEpisodeIndexing(db, rowid);
}
