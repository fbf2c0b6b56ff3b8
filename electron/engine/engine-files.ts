/**
 * What the engine keeps in the memory directory beside the store: the record of each model's last
 * load (so a model that crashed the process is not loaded again by itself) and the vector index.
 * The command line names them too, to take back what a refused start made (cli/memory-dir.ts).
 */
import { join } from 'node:path';

/** The record of each model's last load, written as a load starts and when it ends. */
export function modelStatePath(dataDir: string): string {
  return join(dataDir, 'model-state.json');
}

/** The vector index (LanceDB), made once an embedding model is loaded. */
export function vectorIndexPath(dataDir: string): string {
  return join(dataDir, 'vectors');
}
