/**
 * The generation stamped beside a LanceDB table (`<vectors dir>/<table>.sync.json`) by each sync
 * that wrote to it, matching the one SQLite records (vector-changes.ts). When the two differ, the
 * database and the vector directory have not been synced together — one was restored from a backup
 * or copied from elsewhere, or a sync stopped between writing the stamp and recording it — and the
 * outbox cannot say what differs: the full reconcile runs.
 *
 * A file, not table metadata: it is written after every sync that changed something, and a
 * rename replaces it whole (a crash leaves the old stamp or the new one, never half of one).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function stampPath(dir: string, table: string): string {
  return join(dir, `${table}.sync.json`);
}

/** A new generation id. */
export function newGeneration(): string {
  return randomUUID();
}

/** The generation stamped beside `table`, or null when there is none (or it cannot be read). */
export function readStamp(dir: string, table: string): string | null {
  try {
    const parsed = JSON.parse(readFileSync(stampPath(dir, table), 'utf8')) as { generation?: unknown };
    return typeof parsed.generation === 'string' ? parsed.generation : null;
  } catch {
    return null;
  }
}

/** Stamps `generation` beside `table`, replacing the file at once. */
export function writeStamp(dir: string, table: string, generation: string): void {
  const path = stampPath(dir, table);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ generation }));
  renameSync(temporary, path);
}

/** Removes the stamp (before a reset: the table it vouched for is gone). */
export function removeStamp(dir: string, table: string): void {
  rmSync(stampPath(dir, table), { force: true });
}
