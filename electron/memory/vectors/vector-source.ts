/**
 * What the vector index should hold, read from SQLite (the truth): live fact versions by their
 * sentence, entities by name, aliases and summary, and messages by their content.
 */
import type { Memory } from '../index';
import { VECTOR_KINDS, type VectorKind } from './vector-index';

export interface VectorItem {
  id: string;
  kind: VectorKind;
  text: string;
}

const LIVE_FACTS = 'FROM facts WHERE expired_at IS NULL';
const LEARNED_EPISODES = "FROM episodes WHERE role IN ('user', 'document')";

/** The live items of these kinds (default all); kinds not asked for are not read. */
export function* liveVectorItems(memory: Memory, kinds: readonly VectorKind[] = VECTOR_KINDS): Iterable<VectorItem> {
  if (kinds.includes('fact')) {
    for (const row of memory.db.prepare<[], { id: string; fact: string }>(`SELECT id, fact ${LIVE_FACTS}`).iterate()) yield { id: row.id, kind: 'fact', text: row.fact };
  }
  if (kinds.includes('entity')) {
    for (const entity of memory.entities.all()) {
      yield { id: entity.id, kind: 'entity', text: [entity.name, ...entity.aliases, entity.summary].filter(Boolean).join(' · ') };
    }
  }
  if (kinds.includes('episode')) {
    for (const row of memory.db.prepare<[], { id: string; content: string }>(`SELECT id, content ${LEARNED_EPISODES}`).iterate()) yield { id: row.id, kind: 'episode', text: row.content };
  }
}

/** How many items liveVectorItems(memory, kinds) yields, counted in SQL. */
export function countLiveVectorItems(memory: Memory, kinds: readonly VectorKind[] = VECTOR_KINDS): number {
  const count = (from: string) => (memory.db.prepare(`SELECT COUNT(*) AS n ${from}`).get() as { n: number }).n;
  return (kinds.includes('fact') ? count(LIVE_FACTS) : 0) + (kinds.includes('entity') ? count('FROM entities') : 0) + (kinds.includes('episode') ? count(LEARNED_EPISODES) : 0);
}
