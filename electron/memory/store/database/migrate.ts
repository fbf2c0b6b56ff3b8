import type { Database } from 'better-sqlite3';
import { migrations as defaultMigrations, type Migration } from './migrations';

/**
 * Brings the schema up to date: runs every step after the stored `user_version`, each in a
 * transaction. A database from a newer Tempora is refused rather than misread. Each step takes the
 * write lock first (IMMEDIATE) and re-reads the version under it: two processes opening the same
 * new memory at once (the app and `tempora mcp`) run each step once, not twice.
 */
export function migrate(db: Database, steps: Migration[] = defaultMigrations): { from: number; to: number } {
  const from = db.pragma('user_version', { simple: true }) as number;
  if (from > steps.length) {
    throw new Error(`this memory was written by a newer Tempora (schema ${from}, this build knows ${steps.length}); update Tempora to open it`);
  }
  for (let index = from; index < steps.length; index++) {
    const step = steps[index]!;
    db.transaction(() => {
      if ((db.pragma('user_version', { simple: true }) as number) > index) return; // another process ran it
      step.up(db);
      db.pragma(`user_version = ${index + 1}`);
    }).immediate();
  }
  return { from, to: steps.length };
}
