import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations } from './migrations';
import { sqliteBinding } from './sqlite-binding';
import { upgradeStore } from './upgrade-store';
import { registerTextFunctions } from './text-functions';
import { registerNaturalOrder } from '../natural-order';

export interface OpenDatabaseOptions {
  /** Path of the SQLite file, or ':memory:'. */
  path: string;
  /**
   * Path of a better-sqlite3 addon built for another ABI (Electron); default: $TEMPORA_SQLITE_BINDING
   * when set (the packaged `tempora` command, run by the app's binary as Node: its launcher names the
   * Electron build), else the Node build.
   */
  nativeBinding?: string;
  /**
   * Open for reading only: the file must exist, nothing is created, migrated or changed (no
   * journal-mode switch either). A schema older than this build is refused in words.
   */
  readonly?: boolean;
}

/**
 * Opens the memory database with WAL, foreign keys on, and the schema migrated (an older store is
 * copied first: upgrade-store.ts). The schema version is checked before anything else: a file from a
 * newer Tempora is refused unchanged, byte for byte.
 */
export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  if (options.readonly) return openReadOnly(options);
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const nativeBinding = bindingFor(options);
  const db = new Database(options.path, nativeBinding ? { nativeBinding } : {});
  try {
    refuseNewer(db);
  } catch (error) {
    db.close();
    throw error;
  }
  db.pragma('journal_mode = WAL');
  configure(db);
  try {
    // An older store is copied first (memory.sqlite.before-schema-N), then migrated.
    upgradeStore(db, options.path, migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  if (options.path !== ':memory:') removeStaleScratch(options.path, nativeBinding);
  return db;
}

/** Where SQLite keeps temporary data (statement journals, sorts) on the memory's connection. */
export const TEMP_STORE_WRITES = 'MEMORY';

function configure(db: Database.Database): void {
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // A write inside a transaction keeps a statement journal (the pages it changes, to undo it alone
  // on a constraint error). A fact version's insert changes ~80 pages (20 indexes, the timeline's,
  // live-count and queue triggers): past SQLite's 64 KiB in-memory limit, so each insert wrote its
  // journal to a temporary file, ~80 write calls a version (strace: 837k at 5,000 facts synced, 28k
  // in memory). In memory it costs 53 µs a version instead of 121 (docs/benchmarks.md). A bulk
  // import's sorts go back to files (import-into.ts): they grow with the document.
  db.pragma(`temp_store = ${TEMP_STORE_WRITES}`);
  db.pragma('cache_size = -32000'); // 32 MB page cache: imports and searches at 100k facts fit
  registerTextFunctions(db);
  registerNaturalOrder(db);
}

/** The schema version a file holds (0 for a new file). */
function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function refuseNewer(db: Database.Database): void {
  const version = schemaVersion(db);
  if (version > migrations.length) {
    throw new Error(`this memory was written by a newer Tempora (schema ${version}, this build knows ${migrations.length}); update Tempora to open it`);
  }
}

function openReadOnly(options: OpenDatabaseOptions): Database.Database {
  const nativeBinding = bindingFor(options);
  const binding = nativeBinding ? { nativeBinding } : {};
  if (options.path === ':memory:') throw new Error('a throwaway memory cannot be opened read-only');
  let db = new Database(options.path, { ...binding, readonly: true, fileMustExist: true });
  let version: number;
  try {
    version = schemaVersion(db);
  } catch (error) {
    db.close();
    // A WAL file on read-only media: SQLite cannot create its shared-memory file beside it (this
    // build says SQLITE_CANTOPEN at the first read; others SQLITE_READONLY_DIRECTORY).
    const code = (error as { code?: string }).code;
    if (code !== 'SQLITE_READONLY_DIRECTORY' && code !== 'SQLITE_CANTOPEN') throw error;
    db = snapshotOf(options.path, binding);
    version = schemaVersion(db);
  }
  try {
    refuseNewer(db);
    if (version < migrations.length) {
      throw new Error(
        `this memory was written by an older Tempora (schema ${version}, this build knows ${migrations.length}) and must be upgraded before it can be read; ` +
          'run a command that writes (tempora observe, import, edit …) or open the app once to upgrade it',
      );
    }
  } catch (error) {
    db.close();
    throw error;
  }
  configure(db);
  return db;
}

/**
 * The file read into memory, for a WAL-mode database in a directory that cannot be written (a CD, a
 * read-only mount). Only when no write is pending in its -wal file: then the file alone is the whole
 * memory. The copy says "rollback journal" in its header so that SQLite reads it without a WAL.
 */
function snapshotOf(path: string, binding: { nativeBinding?: string }): Database.Database {
  const wal = `${path}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new Error(`it is on read-only media with writes not yet merged into it (${wal}); open it once where it can be written`);
  }
  const bytes = readFileSync(path);
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return new Database(bytes, { ...binding, readonly: true });
}

/** The scratch database of a bulk load (transfer/bulk-load-helper.ts), beside the memory's file. */
export function bulkScratchPath(dbPath: string): string {
  return `${dbPath}.bulk-scratch`;
}

/** A scratch file this old is nobody's: a live load writes it all along and gives up after 10 minutes (BUILD_TIMEOUT_MS). */
const ABANDONED_AFTER_MS = 11 * 60_000;
/** Younger than this, a scratch file may belong to a load still starting (its worker not yet holding it). */
const STARTING_GRACE_MS = 60_000;

/**
 * The scratch file a killed bulk load left beside the memory (tens of MB), removed when the store is
 * opened for writing. One in use is left alone: a live worker holds a lock on it while it builds, and
 * the loading thread holds one while it copies; one that no one locks and that was not touched for a
 * minute (or for longer than any load may take) is stale. Best effort: never throws.
 */
export function removeStaleScratch(dbPath: string, nativeBinding?: string, now = Date.now()): boolean {
  const path = bulkScratchPath(dbPath);
  let age: number;
  try {
    age = now - statSync(path).mtimeMs;
  } catch {
    return false;
  }
  if (age < STARTING_GRACE_MS) return false;
  if (age < ABANDONED_AFTER_MS && isLocked(path, nativeBinding)) return false;
  for (const file of [path, `${path}-journal`]) {
    try {
      rmSync(file, { force: true });
    } catch {
      // held open elsewhere (Windows): the next open tries again
    }
  }
  return !existsSync(path);
}

/** Whether another connection holds the scratch database (a write lock is refused at once). */
function isLocked(path: string, nativeBinding?: string): boolean {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true, timeout: 0, ...(nativeBinding ? { nativeBinding } : {}) });
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
    return false;
  } catch (error) {
    return (error as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;
  } finally {
    db?.close();
  }
}

/** The addon for this store's connection (sqlite-binding.ts). */
function bindingFor(options: OpenDatabaseOptions): string | undefined {
  return sqliteBinding(options.nativeBinding);
}
