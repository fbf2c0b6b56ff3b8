/**
 * One contract, three sync targets: a folder, WebDAV (webdav-server v2 on a loopback port) and S3
 * (s3rver in a temporary folder), each server started and stopped here, no network. Every target
 * stores whole files under the interface's names: put/get, replace, list by prefix in name order,
 * remove, a missing file, a bad name refused before anything is written. Then what only one kind
 * has: a folder put cut off before its rename leaves no visible file, and what sync services leave
 * in a folder is never listed; WebDAV's 401 and an unreachable server in words; S3's list in pages.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver ships no types; its constructor and run()/close() are all this test uses.
// @ts-expect-error -- untyped package
import S3rver from 's3rver';
import { v2 as webdav } from 'webdav-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncTargetError, type SyncTarget } from '../../electron/sync/sync-target';
import { createFolderTarget } from '../../electron/sync/targets/folder-target';
import { openSyncTarget } from '../../electron/sync/targets/open-sync-target';
import { createS3Target } from '../../electron/sync/targets/s3-target';
import { createWebdavTarget } from '../../electron/sync/targets/webdav-target';

const temporary = mkdtempSync(join(tmpdir(), 'tempora-sync-targets-'));
let webdavServer: webdav.WebDAVServer;
let webdavUrl = '';
let s3: { close(): Promise<void>; run(): Promise<AddressInfo> };
let s3Endpoint = '';
let counter = 0;
const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

beforeAll(async () => {
  const users = new webdav.SimpleUserManager();
  const user = users.addUser('alice', 'right-password', false);
  const privileges = new webdav.SimplePathPrivilegeManager();
  privileges.setRights(user, '/', ['all']);
  webdavServer = new webdav.WebDAVServer({
    port: 0,
    hostname: '127.0.0.1',
    httpAuthentication: new webdav.HTTPBasicAuthentication(users, 'tempora-test'),
    privilegeManager: privileges,
  });
  const server = await new Promise<import('node:http').Server | undefined>((resolve) => webdavServer.start((started) => resolve(started)));
  webdavUrl = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;

  const s3Dir = join(temporary, 's3');
  mkdirSync(s3Dir);
  s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'tempora-test' }] });
  const address = await s3.run();
  s3Endpoint = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => webdavServer.stop(() => resolve()));
  await s3.close();
  rmSync(temporary, { recursive: true, force: true });
});

/** A fresh, empty target of each kind, so no test sees another's files. */
const kinds: Record<string, () => Promise<SyncTarget>> = {
  folder: async () => {
    const root = join(temporary, `folder-${(counter += 1)}`);
    mkdirSync(root);
    return createFolderTarget(root);
  },
  webdav: async () => {
    const base = `${webdavUrl}/t${(counter += 1)}`;
    await fetch(base, { method: 'MKCOL', headers: { authorization: `Basic ${Buffer.from('alice:right-password').toString('base64')}` } });
    return createWebdavTarget({ url: base, username: 'alice', password: 'right-password' });
  },
  s3: async () =>
    createS3Target({
      endpoint: s3Endpoint,
      region: 'us-east-1',
      bucket: 'tempora-test',
      prefix: `t${(counter += 1)}`,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
      pageSize: 2,
    }),
};

async function refusal(promise: Promise<unknown>): Promise<SyncTargetError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SyncTargetError);
  return error as SyncTargetError;
}

