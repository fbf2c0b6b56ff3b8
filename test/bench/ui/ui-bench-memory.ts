/**
 * The memory a UI benchmark runs on: the synthetic memory of `npm run bench`
 * (test/fixtures/synthetic-memory.ts) imported into a data directory, plus one conversation whose
 * answer used 20 facts (the chat's fact chips). Returns what the screens are measured on.
 */
import { join } from 'node:path';
import { openMemory } from '../../../electron/memory/index';
import { generateSyntheticMemory } from '../../fixtures/synthetic-memory';
import { syntheticExport } from '../synthetic-export';

export interface UiBenchMemory {
  dataDir: string;
  /** Fact versions in the store. */
  facts: number;
  /** A fact held now, for its page. */
  factId: string;
  /** The conversation whose answer used facts. */
  conversationId: string;
  /** A word that occurs in some facts, for the search box. */
  searchTerm: string;
  buildMs: number;
}

export async function buildUiBenchMemory(root: string, observations: number, seed = 42): Promise<UiBenchMemory> {
  const t0 = performance.now();
  const dataDir = join(root, `ui-${observations}`);
  const doc = syntheticExport(generateSyntheticMemory({ observations, seed }));
  const memory = openMemory({ dataDir });
  try {
    memory.importMemory(doc);
    await memory.settled();
    const live = doc.facts.filter((f) => f.expired_at === null);
    // A fact about someone with history: the page shows its versions and what closed it.
    const fact = live.find((f) => f.supersedes !== null) ?? live[0]!;
    const conversationId = 'cnv_ui_bench';
    memory.appendMessage({ role: 'user', content: 'Who do I know?', time: doc.exported_at, conversation: conversationId, conversationTitle: 'UI benchmark', learn: false });
    const { episode: answer } = memory.appendMessage({ role: 'assistant', content: 'Here is what I remember.', time: doc.exported_at, conversation: conversationId, learn: false });
    memory.recordMessageFacts(answer.id, live.slice(0, 20).map((f) => f.id));
    // A word of some fact's value, not a namesake's numbered name ("佐藤健太2" also finds "佐藤健太").
    const searchTerm = (live.find((f) => f.supersedes !== null && !/\d/.test(f.object)) ?? fact).object.split(/\s+/)[0]!;
    return { dataDir, facts: doc.facts.length, factId: fact.id, conversationId, searchTerm, buildMs: performance.now() - t0 };
  } finally {
    memory.close();
  }
}
