/**
 * What the engine keeps in the memory directory beside the store: the record of each model's last
 * load (so a model that crashed the process is not loaded again by itself), the vector index and the
 * downloaded models. The command line names them too, to take back what a refused start made
 * (cli/memory-dir.ts), and to list and download models without opening the store (cli/commands/models.ts).
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

/** Where catalogue models are downloaded (`tempora models pull`, the app's Models screen). */
export function modelsPath(dataDir: string): string {
  return join(dataDir, 'models');
}
