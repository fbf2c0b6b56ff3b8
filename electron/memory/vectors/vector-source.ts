/**
 * What the vector index should hold, read from SQLite (the truth): live fact versions by their
 * sentence, entities by name, aliases and summary, and messages by their content.
 */
import { storeOf, type Memory } from '../memory';
import type { StoreContext } from '../store/store-context';
import { VECTOR_KINDS, type VectorKind } from './vector-table';
import type { VectorSource } from './vector-sync';

export interface VectorItem {
  id: string;
  kind: VectorKind;
  text: string;
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
      yield { id: entity.id, kind: 'entity', text: [entity.name, ...entity.aliases, entity.summary].filter(Boolean).join(' · ') };
    }
  }
  if (kinds.includes('episode')) {
    for (const row of store.db.prepare<[], { id: string; content: string }>(`SELECT id, content ${LEARNED_EPISODES}`).iterate()) yield { id: row.id, kind: 'episode', text: row.content };
  }
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
}

export function vectorItemsOf(memory: Memory): MemoryVectorItems {
  const store: VectorSourceStore = storeOf(memory);
  return {
    source: (kinds = VECTOR_KINDS) => ({ liveItems: () => liveVectorItems(store, kinds) }),
    count: (kinds = VECTOR_KINDS) => countLiveVectorItems(store, kinds),
  };
}
