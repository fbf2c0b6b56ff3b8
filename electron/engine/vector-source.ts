/**
 * What the vector index should hold, read from SQLite (the truth): live fact versions by their
 * sentence, entities by name, aliases and summary, and messages by their content.
 */
import type { Memory } from '../memory/index';

export type VectorKind = 'fact' | 'entity' | 'episode';

export interface VectorItem {
  id: string;
  kind: VectorKind;
  text: string;
}

export function* liveVectorItems(memory: Memory): Iterable<VectorItem> {
  for (const row of memory.db.prepare<[], { id: string; fact: string }>('SELECT id, fact FROM facts WHERE expired_at IS NULL').iterate()) {
    yield { id: row.id, kind: 'fact', text: row.fact };
  }
  for (const entity of memory.entities.all()) {
    yield { id: entity.id, kind: 'entity', text: [entity.name, ...entity.aliases, entity.summary].filter(Boolean).join(' · ') };
  }
  for (const row of memory.db.prepare<[], { id: string; content: string }>("SELECT id, content FROM episodes WHERE role IN ('user', 'document')").iterate()) {
    yield { id: row.id, kind: 'episode', text: row.content };
  }
}
