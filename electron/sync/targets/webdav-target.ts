/**
 * A sync target on a WebDAV server (Nextcloud, ownCloud, a NAS, Apache mod_dav), through the
 * `webdav` package. A PUT stores a file whole; the folders above a name are made first (MKCOL,
 * parent by parent), since WebDAV will not make them. A list walks the folders one level at a time
 * (Depth: 1), as servers that refuse Depth: infinity (Nextcloud by default) require. The password
 * never appears in a message or in `describe`.
 */
import { createClient, type FileStat, type WebDAVClient } from 'webdav';
import { checkSyncFileName, checkSyncPrefix, isSyncFileName, type SyncTarget, SyncTargetError, type SyncTargetFile } from '../sync-target';

export interface WebdavTargetConfig {
  url: string;
  username?: string;
  password?: string;
}

export function createWebdavTarget(config: WebdavTargetConfig): SyncTarget {
  const shownUrl = withoutCredentials(config.url);
  const describe = `WebDAV at ${shownUrl}`;
  const client: WebDAVClient = createClient(config.url, {
    ...(config.username !== undefined ? { username: config.username } : {}),
    ...(config.password !== undefined ? { password: config.password } : {}),
  });
  const madeFolders = new Set<string>();

  async function ensureFolders(name: string): Promise<void> {
    const parts = name.split('/').slice(0, -1);
    for (let index = 1; index <= parts.length; index += 1) {
      const folder = `/${parts.slice(0, index).join('/')}`;
      if (madeFolders.has(folder)) continue;
      try {
        await client.createDirectory(folder);
      } catch (error) {
        // 405: the folder is there already (RFC 4918 9.3.1); some servers answer 301 or 409 for it.
        const status = statusOf(error);
        if (status !== 405 && !(status === 301 && (await isFolder(folder)))) throw inWords(error, describe, folder.slice(1));
      }
      madeFolders.add(folder);
    }
  }

  async function isFolder(folder: string): Promise<boolean> {
    try {
      return ((await client.stat(folder)) as FileStat).type === 'directory';
    } catch {
      return false;
    }
  }

  async function walk(folder: string, prefix: string, into: SyncTargetFile[]): Promise<void> {
    let entries: FileStat[];
    try {
      entries = await client.getDirectoryContents(folder);
    } catch (error) {
      if (statusOf(error) === 404 && folder !== '/') return;
      throw inWords(error, describe, folder === '/' ? '' : folder.slice(1));
    }
    for (const entry of entries) {
      const name = entry.filename.replace(/^\/+/, '').replace(/\/+$/, '');
      if (name === '' || !isSyncFileName(name) || `/${name}` === folder) continue;
      if (entry.type === 'directory') {
        if (prefix.startsWith(`${name}/`) || `${name}/`.startsWith(prefix)) await walk(`/${name}`, prefix, into);
      } else if (name.startsWith(prefix)) {
        into.push({ name, size: entry.size });
      }
    }
  }

  return {
    describe,
    async list(prefix) {
      checkSyncPrefix(prefix, describe);
      const files: SyncTargetFile[] = [];
      await walk('/', prefix, files);
      return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async get(name) {
      checkSyncFileName(name, describe);
      try {
        const body = await client.getFileContents(`/${name}`, { format: 'binary' });
        return new Uint8Array(body as ArrayBuffer);
      } catch (error) {
        if (statusOf(error) === 404) throw new SyncTargetError('missing', `The file ${name} is not in ${describe}.`);
        throw inWords(error, describe, name);
      }
    },
    async put(name, bytes) {
      checkSyncFileName(name, describe);
      await ensureFolders(name);
      try {
        await client.putFileContents(`/${name}`, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { overwrite: true });
      } catch (error) {
        if (statusOf(error) === 409) madeFolders.clear(); // a folder went away under us: made again next time
        throw inWords(error, describe, name);
      }
    },
    async remove(name) {
      checkSyncFileName(name, describe);
      try {
        await client.deleteFile(`/${name}`);
      } catch (error) {
        if (statusOf(error) === 404) return;
        throw inWords(error, describe, name);
      }
    },
  };
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/** The URL as shown to the user: any user:password@ taken out. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

function inWords(error: unknown, describe: string, name: string): SyncTargetError {
  const status = statusOf(error);
  const file = name === '' ? '' : ` (${name})`;
  if (status === 401) return new SyncTargetError('denied', `${describe} did not accept the user name and password${file}.`);
  if (status === 403) return new SyncTargetError('denied', `${describe} does not allow Tempora to write there${file}.`);
  // 409 Conflict: the collection a file goes in is not there (the address names a folder the server lacks).
  if (status === 409) return new SyncTargetError('unreachable', `${describe} has no such folder${file}: create it on the server, or check the address.`);
  if (status === 507) return new SyncTargetError('unreachable', `${describe} is full: the server has no room for ${name || 'the file'}.`);
  if (status !== undefined) return new SyncTargetError('unreachable', `${describe} answered ${status}${file}.`);
  const cause = (error as { cause?: { code?: string } }).cause;
  const code = cause?.code ?? (error as NodeJS.ErrnoException).code;
  const why = code === 'ENOTFOUND' ? 'its host name is not known' : code === 'ECONNREFUSED' ? 'nothing answers at that address' : 'it cannot be reached';
  return new SyncTargetError('unreachable', `${describe} cannot be reached: ${why}${file}.`);
}
