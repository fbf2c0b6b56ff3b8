/**
 * A large write's WAL copied into the database file on a worker thread once the write has
 * committed (SQLite's "checkpoint in a separate thread"): a first sync onto an empty device leaves
 * the whole store in the WAL, and copying it on the writing thread — inside its commit, as SQLite's
 * automatic checkpoint would, or two seconds later, as the idle checkpoint would — holds that thread
 * for seconds at 100k facts and minutes at a million. The bulk-load worker does it
 * (bulk-load-worker.ts checkpoint: PASSIVE passes until the WAL stops growing); an import into an
 * empty store hands it the same job at its end (bulk-load-helper.ts finish).
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorkerThread } from '../store/worker-thread';

/** SQLite's default automatic checkpoint threshold, in pages: what a write that turned it off restores. */
export const WAL_AUTOCHECKPOINT_PAGES = 1000;

/** Starts the checkpoint; settles when the worker has ended. null: no worker could start (the idle checkpoint will do it). */
export function checkpointInBackground(dbPath: string, nativeBinding: string | undefined): Promise<void> | null {
  try {
    const worker = startWorkerThread({
      name: 'bulk-load-worker',
      sourceDir: dirname(fileURLToPath(import.meta.url)),
      data: { checkpoint: { path: dbPath, ...(nativeBinding ? { nativeBinding } : {}) } },
    });
    if (!worker) return null;
    // What went wrong only delays the copy: the idle checkpoint, or SQLite's own, does it later.
    worker.on('error', () => {});
    worker.on('message', () => {});
    return new Promise((resolve) => worker.once('exit', () => resolve()));
  } catch {
    return null;
  }
}
