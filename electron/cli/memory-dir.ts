/**
 * The memory directory as the command line names it (--data DIR, $TEMPORA_DATA_DIR or the app's),
 * checked before the store is opened so that a bad one fails in words, not as EEXIST or EACCES:
 * commands that write create it — and take it back when they are refused before they store anything;
 * commands that only read never create anything.
 */
import { accessSync, constants, existsSync, mkdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { modelStatePath, vectorIndexPath } from '../engine/engine-files';
import { databasePath, storeHoldsNothing } from '../memory/index';
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

/** What a write command made before the store was opened, for leaveAsFound. */
export interface MadeForWrite {
  /** The highest directory this run created (the memory's own, or a parent of it); undefined when it was there. */
  createdDir: string | undefined;
  /**
   * The store's files (database, WAL, shared memory, journal) and the engine's beside them (the
   * record of model loads, the vector index) that were not there before this run.
   */
  newStoreFiles: string[];
}

/**
 * The files of the store in a memory directory: the database and SQLite's companions of it, and
 * what the engine keeps beside it — a model that would not load is recorded before it is refused.
 */
function storeFiles(path: string): string[] {
  const database = databasePath(path);
  return [...['', '-wal', '-shm', '-journal'].map((suffix) => `${database}${suffix}`), modelStatePath(path), vectorIndexPath(path)];
}

/** Not there (a path that cannot be looked at is not taken for missing: it is never removed). */
function isMissing(path: string): boolean {
  try {
    return kindOf(path) === 'missing';
  } catch {
    return false;
  }
}

/** The most bytes a file or directory name may have on the file systems Tempora runs on (NAME_MAX). */
const NAME_MAX_BYTES = 255;
/** SQLite (on Unix) opens a database whose path fits in 512 bytes with "-journal" after it. */
const SQLITE_PATH_MAX_BYTES = 512 - '-journal'.length;

/** The database's path is longer than SQLite opens (its Windows limits differ: that is left to SQLite's own error). */
function tooLongForSqlite(path: string): boolean {
  return process.platform !== 'win32' && Buffer.byteLength(databasePath(path)) > SQLITE_PATH_MAX_BYTES;
}

/**
 * A path refused as too long, in words: the name in it that is too long, or SQLite's limit, or the
 * whole; `outcome` says what that means ("nothing was stored", "there is no memory there").
 */
function tooLong(dir: DataDir, outcome: string): InputError {
  const name = dir.path.split(sep).find((part) => Buffer.byteLength(part) > NAME_MAX_BYTES);
  const why =
    name !== undefined
      ? `a name in it ("${name.slice(0, 24)}…") is ${Buffer.byteLength(name)} bytes, and a file system allows ${NAME_MAX_BYTES}`
      : tooLongForSqlite(dir.path)
        ? `the memory's database there would be a path of ${Buffer.byteLength(databasePath(dir.path))} bytes, and SQLite opens one of at most ${SQLITE_PATH_MAX_BYTES}`
        : `its ${Buffer.byteLength(dir.path)} bytes are more than this system allows in a path`;
  return new InputError(`${dir.label}: ${dir.path} is too long a path: ${why}; ${outcome}`);
}

const isTooLong = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENAMETOOLONG';

/** The highest directory of `path` (itself included) that is not there, or undefined when it is there. */
function firstMissing(path: string): string | undefined {
  let top: string | undefined;
  for (let at = path; isMissing(at); at = dirname(at)) {
    top = at;
    if (dirname(at) === at) break;
  }
  return top;
}

/** The error code of making `path` alone (null: it could be made, and is taken back). */
function whyNotMade(path: string): string | null {
  try {
    mkdirSync(path);
    rmdirSync(path);
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? null;
  }
}

/** Removes the empty directories from `path` up to `top`, innermost first; what is not empty (or not there) is passed over. */
function removeEmptyDirs(path: string, top: string): void {
  for (let at = path; at.startsWith(top); at = dirname(at)) {
    try {
      rmdirSync(at);
    } catch {
      // Not there (the mkdir stopped above it), or holding something: it stays.
    }
    if (at === top) break;
  }
}

/** For a command that writes: the directory exists afterwards (created with its parents when missing). */
export function prepareForWrite(dir: DataDir): MadeForWrite {
  const stored = 'nothing was stored';
  if (tooLongForSqlite(dir.path)) throw tooLong(dir, stored);
  let kind: ReturnType<typeof kindOf>;
  try {
    kind = kindOf(dir.path);
  } catch (error) {
    if (isTooLong(error)) throw tooLong(dir, stored);
    throw error;
  }
  if (kind === 'other') throw new InputError(`${dir.label}: ${dir.path} is a file, not a directory`);
  let createdDir: string | undefined;
  const newStoreFiles = storeFiles(dir.path).filter(isMissing);
  const top = firstMissing(dir.path);
  try {
    createdDir = mkdirSync(dir.path, { recursive: true });
  } catch (error) {
    // mkdir -p stops where it fails: the parents it made before are taken back.
    if (top !== undefined) removeEmptyDirs(dir.path, top);
    // Node's recursive mkdir says ENOENT where the first directory to make cannot be (read-only
    // media: EROFS): that one directory, made alone, says why.
    const failed = error as NodeJS.ErrnoException;
    const code = failed.code === 'ENOENT' && top !== undefined ? (whyNotMade(top) ?? 'ENOENT') : failed.code;
    if (code === 'EROFS') throw new InputError(`${dir.label}: cannot create ${dir.path}: it is on read-only media; nothing was stored`);
    if (isTooLong(error)) throw tooLong(dir, stored);
    if (code === 'EEXIST' || code === 'ENOTDIR') throw new InputError(`${dir.label}: cannot create ${dir.path}: a parent of it is a file, not a directory`);
    throw new InputError(`${dir.label}: cannot create ${dir.path}: ${describeFsError({ code, message: failed.message })}`);
  }
  // A memory on read-only media (or without permission) is refused before SQLite's own words.
  try {
    accessSync(dir.path, constants.W_OK);
  } catch {
    throw new InputError(`cannot write the memory in ${dir.path}: it is on read-only media, or you have no permission to write there; nothing was stored — commands that only read (facts, search, show, export) still work`);
  }
  return { createdDir, newStoreFiles };
}

/**
 * A write command refused before it stored anything (a bad file, a model that is not there) leaves
 * the directory as it found it, once its store is closed: the store's files this run made are
 * removed only when the database itself is new and still holds nothing (storeHoldsNothing: another
 * command may have stored there meanwhile), then the directories this run
 * created, innermost first, each only while empty — one holding anything else stays, and so does
 * every directory that was there before. Best effort: the refusal is what the user needs to read.
 */
export function leaveAsFound(dir: DataDir, made: MadeForWrite): void {
  const database = databasePath(dir.path);
  if (!made.newStoreFiles.includes(database)) return;
  // Another process may have opened the same new store meanwhile and stored something there (open
  // still, or closed): then it is no longer this run's to take.
  if (existsSync(database) && !storeHoldsNothing(dir.path)) return;
  try {
    for (const file of made.newStoreFiles) rmSync(file, { force: true, recursive: true });
    const top = made.createdDir;
    if (top === undefined) return;
    for (let path = dir.path; path.startsWith(top); path = dirname(path)) {
      rmdirSync(path);
      if (path === top) break;
    }
  } catch {
    // Not empty, or not ours to remove: it stays.
  }
}

/** For a command that only reads: the memory must be there already; nothing is created. */
export function checkForRead(dir: DataDir): void {
  let kind: ReturnType<typeof kindOf>;
  try {
    kind = kindOf(dir.path);
  } catch (error) {
    if (isTooLong(error)) throw tooLong(dir, 'there is no memory there');
    throw new InputError(`${dir.label}: cannot read ${dir.path}: ${describeFsError(error)}`);
  }
  if (kind === 'other') throw new InputError(`${dir.label}: ${dir.path} is a file, not a directory`);
  if (kind === 'missing' || kindOf(databasePath(dir.path)) !== 'other') {
    throw new InputError(`no memory in ${dir.path} (nothing has been stored there yet; check --data or $TEMPORA_DATA_DIR)`);
  }
}

/**
 * An error of opening the store in `path`, in words: read-only media and permissions are said as
 * such, and a path too long for SQLite as that (prepareForWrite refuses one before; SQLite gives
 * the same SQLITE_CANTOPEN for both).
 */
export function describeOpenError(error: unknown, readonly: boolean, path: string): string {
  const e = error as { code?: string; message?: string };
  if (!readonly && (e.code?.startsWith('SQLITE_READONLY') || e.code === 'EACCES' || e.code === 'EROFS')) {
    return 'it cannot be written here (read-only media, or no permission); commands that only read (facts, search, show, export) still work';
  }
  if (e.code === 'SQLITE_CANTOPEN' && tooLongForSqlite(path)) {
    return `its path is too long: the database there would be a path of ${Buffer.byteLength(databasePath(path))} bytes, and SQLite opens one of at most ${SQLITE_PATH_MAX_BYTES}`;
  }
  if (e.code === 'SQLITE_CANTOPEN') return 'cannot open its database file (no permission?)';
  return e.message ?? String(error);
}
