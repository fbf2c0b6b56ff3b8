/**
 * Peak memory and speed of importing an export file into an empty store, in a child process (a
 * fresh store each run): the `tempora import` path (importFileNow: both passes at once) or the
 * screens' (importFile: the first pass without blocking; --screen). Prints the child's peak RSS
 * and heap, the wall time, facts per second, the longest the event loop was blocked, and the
 * batches the bulk-load worker was sent. The file is one given (--file, e.g. a `tempora export`
 * of a large memory) or a synthetic export of --observations N written in pieces (default 100k).
 *
 *   npx tsx test/bench/import-file.ts [--observations 100000 | --file PATH] [--screen] [--keep DIR]
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { exportJsonChunks } from '../../shared/export-json';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { syntheticExport } from './synthetic-export';
import { peakResidentBytes } from './stats';

async function child(path: string, dataDir: string, screen: boolean): Promise<void> {
  const { openMemory } = await import('../../electron/memory/index');
  const { BulkLoadHelper } = await import('../../electron/memory/transfer/bulk-load-helper');
  const helpers: { sent: { batches: number; largest: number; mostInFlight: number } }[] = [];
  const spawn = BulkLoadHelper.spawn.bind(BulkLoadHelper);
  BulkLoadHelper.spawn = (...args) => {
    const helper = spawn(...args);
    if (helper) helpers.push(helper);
    return helper;
  };
  const memory = openMemory({ dataDir });
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  stalls.enable();
  let peakHeap = 0;
  const sample = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 100);
  const phases: Record<string, number> = {};
  const begun = performance.now();
  const onProgress = ({ phase }: { phase: string }) => (phases[phase] ??= performance.now() - begun);
  const summary = screen ? await memory.transfer.importFile(path, { label: 'export.json', onProgress }) : memory.transfer.importFileNow(path, { label: 'export.json', onProgress });
  const seconds = (performance.now() - begun) / 1000;
  await memory.settled();
  clearInterval(sample);
  stalls.disable();
  memory.close();
  const sent = helpers[0]?.sent ?? null;
  console.log(
    JSON.stringify({
      path: screen ? 'screen (importFile)' : 'tempora import (importFileNow)',
      seconds: Math.round(seconds * 10) / 10,
      checkedAfterS: Math.round((phases.writing ?? 0) / 100) / 10,
      factsPerSecond: Math.round(summary.facts / seconds),
      peakRssMb: Math.round(peakResidentBytes() / 2 ** 20),
      peakHeapMb: Math.round(peakHeap / 2 ** 20),
      longestStallMs: Math.round(stalls.max / 1e6),
      facts: summary.facts,
      episodes: summary.episodes,
      workerBatches: sent,
    }),
  );
}

async function writeSynthetic(path: string, observations: number): Promise<void> {
  const doc = syntheticExport(generateSyntheticMemory({ observations, seed: 42 }));
  const out = createWriteStream(path);
  for (const piece of exportJsonChunks(doc)) if (!out.write(piece)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { observations: { type: 'string', default: '100000' }, file: { type: 'string' }, screen: { type: 'boolean' }, keep: { type: 'string' }, child: { type: 'string' }, data: { type: 'string' } },
  });
  if (values.child) return child(values.child, values.data!, values.screen ?? false);
  const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'tempora-import-file-'));
  try {
    let file = values.file;
    if (!file) {
      file = join(dir, 'export.json');
      await writeSynthetic(file, Number(values.observations));
    }
    console.error(`importing ${file} (${Math.round(statSync(file).size / 1e6)} MB)`);
    const self = fileURLToPath(import.meta.url);
    const args = ['--import', 'tsx', self, '--child', file, '--data', join(dir, 'data'), ...(values.screen ? ['--screen'] : [])];
    const run = spawnSync(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, LANCEDB_LOG: 'error' } });
    if (run.status !== 0) process.exitCode = 1;
  } finally {
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