describe.each(Object.keys(kinds))('the %s target', (kind) => {
  const make = () => kinds[kind]!();

  it('gives back what was put, byte for byte, an empty file and a zero byte included', async () => {
    const target = await make();
    const binary = Uint8Array.from({ length: 70_000 }, (_, index) => (index * 31) % 256);
    await target.put('devices/d1/segments/000001', binary);
    await target.put('keycheck', new Uint8Array());
    expect(Buffer.from(await target.get('devices/d1/segments/000001')).equals(Buffer.from(binary))).toBe(true);
    expect((await target.get('keycheck')).byteLength).toBe(0);
    expect(await target.list('')).toEqual([
      { name: 'devices/d1/segments/000001', size: 70_000 },
      { name: 'keycheck', size: 0 },
    ]);
  });

  it('replaces a file put again under its name, leaving one file', async () => {
    const target = await make();
    await target.put('devices/d1/head', bytes('first, longer'));
    await target.put('devices/d1/head', bytes('second'));
    expect(text(await target.get('devices/d1/head'))).toBe('second');
    expect(await target.list('devices/')).toEqual([{ name: 'devices/d1/head', size: 6 }]);
  });

  it('lists by prefix, in byte order of the names, folders and a prefix inside a name alike', async () => {
    const target = await make();
    for (const name of ['devices/b/s/9', 'devices/a/s/10', 'devices/a/s/9', 'devices/a/s/A', 'devices/a/s/a-1', 'devices/a/s/a.1', 'devices/a/t', 'keycheck'])
      await target.put(name, bytes(name));
    const names = async (prefix: string) => (await target.list(prefix)).map((file) => file.name);
    expect(await names('devices/a/s/')).toEqual(['devices/a/s/10', 'devices/a/s/9', 'devices/a/s/A', 'devices/a/s/a-1', 'devices/a/s/a.1']);
    expect(await names('devices/a/s/a')).toEqual(['devices/a/s/a-1', 'devices/a/s/a.1']);
    expect(await names('devices/a')).toEqual(['devices/a/s/10', 'devices/a/s/9', 'devices/a/s/A', 'devices/a/s/a-1', 'devices/a/s/a.1', 'devices/a/t']);
    expect(await names('')).toHaveLength(8);
    expect((await names('')).at(-1)).toBe('keycheck');
    expect(await names('devices/c/')).toEqual([]);
  });

  it('removes a file, and removing one that is gone is no error', async () => {
    const target = await make();
    await target.put('devices/d1/segments/000001', bytes('x'));
    await target.put('devices/d1/segments/000002', bytes('y'));
    await target.remove('devices/d1/segments/000001');
    await target.remove('devices/d1/segments/000001');
    await target.remove('never/was');
    expect(await target.list('devices/')).toEqual([{ name: 'devices/d1/segments/000002', size: 1 }]);
    expect((await refusal(target.get('devices/d1/segments/000001'))).kind).toBe('missing');
  });

  it('says a missing file is missing, naming it', async () => {
    const target = await make();
    const error = await refusal(target.get('devices/nobody/head'));
    expect(error.kind).toBe('missing');
    expect(error.message).toContain('devices/nobody/head');
  });

  it('refuses a name outside the rule before it writes anything', async () => {
    const target = await make();
    for (const name of ['../escape', '/absolute', 'a//b', 'devices/.hidden', 'space here', '', 'a/', 'ünï']) {
      const error = await refusal(target.put(name, bytes('no')));
      expect(error.kind).toBe('invalid');
      expect(error.message).toMatch(/is not allowed on/);
    }
    expect((await refusal(target.list('../'))).kind).toBe('invalid');
    expect(await target.list('')).toEqual([]);
  });
});

describe('the folder target', () => {
  it('leaves no visible file when a put is cut off before its rename, and the next put stores it whole', async () => {
    const root = join(temporary, 'interrupted');
    mkdirSync(root);
    let temporaryPath = '';
    const crashing = createFolderTarget(root, {
      beforeRename: async (path) => {
        temporaryPath = path;
        throw new Error('power lost');
      },
    });
    await expect(crashing.put('devices/d1/segments/000001', bytes('whole'))).rejects.toThrow();
    expect(temporaryPath).not.toBe('');
    const target = createFolderTarget(root);
    expect(await target.list('')).toEqual([]);
    expect((await refusal(target.get('devices/d1/segments/000001'))).kind).toBe('missing');
    // A crash that kills the process leaves the temporary behind: it is never listed either.
    writeFileSync(temporaryPath, 'half a fi');
    expect(await target.list('')).toEqual([]);
    await target.put('devices/d1/segments/000001', bytes('whole'));
    expect(text(await target.get('devices/d1/segments/000001'))).toBe('whole');
    // That put was at once: a temporary so young may be another put's, and stays.
    expect(existsSync(temporaryPath)).toBe(true);
  });

  it('removes a temporary a killed put left, once it is an hour old, at the next put into its folder', async () => {
    const root = join(temporary, 'killed');
    const folder = join(root, 'devices', 'd1', 'segments');
    mkdirSync(folder, { recursive: true });
    const [old, young, other] = [join(folder, '~tempora-0123456789abcdef'), join(folder, '~tempora-fedcba9876543210'), join(folder, '~notours')];
    for (const path of [old, young, other]) writeFileSync(path, 'half a fi');
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    utimesSync(old, hoursAgo(2), hoursAgo(2));
    utimesSync(other, hoursAgo(2), hoursAgo(2));
    utimesSync(young, hoursAgo(0.5), hoursAgo(0.5));
    const target = createFolderTarget(root);
    await target.put('devices/d1/segments/000002', bytes('whole'));
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(text(await target.get('devices/d1/segments/000002'))).toBe('whole');
  });

  it('never lists what sync services and other programs leave beside its files', async () => {
    const root = join(temporary, 'services');
    const folder = join(root, 'devices', 'd1');
    mkdirSync(folder, { recursive: true });
    const target = createFolderTarget(root);
    await target.put('devices/d1/head', bytes('ours'));
    for (const name of ['head.sync-conflict-20260901-101010-ABCDEFG', '.syncthing.head.tmp', '~$head', 'head (conflicted copy 2026-09-01)', '.head.icloud', '.DS_Store'])
      writeFileSync(join(folder, name), 'theirs');
    mkdirSync(join(root, '.stfolder'));
    writeFileSync(join(root, '.stfolder', 'x'), '');
    expect(await target.list('')).toEqual([{ name: 'devices/d1/head', size: 4 }]);
    expect(readdirSync(folder)).toHaveLength(7);
  });

  it('says a folder that is not there is unreachable, and writes nothing', async () => {
    const target = createFolderTarget(join(temporary, 'unplugged-drive'));
    const error = await refusal(target.put('keycheck', bytes('x')));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`The sync folder ${join(temporary, 'unplugged-drive')} is not there (is its drive connected?).`);
    expect((await refusal(target.list(''))).kind).toBe('unreachable');
  });
});

