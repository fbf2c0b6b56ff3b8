/** What an import reports when it has written the document. */
import type { ImportPlan } from './import-checks';

export interface ImportSummary {
  conversations: number;
  episodes: number;
  entities: number;
  facts: number;
  replaced: number;
  /** Entities of the document that were already in the memory under another id (the user, namesakes): their facts joined them. */
  merged: number;
  /** Messages still to be learned where they were exported (`learned: false`), queued here to be learned in the background. */
  queued: number;
}

/** `plan.clashes`: the ids that existed and were replaced; `joined`: document entities joined to stored ones. */
export function importSummary({ counts, clashes }: ImportPlan, joined: Map<string, string>, queued: number): ImportSummary {
  return { conversations: counts.conversations, episodes: counts.episodes, entities: counts.entities, facts: counts.facts, replaced: clashes.length, merged: joined.size, queued };
}
