/**
 * Hybrid retrieval and the chat turn (retrieval.ts) on the bench's store, measured in a process
 * that opens the store and its vector index as the app does at start-up (stats.ts childEnv).
 *
 * The bench's own process has generated a whole synthetic memory and holds it, as one export
 * document, until its laptop section imports it again: at a million facts a heap of gigabytes, whose
 * collections landed in the searches. The turn's first token measured there had a p95 of 45–47 ms
 * (two runs, 2026-12-06 and 2026-12-07) against 16–20 ms in a process that only opened the store
 * (docs/benchmarks.md, "The chat turn at a million, again"): the figure was the bench's heap, not the
 * app's. `--profile` keeps both in the bench's process, to time their SQL there.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openMemory } from '../../electron/memory/index';
import { benchChatTurn, benchRetrieval, DIMENSIONS, type RetrievalBenchResult, type TurnBenchResult } from './retrieval';
import { childEnv } from './stats';

export interface SearchChildOptions {
  hybrid: { runs: number; seed: number; facts: number; budgetMs?: number } | null;
  turn: { runs: number; seed: number; budgetMs?: number } | null;
}

export interface SearchChildResult {
  hybrid?: RetrievalBenchResult;
  turn?: TurnBenchResult;
}

const self = fileURLToPath(import.meta.url);

/** Runs hybrid retrieval, then the chat turn, on the store in `dataDir` with the fact vectors at `vectorsPath`, in a child process. */
export function benchSearchInChild(dataDir: string, vectorsPath: string, options: SearchChildOptions): SearchChildResult {
  const run = spawnSync(process.execPath, ['--import', 'tsx', self, '--search-child', dataDir, vectorsPath, JSON.stringify(options)], {
    encoding: 'utf8',
    env: childEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`The search bench's child process failed (exit ${run.status}): ${run.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as SearchChildResult;
}

async function searchChild(dataDir: string, vectorsPath: string, options: SearchChildOptions): Promise<void> {
  // Loaded here, not at the top: LanceDB reads LANCEDB_LOG when it is loaded.
  process.env.LANCEDB_LOG ??= 'error';
  const { VectorIndex } = await import('../../electron/memory/index');
  const memory = openMemory({ dataDir });
  // As the app keeps the facts' vectors (electron/engine/vector-service.ts; retrieval.ts buildFactVectors).
  const index = await VectorIndex.open(vectorsPath, DIMENSIONS, { table: 'items', kinds: ['fact'] });
  try {
    if (!index.annIndexed) throw new Error(`the vector index at ${vectorsPath} has no ANN index`);
    const result: SearchChildResult = {};
    if (options.hybrid) result.hybrid = await benchRetrieval(memory, index, options.hybrid);
    if (options.turn) result.turn = await benchChatTurn(memory, index, options.turn);
    console.log(JSON.stringify(result));
  } finally {
    await index.close();
    memory.close();
  }
}

const at = process.argv.indexOf('--search-child');
if (at > 0) await searchChild(process.argv[at + 1]!, process.argv[at + 2]!, JSON.parse(process.argv[at + 3]!) as SearchChildOptions);
