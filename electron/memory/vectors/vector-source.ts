/**
 * What the vector index should hold, read from SQLite (the truth): the live fact versions, by their
 * sentence. Only facts are embedded: chat and search rank facts by vector, while the people named
 * in a question and the messages facts came from are found by their text (text-search/), so vectors
 * of entities and messages would cost disk and an embedding per message for nothing (migration
 * 0037 dropped their outbox triggers; the engine drops the table that held them).
 */
import type { StoreContext } from '../store/store-context';
import type { VectorKind } from './vector-table';
import type { VectorSource } from './vector-sync';
import { VectorChanges } from './vector-changes';
import type { VectorIndex } from './vector-index';
import { MAX_CHANGES_READ, VectorTableSync } from './vector-table-sync';

export interface VectorItem {
  id: string;
  kind: VectorKind;
  text: string;
}

/** The kinds memory embeds: what the engine's vector table holds. */
export const EMBEDDED_KINDS: readonly VectorKind[] = ['fact'];

/**
 * Which texts the items are embedded from (the lines below): bump it when they change, and every
 * table is reconciled in full once (vector-table-sync.ts), since the outbox knows nothing of it.
 */
export const VECTOR_TEXT_RECIPE = '1';

/** What the live items are read from: memory's SQLite connection (only read). */
export type VectorSourceStore = Pick<StoreContext, 'db'>;

const LIVE_FACTS = 'FROM facts WHERE expired_at IS NULL';

/** The live facts, each by its sentence. */
export function* liveVectorItems(store: VectorSourceStore): Iterable<VectorItem> {
  for (const row of store.db.prepare<[], { id: string; fact: string }>(`SELECT id, fact ${LIVE_FACTS}`).iterate()) yield { id: row.id, kind: 'fact', text: row.fact };
}

/**
 * The live facts among `ids`, as liveVectorItems has them: point lookups by primary key, for a sync
 * of what changed. Ids not live (forgotten, expired) are absent.
 */
export function liveVectorItemsById(store: VectorSourceStore, ids: readonly string[]): VectorItem[] {
  if (ids.length === 0) return [];
  const rows = store.db.prepare<[string], { id: string; fact: string }>(`SELECT id, fact ${LIVE_FACTS} AND id IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids));
  return rows.map((row) => ({ id: row.id, kind: 'fact', text: row.fact }));
}

/** How many items liveVectorItems(store) yields, counted in SQL. */
export function countLiveVectorItems(store: VectorSourceStore): number {
  return (store.db.prepare(`SELECT COUNT(*) AS n ${LIVE_FACTS}`).get() as { n: number }).n;
}

/** The live items of one memory, as the engine reaches them (through electron/memory/index.ts). */
export interface MemoryVectorItems {
  /** What the vector table is reconciled with; read afresh each time. */
  source(): VectorSource;
  /** How many live items there are, counted in SQL. */
  count(): number;
  /** Keeps `index` (holding EMBEDDED_KINDS) in sync, reading only what changed when it can. */
  tableSync(index: VectorIndex): VectorTableSync;
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
    source: () => ({ liveItems: () => liveVectorItems(store) }),
    count: () => countLiveVectorItems(store),
    tableSync: (index) =>
      new VectorTableSync(index, EMBEDDED_KINDS, new VectorChanges(store.db), {
        liveItems: () => liveVectorItems(store),
        byId: (ids) => liveVectorItemsById(store, ids),
        recipe: VECTOR_TEXT_RECIPE,
      }),
    trimChanges: () => new VectorChanges(store.db).trim(MAX_CHANGES_READ),
  };
}
