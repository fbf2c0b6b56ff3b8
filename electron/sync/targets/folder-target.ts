/**
 * A sync target in a folder: a plain directory, an external drive, or a folder the user keeps in
 * Syncthing, Dropbox, iCloud Drive or OneDrive. A put is atomic: the bytes go to a temporary name in
 * the same folder (one the name rule never allows, so no list shows it), are flushed to the disk,
 * and the temporary is renamed over the name. A list skips those temporaries and what sync services
 * leave beside our files: Syncthing's "*.sync-conflict-*" copies and ".syncthing.*" partials,
 * Office's "~$*" locks, Dropbox's "(conflicted copy)" names, iCloud's ".*.icloud" placeholders.
 * A temporary left by a put whose process was killed is removed by a later put into its folder,
 * once it is an hour old.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { checkSyncFileName, checkSyncPrefix, isSyncFileName, type SyncTarget, SyncTargetError, type SyncTargetFile } from '../sync-target';

/** A file a sync service or another program left beside ours: never listed. */
const FOREIGN = [/\.sync-conflict-/, /^\.syncthing\./, /^~\$/, /\.icloud$/];
const TEMPORARY_PREFIX = '~tempora-';
/** A temporary this old is a put's that never finished (its process killed): the next put into its folder removes it. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

export interface FolderTargetOptions {
  /** Test seam: runs after the temporary is written and flushed, before the rename (a crash there). */
  beforeRename?: (temporaryPath: string) => Promise<void>;
}

export function createFolderTarget(root: string, options: FolderTargetOptions = {}): SyncTarget {
  const describe = `the folder ${root}`;
  const pathOf = (name: string) => join(root, ...name.split('/'));
  /** Folders whose stale temporaries this target has removed (once each). */
  const swept = new Set<string>();


  async function walk(folder: string, relative: string, prefix: string, into: SyncTargetFile[]): Promise<void> {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && relative !== '') return; // removed while listed
      throw inWords(error, root, folder);
    }
    for (const entry of entries) {
      if (entry.name.startsWith(TEMPORARY_PREFIX) || FOREIGN.some((pattern) => pattern.test(entry.name))) continue;
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (!isSyncFileName(name)) continue;
      if (entry.isDirectory()) {
        // Only folders that can hold a name with the prefix are read.
        if (prefix.startsWith(`${name}/`) || `${name}/`.startsWith(prefix)) await walk(join(folder, entry.name), name, prefix, into);
      } else if (entry.isFile() && name.startsWith(prefix)) {
        try {
          into.push({ name, size: (await stat(join(folder, entry.name))).size });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw inWords(error, root, name);
        }
      }
    }
  }

  return {
    describe,
    async list(prefix) {
      checkSyncPrefix(prefix, describe);
      await checkSyncFolder(root);
      const files: SyncTargetFile[] = [];
      await walk(root, '', prefix, files);
      return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async get(name) {
      checkSyncFileName(name, describe);
      try {
        return new Uint8Array(await readFile(pathOf(name)));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') {
          await checkSyncFolder(root);
          throw new SyncTargetError('missing', `The file ${name} is not in ${describe}.`);
        }
        throw inWords(error, root, name);
      }
    },
    async put(name, bytes) {
      checkSyncFileName(name, describe);
      await checkSyncFolder(root);
      const path = pathOf(name);
      const temporary = join(dirname(path), `${TEMPORARY_PREFIX}${randomBytes(8).toString('hex')}`);
      try {
        await mkdir(dirname(path), { recursive: true });
        const handle = await open(temporary, 'wx', 0o600);
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await options.beforeRename?.(temporary);
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => undefined);
        if (error instanceof SyncTargetError) throw error;
        throw inWords(error, root, name);
      }
      await syncFolder(dirname(path));
      if (!swept.has(dirname(path))) {
        swept.add(dirname(path));
        await removeStaleTemporaries(dirname(path));
      }
    },
    async remove(name) {
      checkSyncFileName(name, describe);
      try {
        await unlink(pathOf(name));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return;
        throw inWords(error, root, name);
      }
    },
  };
}

