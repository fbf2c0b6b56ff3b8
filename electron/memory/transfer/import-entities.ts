/**
 * The document's entities in a memory that may already be in use: the document's user is this
 * memory's user, and an entity with the same name and type is the same one. Such an entity is
 * joined: its facts go to the existing entity (whose aliases grow), and the slots they land in are
 * re-resolved by the temporal rules. The others are written as they are.
 */
import type { Database } from 'better-sqlite3';
import type { EntityRecord, FactRecord } from '../../../shared/memory-schema';
import type { ClaimRows } from '../store/claim-rows';
import type { EntityStore } from '../store/entity-store';
import { USER_ENTITY_NAME } from '../store/normalize';
import type { WriteBatch } from '../temporal/write-batch';
import { rewriteEntity } from './replace-rows';
import type { StoreLookups } from './store-lookups';

/**
 * Document entities that are already in the memory under another id (document id → stored id): the
 * user (whatever the document calls it), and entities whose name or alias and type match an existing one.
 */
export function joinExistingEntities(docEntities: EntityRecord[], entities: EntityStore, exists: StoreLookups): Map<string, string> {
  const joined = new Map<string, string>();
  if (!entities.any()) return joined;
  for (const e of docEntities) {
    if (exists.entity(e.id)) continue; // same id: a clash, refused or replaced
    const match = e.type === 'user' ? entities.find(USER_ENTITY_NAME) : entities.find(e.name);
    if (match && match.id !== e.id && match.type === e.type) joined.set(e.id, match.id);
  }
  return joined;
}

/** The stored id of a document entity id (itself unless joined). */
export function entityIdMapper(joined: Map<string, string>): (id: string) => string {
  return joined.size ? (id: string) => joined.get(id) ?? id : (id: string) => id;
}

/**
 * Writes the document's entities: a joined one adds its name and aliases to the entity it joined; with
 * `replacing` (the store's lookups, when replacing) one that exists is rewritten; the others are created.
 */
export function writeEntities(db: Database, entities: EntityStore, docEntities: EntityRecord[], joined: Map<string, string>, replacing: StoreLookups | null): void {
  for (const e of docEntities) {
    const target = joined.get(e.id);
    if (target !== undefined) {
      for (const name of [e.name, ...e.aliases]) entities.addAlias(target, name);
    } else if (replacing !== null && replacing.entity(e.id)) {
      rewriteEntity(db, entities, e);
    } else {
      entities.create(e);
    }
  }
}

/**
 * Facts about a joined entity may meet the memory's own in a slot (two managers at once): the rules
 * must resolve each such slot from all its claims, as if the facts had arrived one by one. Only the
 * slots that hold the memory's own claims need it — call this before the document's facts are
 * written. A slot only the document fills keeps the document's facts as they are (checked by
 * import-checks.ts), exactly as an import into an empty store keeps them: the same document gives
 * the same facts wherever it is imported.
 */
export function joinedSlotsInUse(claims: ClaimRows, facts: Iterable<Pick<FactRecord, 'subject_id' | 'predicate' | 'expired_at'>>, joined: Map<string, string>, entityId: (id: string) => string): { subjectId: string; predicate: string }[] {
  const joinedIds = new Set(joined.values());
  if (!joinedIds.size) return [];
  const touched = new Map<string, { subjectId: string; predicate: string }>();
  for (const f of facts) {
    const subjectId = entityId(f.subject_id);
    const key = `${subjectId}\u0000${f.predicate}`;
    if (f.expired_at === null && joinedIds.has(subjectId) && !touched.has(key)) touched.set(key, { subjectId, predicate: f.predicate });
  }
  return [...touched.values()].filter((slot) => claims.inSlot(slot.subjectId, slot.predicate).length > 0);
}

export function refreshSlots(slots: WriteBatch, touched: { subjectId: string; predicate: string }[]): void {
  for (const slot of touched) slots.refresh(slot.subjectId, slot.predicate);
}
