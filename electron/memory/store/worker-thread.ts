/**
 * Starting one of Tempora's worker threads (a bulk load's second thread, a first sync's segment
 * checks) from wherever this build runs. The built app starts the bundled `<name>.js` next to the
 * main process's bundle — in a packaged app from app.asar.unpacked (electron-builder.yml
 * asarUnpack), where it and everything it imports are plain files; running from source (the CLI,
 * tests, benchmarks) starts `<name>.ts` through tsx (ts-worker-boot.cjs).
 *
 * The thread is started through a small CommonJS boot that imports the entry and, when that fails
 * (a missing module, a file the loader cannot read), posts why and, given `failed`, stores
 * `failed.value` at `failed.index` of the shared state before the thread ends: a caller waiting synchronously (Atomics.wait, inside a
 * transaction) cannot hear the worker's error event, but sees this at once.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type TransferListItem } from 'node:worker_threads';

export interface WorkerThreadStart {
  /** The entry's name: `<name>.js` when built, `<name>.ts` in `sourceDir` from source. */
  name: string;
  /** The folder of the entry's .ts source (the caller's own: dirname(fileURLToPath(import.meta.url))). */
  sourceDir: string;
  /** What the worker reads as workerData (besides `entry`, the boot's). */
  data: Record<string, unknown>;
  /** Where the boot says that the entry could not be loaded (a caller that waits synchronously needs it). */
  failed?: { state: SharedArrayBuffer; index: number; value: number };
  transferList?: TransferListItem[];
}

/** The worker, or null where its entry is not to be found (the caller then does the work itself). */
export function startWorkerThread(start: WorkerThreadStart): Worker | null {
  const entry = workerEntry(start.name, start.sourceDir);
  if (!entry) return null;
  const failed = start.failed;
  const boot = [
    "const { parentPort, workerData } = require('node:worker_threads');",
    `import(${JSON.stringify(pathToFileURL(entry.file).href)}).catch((error) => {`,
    ...(failed ? ['  const state = new Int32Array(workerData.bootState);', `  Atomics.store(state, ${failed.index}, ${failed.value});`, `  Atomics.notify(state, ${failed.index});`] : []),
    "  parentPort.postMessage({ error: 'the worker could not start: ' + (error && error.message ? error.message : String(error)) });",
    '});',
  ].join('\n');
  const workerData = { ...start.data, entry: entry.source, ...(failed ? { bootState: failed.state } : {}) };
  return new Worker(boot, { eval: true, workerData, ...(start.transferList ? { transferList: start.transferList } : {}) });
}

/** The entry's file: the bundled .js next to the built main process, else the .ts source via tsx. */
function workerEntry(name: string, sourceDir: string): { file: string; source?: string } | null {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const dir of [here, join(here, '..')]) {
    const built = join(dir, `${name}.js`);
    for (const file of [unpackedPath(built), built]) if (existsSync(file)) return { file };
  }
  const source = join(sourceDir, `${name}.ts`);
  const boot = join(here, 'ts-worker-boot.cjs');
  return existsSync(source) && existsSync(boot) ? { file: boot, source } : null;
}

/** The same file in app.asar.unpacked when the path is inside an app.asar; else the path itself. */
export function unpackedPath(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}
