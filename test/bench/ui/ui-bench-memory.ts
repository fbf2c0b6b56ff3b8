/**
 * The memory a UI benchmark runs on: the synthetic memory of `npm run bench` imported into a data
 * directory, plus one conversation whose answer used 20 facts (the chat's fact chips), by the e2e
 * tests' big memory (test/e2e/helpers/big-memory.ts). Returns what the screens are measured on.
 */
import { join } from 'node:path';
import { openMemory } from '../../../electron/memory/index';
import { seedBigMemory, type BigMemory } from '../../e2e/helpers/big-memory';

export interface UiBenchMemory extends BigMemory {
  dataDir: string;
  buildMs: number;
}

export async function buildUiBenchMemory(root: string, observations: number, seed = 42): Promise<UiBenchMemory> {
  const t0 = performance.now();
  const dataDir = join(root, `ui-${observations}`);
  const memory = openMemory({ dataDir });
  try {
    const made = await seedBigMemory(memory, observations, seed);
    return { ...made, dataDir, buildMs: performance.now() - t0 };
  } finally {
    memory.close();
  }
}