/**
 * Whether a folder about to be set up as a target is there: 'there' (or something else is, which the
 * target itself will name), 'missing' when only it is not (the folder it goes in is), 'parent-missing'
 * when the folder it goes in is not there either.
 */
export async function folderStanding(root: string): Promise<'there' | 'missing' | 'parent-missing'> {
  if (!(await absent(root))) return 'there';
  return (await absent(dirname(root))) ? 'parent-missing' : 'missing';
}

/** "The folder ROOT is not there, nor the one it goes in": the one sentence for both faces. */
export function parentMissingWords(root: string): string {
  return `The sync folder ${root} is not there, nor the folder it would go in, ${dirname(root)} (is its drive connected?).`;
}

/**
 * Creates the sync folder `root` the user named: that one folder, in a folder that is there, never
 * the folders above it (one missing too is most often a drive not connected, or a typing slip, and
 * creating it would sync to the wrong disk). One step (mkdir, not recursive), so a folder that
 * appears after a check that it was missing (another device's Syncthing or Dropbox made it) is
 * never clobbered: 'created' when this call made it (a refused save may take it back), 'there'
 * when a folder was there by then (left as it is: it may hold another device's key check). A file
 * there is refused in words naming it, and left as it is.
 */
export async function createSyncFolder(root: string): Promise<'created' | 'there'> {
  try {
    await mkdir(root);
    return 'created';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new SyncTargetError('unreachable', parentMissingWords(root));
    if (code !== 'EEXIST') throw inWords(error, root, root);
  }
  await checkSyncFolder(root);
  return 'there';
}

/** The sync folder is there and is a folder, or a SyncTargetError in words naming it. */
async function checkSyncFolder(root: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(root)).isDirectory();
  } catch (error) {
    throw inWords(error, root, root);
  }
  if (!isDirectory) throw new SyncTargetError('unreachable', `The sync folder ${root} is a file, not a folder.`);
}

/** Takes back a sync folder createSyncFolder made in a save that was then refused: only while nothing but `left` is in it. */
export async function removeCreatedSyncFolder(root: string, left: readonly string[]): Promise<void> {
  try {
    for (const name of await readdir(root)) {
      if (!left.includes(name)) return;
    }
    for (const name of left) await rm(join(root, name), { force: true });
    await rmdir(root);
  } catch {
    // A folder that cannot be taken back is left, empty or holding only the key check: harmless.
  }
}

async function absent(path: string): Promise<boolean> {
  try {
    await stat(path);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Removes what puts killed mid-write left in `folder` (never one a put may still be writing); a failure is not the put's. */
async function removeStaleTemporaries(folder: string): Promise<void> {
  try {
    for (const name of await readdir(folder)) {
      if (!name.startsWith(TEMPORARY_PREFIX)) continue;
      const path = join(folder, name);
      if (Date.now() - (await stat(path)).mtimeMs > STALE_TEMPORARY_MS) await rm(path, { force: true });
    }
  } catch {
    // Another device's sync may remove it first; a folder we cannot read or clean is left as it was.
  }
}

/** The rename itself reaches the disk (POSIX); where a folder cannot be opened (Windows) it is skipped. */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // A file system that cannot flush a folder still has the file renamed.
  }
}

/** A folder's failure in a sentence that names the sync folder (`root`) and the file (`what`). */
function inWords(error: unknown, root: string, what: string): SyncTargetError {
  const code = (error as NodeJS.ErrnoException).code;
  const shown = what.split(sep).join('/');
  switch (code) {
    case 'ENOENT':
      return new SyncTargetError('unreachable', `The sync folder ${root} is not there (is its drive connected?).`);
    case 'EACCES':
    case 'EPERM':
      return new SyncTargetError('denied', `Tempora may not read or write ${shown} in the sync folder ${root}.`);
    case 'ENOSPC':
    case 'EDQUOT':
      return new SyncTargetError('unreachable', `The disk holding the sync folder ${root} is full: ${shown} was not written.`);
    case 'EROFS':
      return new SyncTargetError('denied', `The sync folder ${root} is read-only: ${shown} was not written.`);
    default:
      return new SyncTargetError('unreachable', `The sync folder ${root} failed on ${shown}: ${(error as Error).message}`);
  }
}