describe('the WebDAV target', () => {
  it('says a wrong password in words, without the password', async () => {
    const target = createWebdavTarget({ url: webdavUrl, username: 'alice', password: 'wrong-secret' });
    const error = await refusal(target.put('keycheck', bytes('x')));
    expect(error.kind).toBe('denied');
    expect(error.message).toBe(`WebDAV at ${webdavUrl}/ did not accept the user name and password (keycheck).`);
    expect(error.message).not.toContain('wrong-secret');
  });

  it('says a folder that is not on the server in words', async () => {
    const target = createWebdavTarget({ url: `${webdavUrl}/nope/deeper`, username: 'alice', password: 'right-password' });
    const error = await refusal(target.put('keycheck', bytes('x')));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`WebDAV at ${webdavUrl}/nope/deeper has no such folder (keycheck): create it on the server, or check the address.`);
  });

  it('says an unreachable server in words', async () => {
    const port = await closedPort();
    const target = createWebdavTarget({ url: `http://127.0.0.1:${port}/dav`, username: 'alice', password: 'p' });
    const error = await refusal(target.list(''));
    expect(error.kind).toBe('unreachable');
    expect(error.message).toBe(`WebDAV at http://127.0.0.1:${port}/dav cannot be reached: nothing answers at that address.`);
  });
});

describe('the S3 target', () => {
  it('reads a list of more files than a page, page by page, in name order', async () => {
    const target = await kinds.s3!();
    const names = Array.from({ length: 7 }, (_, index) => `devices/d1/segments/${String(7 - index).padStart(6, '0')}`);
    for (const name of names) await target.put(name, bytes(name));
    expect((await target.list('devices/d1/')).map((file) => file.name)).toEqual([...names].reverse());
  });

  it('keeps to its prefix: another prefix in the same bucket is not listed', async () => {
    const one = await kinds.s3!();
    const two = await kinds.s3!();
    await one.put('keycheck', bytes('one'));
    await two.put('keycheck', bytes('two'));
    expect(await one.list('')).toEqual([{ name: 'keycheck', size: 3 }]);
    expect(text(await two.get('keycheck'))).toBe('two');
  });
});

describe('openSyncTarget', () => {
  it('opens each kind from its config, and refuses a bad config in one sentence naming the field', async () => {
    const root = join(temporary, 'opened');
    mkdirSync(root);
    expect(openSyncTarget({ kind: 'folder', path: root }).describe).toBe(`the folder ${root}`);
    expect(openSyncTarget({ kind: 'webdav', url: 'https://cloud.example/remote.php/dav/files/me/tempora', username: 'me', password: 'p' }).describe).toBe(
      'WebDAV at https://cloud.example/remote.php/dav/files/me/tempora',
    );
    const s3Target = openSyncTarget({ kind: 's3', endpoint: s3Endpoint, bucket: 'tempora-test', prefix: 'opened/', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' });
    expect(s3Target.describe).toBe(`S3 bucket tempora-test/opened at ${s3Endpoint}`);
    await s3Target.put('keycheck', bytes('k'));
    expect(text(await s3Target.get('keycheck'))).toBe('k');

    const fault = (config: unknown) => {
      try {
        openSyncTarget(config);
        return null;
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(fault({ kind: 'ftp' })).toBe('The sync target must be a folder, WebDAV or S3.');
    expect(fault({ kind: 'folder', path: 'relative/path' })).toBe('The sync folder must be a full path (starting with / or a drive letter).');
    expect(fault({ kind: 'webdav', url: 'cloud.example' })).toBe('The WebDAV address must be a web address starting with https:// or http://.');
    expect(fault({ kind: 's3', bucket: 'Bad_Bucket', accessKeyId: 'a', secretAccessKey: 's' })).toBe(
      'The S3 bucket name must be 3 to 63 lower-case letters, digits, dots or dashes.',
    );
    expect(fault({ kind: 's3', bucket: 'ok-bucket', accessKeyId: 'a' })).toBe("The sync target's secretAccessKey is missing or not text.");
  });
});

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
