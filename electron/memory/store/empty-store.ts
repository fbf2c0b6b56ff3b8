/**
 * Whether a store holds nothing anyone stored: no message, claim, fact, entity, conversation,
 * review or learning job (settings aside: opening the engine with a model records its path). A command refused before it stored anything removes the store it
 * had just created (cli/memory-dir.ts) only when this still says so: another process may have
 * opened the same new directory meanwhile and stored something there.
 */
import { databasePath } from './data-dir';
import { openDatabase } from './database/open-database';

const CONTENT = ['episodes', 'claims', 'facts', 'entities', 'conversations', 'pending_reviews', 'ingestion_jobs'];

/** True only when the store in `dataDir` opens and every table of content is empty; any doubt is false. */
export function storeHoldsNothing(dataDir: string): boolean {
  try {
    const db = openDatabase({ path: databasePath(dataDir), readonly: true });
    try {
      return CONTENT.every((table) => db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() === undefined);
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}
