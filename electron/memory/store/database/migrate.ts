import type { Database } from 'better-sqlite3';
import { migrations as defaultMigrations, type Migration } from './migrations';

/**
 * Brings the schema up to date: runs every step after the stored `user_version`, each in a
 * transaction. A database from a newer Tempora is refused rather than misread.
 */
export function migrate(db: Database, steps: Migration[] = defaultMigrations): { from: number; to: number } {
  const from = db.pragma('user_version', { simple: true }) as number;
  if (from > steps.length) {
    throw new Error(`this memory was written by a newer Tempora (schema ${from}, this build knows ${steps.length}); update Tempora to open it`);
  }
  for (let index = from; index < steps.length; index++) {
    const step = steps[index]!;
    db.transaction(() => {
      step.up(db);
      db.pragma(`user_version = ${index + 1}`);
    })();
  }
  return { from, to: steps.length };
}
