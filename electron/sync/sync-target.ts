/**
 * Where synced memory lives between the user's devices: storage the user already has (a folder kept
 * in Syncthing, Dropbox, iCloud Drive or OneDrive; WebDAV; S3-compatible object storage), never a
 * server of ours. A target only stores named, immutable blobs (already encrypted by sync-crypto.ts):
 * devices write their own files and never rewrite another's, so a target needs no locking.
 *
 * Names are relative, '/'-separated, of [A-Za-z0-9._-] parts (e.g. "devices/4f1c…/segments/000012-…").
 */
export interface SyncTargetFile {
  name: string;
  size: number;
}

export interface SyncTarget {
  /** Words for the user: "the folder /home/me/Sync/tempora", "WebDAV at https://…". */
  readonly describe: string;
  /** Every file whose name starts with `prefix` ('' for all), in name order. */
  list(prefix: string): Promise<SyncTargetFile[]>;
  /** The whole file; a SyncTargetError (kind 'missing') when there is none. */
  get(name: string): Promise<Uint8Array>;
  /**
   * Stores the file whole or not at all: a reader never sees half a file (a folder writes a temporary
   * name and renames; WebDAV and S3 puts are whole). Writing an existing name replaces it.
   */
  put(name: string, bytes: Uint8Array): Promise<void>;
  /** Removes the file; no error when it is already gone. */
  remove(name: string): Promise<void>;
}

/**
 * The name rule every target checks before it touches storage: relative, '/'-separated parts of
 * [A-Za-z0-9._-], none empty and none starting with '.' (so no '.', '..' or hidden file a sync
 * service or an OS keeps beside ours), at most 512 characters. Throws a SyncTargetError ('invalid').
 */
export function checkSyncFileName(name: string, where: string): void {
  if (!isSyncFileName(name)) {
    throw new SyncTargetError(
      'invalid',
      `The sync file name ${JSON.stringify(name.slice(0, 80))} is not allowed on ${where}: names are '/'-separated parts of letters, digits, '.', '_' and '-', none starting with '.'.`,
    );
  }
}

/** Whether a name follows checkSyncFileName's rule: a listing passes over files that do not (another program's). */
export function isSyncFileName(name: string): boolean {
  const part = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
  return name.length > 0 && name.length <= 512 && name.split('/').every((p) => part.test(p));
}

/** A prefix for list(): '' or a name's beginning, checked like a name but it may end with '/'. */
export function checkSyncPrefix(prefix: string, where: string): void {
  if (prefix === '') return;
  checkSyncFileName(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix, where);
}

/** A target's failure, in words that name the target and the file. */
export class SyncTargetError extends Error {
  constructor(
    readonly kind: 'missing' | 'unreachable' | 'denied' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'SyncTargetError';
  }
}
