import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrate } from './migrate';
import { registerTextFunctions } from '../../text-search/fts-index';

export interface OpenDatabaseOptions {
  /** Path of the SQLite file, or ':memory:'. */
  path: string;
  /** Path of a better-sqlite3 addon built for another ABI (Electron); default: the Node build. */
  nativeBinding?: string;
  readonly?: boolean;
}

/** Opens the memory database with WAL, foreign keys on, and the schema migrated. */
export function openDatabase(options: OpenDatabaseOptions): Database.Database {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  const db = new Database(options.path, {
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    ...(options.readonly ? { readonly: true } : {}),
  });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -32000'); // 32 MB page cache: imports and searches at 100k facts fit
  registerTextFunctions(db);
  if (!options.readonly) migrate(db);
  return db;
}
