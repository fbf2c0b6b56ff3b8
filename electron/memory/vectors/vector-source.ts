/**
 * What the vector index should hold, read from SQLite (the truth): live fact versions by their
 * sentence, entities by name, aliases and summary, and messages by their content.
 */
import type { StoreContext } from '../store/store-context';
import { VECTOR_KINDS, type VectorKind } from './vector-table';
import type { VectorSource } from './vector-sync';
import { VectorChanges } from './vector-changes';
import type { VectorIndex } from './vector-index';
import { MAX_CHANGES_READ, VectorTableSync } from './vector-table-sync';

export interface VectorItem {
  id: string;
  kind: VectorKind;
  text: string;
}

/**
 * Which texts the items are embedded from (the lines below): bump it when they change, and every
 * table is reconciled in full once (vector-table-sync.ts), since the outbox knows nothing of it.
 */
export const VECTOR_TEXT_RECIPE = '1';

/** An entity's text: its name, aliases and summary. */
function entityText(entity: { name: string; aliases: readonly string[]; summary: string }): string {
  return [entity.name, ...entity.aliases, entity.summary].filter(Boolean).join(' · ');
}

/** What the live items are read from: memory's SQLite connection and its entities (only read). */
export type VectorSourceStore = Pick<StoreContext, 'db' | 'entities'>;

const LIVE_FACTS = 'FROM facts WHERE expired_at IS NULL';
const LEARNED_EPISODES = "FROM episodes WHERE role IN ('user', 'document')";

/** The live items of these kinds (default all); kinds not asked for are not read. */
export function* liveVectorItems(store: VectorSourceStore, kinds: readonly VectorKind[] = VECTOR_KINDS): Iterable<VectorItem> {
  if (kinds.includes('fact')) {
    for (const row of store.db.prepare<[], { id: string; fact: string }>(`SELECT id, fact ${LIVE_FACTS}`).iterate()) yield { id: row.id, kind: 'fact', text: row.fact };
  }
  if (kinds.includes('entity')) {
    for (const entity of store.entities.all()) {
      yield { id: entity.id, kind: 'entity', text: entityText(entity) };
    }
  }
  if (kinds.includes('episode')) {
    for (const row of store.db.prepare<[], { id: string; content: string }>(`SELECT id, content ${LEARNED_EPISODES}`).iterate()) yield { id: row.id, kind: 'episode', text: row.content };
  }
}

/**
 * The live items among `ids` (of these kinds), as liveVectorItems has them: point lookups by
 * primary key, for a sync of what changed. Ids not live (forgotten, expired, not learned) are absent.
 */
export function liveVectorItemsById(store: VectorSourceStore, ids: readonly string[], kinds: readonly VectorKind[] = VECTOR_KINDS): VectorItem[] {
  if (ids.length === 0) return [];
  const list = JSON.stringify(ids);
  const items: VectorItem[] = [];
  const byId = 'id IN (SELECT value FROM json_each(?))';
  if (kinds.includes('fact')) {
    for (const row of store.db.prepare<[string], { id: string; fact: string }>(`SELECT id, fact ${LIVE_FACTS} AND ${byId}`).iterate(list)) items.push({ id: row.id, kind: 'fact', text: row.fact });
  }
  if (kinds.includes('entity')) {
    const rows = store.db.prepare<[string], { id: string; name: string; summary: string }>(`SELECT id, name, summary FROM entities WHERE ${byId}`).all(list);
    const aliases = new Map<string, string[]>();
    const aliasRows = store.db.prepare<[string], { entity_id: string; alias: string }>('SELECT entity_id, alias FROM entity_aliases WHERE entity_id IN (SELECT value FROM json_each(?)) ORDER BY entity_id, position');
    for (const a of aliasRows.iterate(list)) aliases.set(a.entity_id, [...(aliases.get(a.entity_id) ?? []), a.alias]);
    for (const row of rows) items.push({ id: row.id, kind: 'entity', text: entityText({ ...row, aliases: aliases.get(row.id) ?? [] }) });
  }
  if (kinds.includes('episode')) {
    for (const row of store.db.prepare<[string], { id: string; content: string }>(`SELECT id, content ${LEARNED_EPISODES} AND ${byId}`).iterate(list)) items.push({ id: row.id, kind: 'episode', text: row.content });
  }
  return items;
}

/** How many items liveVectorItems(store, kinds) yields, counted in SQL. */
export function countLiveVectorItems(store: VectorSourceStore, kinds: readonly VectorKind[] = VECTOR_KINDS): number {
  const count = (from: string) => (store.db.prepare(`SELECT COUNT(*) AS n ${from}`).get() as { n: number }).n;
  return (kinds.includes('fact') ? count(LIVE_FACTS) : 0) + (kinds.includes('entity') ? count('FROM entities') : 0) + (kinds.includes('episode') ? count(LEARNED_EPISODES) : 0);
}

/** The live items of one memory, as the engine reaches them (through electron/memory/index.ts). */
export interface MemoryVectorItems {
  /** The source a vector table holding these kinds (default all) is reconciled with; read afresh each time. */
  source(kinds?: readonly VectorKind[]): VectorSource;
  /** How many live items of these kinds (default all) there are, counted in SQL. */
  count(kinds?: readonly VectorKind[]): number;
  /** Keeps `index` (holding these kinds) in sync, reading only what changed when it can. */
  tableSync(index: VectorIndex, kinds: readonly VectorKind[]): VectorTableSync;
  /**
   * While no sync drains the outbox (no embedding model), drops it once more than MAX_CHANGES_READ
   * rows wait (the next sync of every table then reads everything, as it would for that many):
   * cheap enough to call after every write. Returns whether it dropped them.
   */
  trimChanges(): boolean;
}

/** A memory's vector items, over its store (Memory.vectorItems() hands its own). */
export function vectorItemsOf(store: VectorSourceStore): MemoryVectorItems {
  return {
    source: (kinds = VECTOR_KINDS) => ({ liveItems: () => liveVectorItems(store, kinds) }),
    count: (kinds = VECTOR_KINDS) => countLiveVectorItems(store, kinds),
    tableSync: (index, kinds) =>
      new VectorTableSync(index, kinds, new VectorChanges(store.db), {
        liveItems: () => liveVectorItems(store, kinds),
        byId: (ids) => liveVectorItemsById(store, ids, kinds),
        recipe: VECTOR_TEXT_RECIPE,
      }),
    trimChanges: () => new VectorChanges(store.db).trim(MAX_CHANGES_READ),
  };
}
