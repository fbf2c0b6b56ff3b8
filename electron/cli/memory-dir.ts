/**
 * The memory directory as the command line names it (--data DIR, $TEMPORA_DATA_DIR or the app's),
 * checked before the store is opened so that a bad one fails in words, not as EEXIST or EACCES:
 * commands that write create it; commands that only read never create anything.
 */
import { accessSync, constants, existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { databasePath } from '../memory/index';
import { InputError } from './errors';
import { describeFsError } from './files';

/** How errors name the directory: "--data" when it was typed, else "the memory directory". */
export interface DataDir {
  path: string;
  label: string;
}

/** `--data ''` would be the working directory: refused. */
export function checkDataOption(value: string): void {
  if (value.trim() === '') throw new InputError('--data: must not be empty');
}

function kindOf(path: string): 'missing' | 'directory' | 'other' {
  try {
    return statSync(path).isDirectory() ? 'directory' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw error;
  }
}

/** What a command that writes made where there was no memory: removed again when it fails. */
export interface NewMemory {
  /** Removes the store this command created (and the directory, when it created that too); nothing when there was one. */
  discard(): void;
}

/**
 * For a command that writes: the directory exists afterwards (created with its parents when missing).
 * Returns how to take a memory this command created away again, so that a command that fails on a
 * new directory (a file that is not JSON, a bad line) leaves nothing behind.
 */
export function prepareForWrite(dir: DataDir): NewMemory {
  const kind = kindOf(dir.path);
  if (kind === 'other') throw new InputError(`${dir.label}: ${dir.path} is a file, not a directory`);
  const store = databasePath(dir.path);
  const fresh = !existsSync(store);
  /** The first directory this command created (the topmost of those missing), if any. */
  let made: string | undefined;
  const discard = () => {
    if (!fresh) return;
    if (made !== undefined) rmSync(made, { recursive: true, force: true });
    else for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${store}${suffix}`, { force: true });
  };
  try {
    made = kind === 'missing' ? mkdirSync(dir.path, { recursive: true }) : undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new InputError(`${dir.label}: cannot create ${dir.path}: a parent of it is a file, not a directory`);
    throw new InputError(`${dir.label}: cannot create ${dir.path}: ${describeFsError(error)}`);
  }
  // A memory on read-only media (or without permission) is refused before SQLite's own words.
  try {
    accessSync(dir.path, constants.W_OK);
  } catch {
    throw new InputError(`cannot write the memory in ${dir.path}: it is on read-only media, or you have no permission to write there; nothing was stored — commands that only read (facts, search, show, export) still work`);
  }
  return { discard };
}

/** For a command that only reads: the memory must be there already; nothing is created. */
export function checkForRead(dir: DataDir): void {
  let kind: ReturnType<typeof kindOf>;
  try {
    kind = kindOf(dir.path);
  } catch (error) {
    throw new InputError(`${dir.label}: cannot read ${dir.path}: ${describeFsError(error)}`);
  }
  if (kind === 'other') throw new InputError(`${dir.label}: ${dir.path} is a file, not a directory`);
  if (kind === 'missing' || kindOf(databasePath(dir.path)) !== 'other') {
    throw new InputError(`no memory in ${dir.path} (nothing has been stored there yet; check --data or $TEMPORA_DATA_DIR)`);
  }
}

/** An error of opening the store, in words: read-only media and permissions are said as such. */
export function describeOpenError(error: unknown, readonly: boolean): string {
  const e = error as { code?: string; message?: string };
  if (!readonly && (e.code?.startsWith('SQLITE_READONLY') || e.code === 'EACCES' || e.code === 'EROFS')) {
    return 'it cannot be written here (read-only media, or no permission); commands that only read (facts, search, show, export) still work';
  }
  if (e.code === 'SQLITE_CANTOPEN') return 'cannot open its database file (no permission?)';
  return e.message ?? String(error);
}
