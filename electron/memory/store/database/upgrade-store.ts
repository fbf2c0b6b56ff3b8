/**
 * Upgrading a store written by an older Tempora, safely: before the first step runs, a copy of the
 * whole memory as it was (`VACUUM INTO`: one consistent file, the WAL's writes included) is written
 * beside it, `memory.sqlite.before-schema-N`. If a step then fails, the steps before it stay (each
 * is its own transaction) and the error says, in words, which step failed and where the copy is.
 * If the copy cannot be written (a full disk, a read-only folder), nothing is migrated. A new store
 * (schema 0) has nothing to keep, and a store already current is left alone.
 */
import type { Database } from 'better-sqlite3';
import { existsSync, rmSync } from 'node:fs';
import { migrate } from './migrate';
import type { Migration } from './migrations';

/** Where the copy from before upgrading from schema `version` goes. */
export function backupPathBefore(dbPath: string, version: number): string {
  return `${dbPath}.before-schema-${version}`;
}

export class StoreUpgradeError extends Error {
  constructor(
    message: string,
    /** The copy from before the upgrade, when one was written. */
    readonly backupPath: string | null,
  ) {
    super(message);
    this.name = 'StoreUpgradeError';
  }
}

/**
 * Migrates `db` (the file at `dbPath`, or ':memory:') to the last of `steps`, with a copy of the
 * store before it when it holds an older schema. Returns the copy's path (null when none was needed).
 */
export function upgradeStore(db: Database, dbPath: string, steps: Migration[]): { from: number; to: number; backupPath: string | null } {
  const from = db.pragma('user_version', { simple: true }) as number;
  let backupPath: string | null = null;
  if (dbPath !== ':memory:' && from > 0 && from < steps.length) {
    backupPath = backupPathBefore(dbPath, from);
    // Another process opening the same store at once may have written it already: the same state.
    if (!existsSync(backupPath)) writeCopy(db, backupPath, from, steps.length);
  }
  try {
    return { ...migrate(db, steps), backupPath };
  } catch (error) {
    const reached = db.pragma('user_version', { simple: true }) as number;
    const step = steps[reached];
    const where = backupPath ? ` Your memory as it was before the upgrade is kept at ${backupPath}.` : '';
    throw new StoreUpgradeError(
      `could not upgrade this memory from schema ${from} to ${steps.length}: step ${reached + 1}${step ? ` (${step.name})` : ''} failed: ${(error as Error).message}.${where}`,
      backupPath,
    );
  }
}

function writeCopy(db: Database, path: string, from: number, to: number): void {
  try {
    db.prepare('VACUUM INTO ?').run(path);
  } catch (error) {
    rmSync(path, { force: true });
    throw new StoreUpgradeError(
      `this memory needs an upgrade (schema ${from} to ${to}), and a copy of it could not be written first to ${path}: ${(error as Error).message}. Nothing was changed; free some space or make the folder writable, then open it again`,
      null,
    );
  }
}
