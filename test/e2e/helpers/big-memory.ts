/**
 * A big memory for the screens, fast: the synthetic memory of `npm run bench`
 * (test/fixtures/synthetic-memory.ts) turned straight into an export (test/bench/synthetic-export.ts)
 * and loaded with `importMemory` — about 104k fact versions from 100k observations in seconds,
 * where `observe` would take minutes. Plus one conversation whose answer used 20 facts (the chat's
 * fact chips). `startBigUi` is `startUi` on such a memory; `seedBigMemory` fills any open memory
 * (the UI benchmark builds its data directories with it).
 */
import type { Memory } from '../../../electron/memory/index';
import type { EngineOptions } from '../../../electron/engine/index';
import { generateSyntheticMemory } from '../../fixtures/synthetic-memory';
import { syntheticExport } from '../../bench/synthetic-export';
import { startUi, type UiSession } from './ui-session';

export interface BigMemory {
  /** Fact versions in the store. */
  facts: number;
  /** A fact held now that replaced another, for its page. */
  factId: string;
  /** The conversation whose answer used facts. */
  conversationId: string;
  /** A word that occurs in some facts, for the search box. */
  searchTerm: string;
}

/** Imports the synthetic memory of `observations` observations into `memory` (empty) and waits until it is settled. */
export async function seedBigMemory(memory: Memory, observations = 100_000, seed = 42): Promise<BigMemory> {
  const doc = syntheticExport(generateSyntheticMemory({ observations, seed }));
  memory.transfer.import(doc);
  await memory.settled();
  const live = doc.facts.filter((f) => f.expired_at === null);
  // A fact about someone with history: the page shows its versions and what closed it.
  const fact = live.find((f) => f.supersedes !== null) ?? live[0]!;
  const conversationId = 'cnv_big_memory';
  memory.messages.append({ role: 'user', content: 'Who do I know?', time: doc.exported_at, conversation: conversationId, conversationTitle: 'Big memory', learn: false });
  const { episode: answer } = memory.messages.append({ role: 'assistant', content: 'Here is what I remember.', time: doc.exported_at, conversation: conversationId, learn: false });
  memory.messages.recordFacts(answer.id, live.slice(0, 20).map((f) => f.id));
  // A word of some fact's value, not a namesake's numbered name ("佐藤健太2" also finds "佐藤健太").
  const searchTerm = (live.find((f) => f.supersedes !== null && !/\d/.test(f.object)) ?? fact).object.split(/\s+/)[0]!;
  return { facts: doc.facts.length, factId: fact.id, conversationId, searchTerm };
}

/** A UI session (ui-session.ts) whose engine holds the big memory; no worker, no models. */
export async function startBigUi(options: { observations?: number; seed?: number; engine?: Partial<EngineOptions> } = {}): Promise<{ ui: UiSession; memory: BigMemory }> {
  let memory: BigMemory | undefined;
  const ui = await startUi({
    engine: { startWorker: false, ...options.engine },
    seed: async (engine) => {
      memory = await seedBigMemory(engine.memory, options.observations, options.seed);
    },
  });
  return { ui, memory: memory! };
}
