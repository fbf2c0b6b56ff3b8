/**
 * "Create the folder" for a folder sync target when something appears at that path between the check
 * that it is missing and the create: another device's Syncthing or Dropbox making the folder (with
 * its key check in it), or a file put there. The folder is made in one atomic step (mkdir, never
 * recursive); a folder there by then is used as it is and never taken back when the save is then
 * refused (it is not ours: taking it back would delete the other device's key check); a file there
 * is refused in words naming the path, and nothing changes. What appears is put there by the test
 * just before the create's mkdir runs, through a wrapper around node:fs/promises' mkdir.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { settingsSchema, type Settings } from '../../shared/settings-schema';
import { KEYCHECK_FILE, unlockTarget, WRONG_PASSPHRASE } from '../../electron/sync/sync-crypto';
import { SYNC_SECRETS_FILE, SyncSecretStore } from '../../electron/sync/sync-secrets';
import { SyncService, type SyncCore } from '../../electron/sync/sync-service';
import { createFolderTarget, createSyncFolder } from '../../electron/sync/targets/folder-target';

/** Runs once, just before mkdir is asked to make `path`: what appears there meanwhile. */
const appears = vi.hoisted(() => ({ at: null as string | null, put: null as null | ((path: string) => void) }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  const mkdir = ((path: Parameters<typeof actual.mkdir>[0], options?: Parameters<typeof actual.mkdir>[1]) => {
    if (appears.put !== null && String(path) === appears.at) {
      const put = appears.put;
      appears.put = null;
      put(String(path));
    }
    return actual.mkdir(path, options);
  }) as typeof actual.mkdir;
  return { ...actual, mkdir, default: { ...actual, mkdir } };
});

const temporary = mkdtempSync(join(tmpdir(), 'tempora-sync-folder-create-'));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));
afterEach(() => {
  appears.at = null;
  appears.put = null;
});

const PASSPHRASE = 'orange kettle seventeen';
const OTHER_PASSPHRASE = 'blue teapot forty-two';

function folder(name: string): string {
  const path = join(temporary, name);
  mkdirSync(path, { recursive: true });
  return path;
}

function settingsStore() {
  let settings: Settings = settingsSchema.parse({});
  return { read: () => settings, update: (patch: Partial<Settings>) => (settings = settingsSchema.parse({ ...settings, ...patch })) };
}

const core: SyncCore = {
  status: () => ({ lastSync: null, devices: [], unsent: 0, blocked: [] }),
  deviceName: () => 'Laptop',
  setDeviceName: () => undefined,
  run: async () => ({ sent: 0, applied: [], refused: [], waiting: [], startedOver: false, tookBack: 0 }),
};

/** A key check another device made with `passphrase`, as the file it put in its folder. */
async function keyCheckOf(passphrase: string, name: string): Promise<string> {
  const elsewhere = folder(name);
  await unlockTarget(createFolderTarget(elsewhere), passphrase);
  return join(elsewhere, KEYCHECK_FILE);
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'no refusal',
    (error: unknown) => (error as Error).message,
  );
}

describe('creating a folder sync target that appears meanwhile', () => {
  it('says whether it made the folder: one there by the create is left as it is', async () => {
    const named = join(folder('direct'), 'tempora');
    expect(await createSyncFolder(named)).toBe('created');
    writeFileSync(join(named, 'kept.txt'), 'another device’s');
    expect(await createSyncFolder(named)).toBe('there');

    // Made by another device between the check and the create.
    const raced = join(folder('direct-raced'), 'tempora');
    appears.at = raced;
    appears.put = (path) => {
      mkdirSync(path);
      writeFileSync(join(path, 'kept.txt'), 'another device’s');
    };
    expect(await createSyncFolder(raced)).toBe('there');
    expect(appears.put).toBeNull();
    expect(readFileSync(join(raced, 'kept.txt'), 'utf8')).toBe('another device’s');
  });

  it('refuses a file at that path in words naming it, and leaves the file as it was', async () => {
    const named = join(folder('direct-file'), 'tempora');
    appears.at = named;
    appears.put = (path) => writeFileSync(path, 'notes');
    expect(await refusal(createSyncFolder(named))).toBe(`The sync folder ${named} is a file, not a folder.`);
    expect(readFileSync(named, 'utf8')).toBe('notes');
  });

  it('uses a folder another device made meanwhile, and never takes it back when the save is then refused', async () => {
    const settings = settingsStore();
    const dataDir = folder('data-raced');
    const service = new SyncService(settings, new SyncSecretStore(dataDir), () => core);
    const named = join(folder('drive-raced'), 'tempora');
    const theirs = await keyCheckOf(OTHER_PASSPHRASE, 'other-device');
    // Checked: not there yet, so the screen offers to create it.
    expect(await refusal(service.save({ target: { kind: 'folder', path: named }, passphrase: PASSPHRASE, deviceName: 'Laptop' }))).toBe(`The sync folder ${named} is not there yet.`);

    // "Create the folder", and the other device's sync service makes it (its key check in it) just before.
    appears.at = named;
    appears.put = (path) => {
      mkdirSync(path);
      copyFileSync(theirs, join(path, KEYCHECK_FILE));
    };
    expect(await refusal(service.save({ target: { kind: 'folder', path: named }, passphrase: PASSPHRASE, deviceName: 'Laptop', createFolder: true }))).toBe(WRONG_PASSPHRASE);
    expect(appears.put).toBeNull();
    // Refused for its passphrase: the other device's folder and key check are as they were, nothing kept here.
    expect(readdirSync(named)).toEqual([KEYCHECK_FILE]);
    expect(readFileSync(join(named, KEYCHECK_FILE)).equals(readFileSync(theirs))).toBe(true);
    expect(settings.read().syncTarget).toBeNull();
    expect(existsSync(join(dataDir, SYNC_SECRETS_FILE))).toBe(false);

    // With the passphrase the other devices sync with: kept, their key check unchanged.
    await service.save({ target: { kind: 'folder', path: named }, passphrase: OTHER_PASSPHRASE, deviceName: 'Laptop', createFolder: true });
    expect(settings.read().syncTarget).toEqual({ kind: 'folder', path: named });
    expect(readFileSync(join(named, KEYCHECK_FILE)).equals(readFileSync(theirs))).toBe(true);
  });

  it('refuses a file put at that path meanwhile in words naming it, and changes nothing', async () => {
    const settings = settingsStore();
    const dataDir = folder('data-file');
    const service = new SyncService(settings, new SyncSecretStore(dataDir), () => core);
    const named = join(folder('drive-file'), 'tempora');
    appears.at = named;
    appears.put = (path) => writeFileSync(path, 'notes');
    expect(await refusal(service.save({ target: { kind: 'folder', path: named }, passphrase: PASSPHRASE, deviceName: 'Laptop', createFolder: true }))).toBe(
      `The sync folder ${named} is a file, not a folder.`,
    );
    expect(appears.put).toBeNull();
    expect(readFileSync(named, 'utf8')).toBe('notes');
    expect(settings.read().syncTarget).toBeNull();
    expect(existsSync(join(dataDir, SYNC_SECRETS_FILE))).toBe(false);
  });
});
