/**
 * A store from an older Tempora is copied before it is migrated (issue #26: "no backup before
 * migrating"): the copy holds the old schema and every row; a step that fails says which step and
 * where the copy is; a copy that cannot be written stops the upgrade with nothing changed; a new
 * store or a current one gets no copy. Real SQLite files.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../electron/memory/store/database/migrate';
import { migrations, type Migration } from '../../electron/memory/store/database/migrations';
import { openDatabase } from '../../electron/memory/store/database/open-database';
import { backupPathBefore, StoreUpgradeError, upgradeStore } from '../../electron/memory/store/database/upgrade-store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-upgrade-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A store at schema `version` with one row in a table of step 1, in WAL mode with the row not yet checkpointed. */
function olderStore(version: number): { path: string; db: Database.Database } {
  const path = join(dir, 'memory.sqlite');
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  migrate(db, migrations.slice(0, version));
  db.prepare("INSERT INTO entities (id, name, normalized_name, type, created_at) VALUES ('ent_old', 'Old Friend', 'old friend', 'person', '2026-01-01T00:00:00.000Z')").run();
  return { path, db };
}

const versionOf = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return { version: db.pragma('user_version', { simple: true }) as number, names: db.prepare('SELECT name FROM entities').pluck().all() };
  } finally {
    db.close();
  }
};

describe('upgrading an older store keeps a copy of it first', () => {
  it('the copy holds the old schema and the rows, the WAL’s included; the store is current', () => {
    const { path, db } = olderStore(5);
    // The old connection stays open, its row only in the -wal file: the copy must hold it all the same.
    const opened = openDatabase({ path });
    try {
      expect(opened.pragma('user_version', { simple: true })).toBe(migrations.length);
    } finally {
      opened.close();
      db.close();
    }
    expect(versionOf(backupPathBefore(path, 5))).toEqual({ version: 5, names: ['Old Friend'] });
  });

  it('a new store and a current one get no copy', () => {
    const path = join(dir, 'memory.sqlite');
    openDatabase({ path }).close();
    openDatabase({ path }).close();
    expect(readdirSync(dir).filter((f) => f.includes('before-schema'))).toEqual([]);
  });

  it('a step that fails names the step and the copy; the steps before it stay, the copy is untouched', () => {
    const { path, db } = olderStore(3);
    const failing: Migration = {
      name: '9999_broken',
      up() {
        throw new Error('no such column: nonsense');
      },
    };
    const steps = [...migrations.slice(0, 4), failing];
    let thrown: unknown;
    try {
      upgradeStore(db, path, steps);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StoreUpgradeError);
    const message = (thrown as Error).message;
    expect(message).toBe(
      `could not upgrade this memory from schema 3 to 5: step 5 (9999_broken) failed: no such column: nonsense. Your memory as it was before the upgrade is kept at ${backupPathBefore(path, 3)}.`,
    );
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    db.close();
    expect(versionOf(backupPathBefore(path, 3))).toEqual({ version: 3, names: ['Old Friend'] });
  });

  it('a copy that cannot be written stops the upgrade with nothing changed, saying why in words', () => {
    const { db } = olderStore(3);
    // The copy's folder does not exist: VACUUM INTO cannot write it, as with a full disk.
    const elsewhere = join(dir, 'missing', 'memory.sqlite');
    expect(() => upgradeStore(db, elsewhere, migrations)).toThrow(
      `this memory needs an upgrade (schema 3 to ${migrations.length}), and a copy of it could not be written first to ${backupPathBefore(elsewhere, 3)}: unable to open database: ${backupPathBefore(elsewhere, 3)}. Nothing was changed; free some space or make the folder writable, then open it again`,
    );
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    expect(db.prepare('SELECT name FROM entities').pluck().all()).toEqual(['Old Friend']);
    db.close();
  });
});
