/** What an import reports when it has written the document. */
import type { MemoryExport } from '../../../shared/memory-schema';

export interface ImportSummary {
  conversations: number;
  episodes: number;
  entities: number;
  facts: number;
  replaced: number;
  /** Entities of the document that were already in the memory under another id (the user, namesakes): their facts joined them. */
  merged: number;
}

/** `clashes`: the ids that existed and were replaced; `joined`: document entities joined to stored ones. */
export function importSummary(doc: MemoryExport, clashes: string[], joined: Map<string, string>): ImportSummary {
  return { conversations: doc.conversations.length, episodes: doc.episodes.length, entities: doc.entities.length, facts: doc.facts.length, replaced: clashes.length, merged: joined.size };
}
