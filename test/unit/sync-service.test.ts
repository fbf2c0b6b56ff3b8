/**
 * The sync service behind Settings → Sync, over a real folder target and the real secret store,
 * with a stand-in sync core: a saved target and passphrase give the core a cipher that opens what
 * another device with the same passphrase sealed; "Sync now" says what happened in one sentence;
 * not set up, paused, another target without the passphrase, no sync core: each one sentence, and
 * nothing kept changes. A WebDAV password (webdav-server on loopback) is kept apart, never shown
 * back, and used again when the field is left empty.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { v2 as webdav } from 'webdav-server';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { settingsSchema, type Settings } from '../../shared/settings-schema';
import { cipherFromKey, keyFromKeyCheck, KEYCHECK_FILE } from '../../electron/sync/sync-crypto';
import { SYNC_SECRETS_FILE, SyncSecretStore } from '../../electron/sync/sync-secrets';
import { SyncService, type SyncCore } from '../../electron/sync/sync-service';
import { createFolderTarget } from '../../electron/sync/targets/folder-target';
import { openMemory, steppingClock } from '../../electron/memory/index';
import { SYNC_FOLDER_MISSING, syncNowResponse, syncState } from '../../shared/sync-contract';
import { databaseOf } from '../../electron/memory/memory';
import { syncCoreOf } from '../../electron/engine/sync-handlers';
import { syncOnce } from '../../electron/sync/sync-runner';
import { unlockTarget } from '../../electron/sync/sync-crypto';
import type { IsoTime } from '../../shared/time';
import { temporaProcess } from '../integration/cli-helpers';

const temporary = mkdtempSync(join(tmpdir(), 'tempora-sync-service-'));
afterAll(() => rmSync(temporary, { recursive: true, force: true }));
const PASSPHRASE = 'orange kettle seventeen';

function settingsStore() {
  let settings: Settings = settingsSchema.parse({});
  return { read: () => settings, update: (patch: Partial<Settings>) => (settings = settingsSchema.parse({ ...settings, ...patch })) };
}

type Report = Awaited<ReturnType<SyncCore['run']>>;

function fakeCore(said: Partial<Pick<Report, 'refused' | 'waiting' | 'startedOver' | 'tookBack'>> = {}, blocked: ReturnType<SyncCore['status']>['blocked'] = []) {
  const calls: { names: string[] } = { names: [] };
  let lastSync: IsoTime | null = null;
  const core: SyncCore = {
    status: () => ({ lastSync, devices: [{ id: 'd2', name: 'Desktop', appliedAt: '2026-09-01T01:00:00.000Z' }], unsent: 0, blocked }),
    deviceName: () => calls.names.at(-1) ?? 'this computer',
    setDeviceName: (name) => calls.names.push(name),
    run: async (target, cipher) => {
      // What another device with the same passphrase wrote opens with this device's cipher.
      const other = cipherFromKey(await keyFromKeyCheck(PASSPHRASE, await target.get(KEYCHECK_FILE)));
      await target.put('devices/d2/segments/00000001-aa', other.seal('devices/d2/segments/00000001-aa', new TextEncoder().encode('five records')));
      const opened = cipher.open('devices/d2/segments/00000001-aa', await target.get('devices/d2/segments/00000001-aa'));
      lastSync = '2026-09-01T02:00:00.000Z';
      return { sent: 2, applied: [{ device: 'd2', records: new TextDecoder().decode(opened) === 'five records' ? 5 : 0 }], refused: [], waiting: [], startedOver: false, tookBack: 0, ...said };
    },
  };
  return { core, calls };
}

function folder(name: string): string {
  const path = join(temporary, name);
  mkdirSync(path, { recursive: true });
  return path;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'no refusal',
    (error: unknown) => (error as Error).message,
  );
}

describe('the sync service', () => {
  it('refuses at first contact a name another device on the target has, keeping nothing', async () => {
    const path = folder('target-names');
    // A desktop named "Desk" has synced there.
    const desk = openMemory({ dataDir: folder('desk') });
    const target = createFolderTarget(path);
    desk.sync.setDeviceName('Desk');
    await syncOnce(desk.sync, target, cipherFromKey(await unlockTarget(target, PASSPHRASE)));
    desk.close();
    // A new laptop, which has applied nothing of the desktop's, is set up there as "desk ".
    const laptop = openMemory({ dataDir: folder('laptop') });
    try {
      const settings = settingsStore();
      const service = new SyncService(settings, new SyncSecretStore(folder('laptop-secrets')), () => syncCoreOf(laptop));
      const said = await refusal(service.save({ target: { kind: 'folder', path }, passphrase: PASSPHRASE, deviceName: 'desk ' }));
      expect(said).toBe('Another device that syncs with this memory is already named “Desk”: give this one a name of its own.');
      expect(settings.read().syncTarget).toBeNull();
      expect(laptop.sync.known().name).not.toBe('desk');
      // Another name is kept.
      expect(await service.save({ target: { kind: 'folder', path }, passphrase: PASSPHRASE, deviceName: 'Laptop' })).toMatchObject({ deviceName: 'Laptop' });
      expect(laptop.sync.known().name).toBe('Laptop');
    } finally {
      laptop.close();
    }
  });

  it('keeps one name for this device: a name the command gave is the one Settings → Sync shows and syncs, sending nothing more', async () => {
    vi.stubEnv('TEMPORA_TZ', 'Asia/Tokyo');
    const path = folder('target-one-name');
    const dataDir = folder('one-name');
    const secrets = new SyncSecretStore(folder('one-name-secrets'));
    const ownSegments = (id: string) => readdirSync(join(path, 'devices', id, 'segments'));
    const laptop = openMemory({ dataDir });
    const service = new SyncService(laptop.settings, secrets, () => syncCoreOf(laptop));
    await service.save({ target: { kind: 'folder', path }, passphrase: PASSPHRASE, deviceName: 'Laptop' });
    await service.syncNow();
    const id = laptop.sync.known().id!;
    laptop.close();
    // `tempora sync --name` on the same memory renames it: one segment of no records carries the name.
    const renamed = await temporaProcess(['sync', '--folder', path, '--data', dataDir, '--name', 'Desk'], { TEMPORA_SYNC_PASSPHRASE: PASSPHRASE });
    expect(renamed.code, renamed.stderr).toBe(0);
    const sent = ownSegments(id);
    const again = openMemory({ dataDir });
    try {
      const app = new SyncService(again.settings, secrets, () => syncCoreOf(again));
      await app.syncNow();
      await app.syncNow();
      expect(ownSegments(id)).toEqual(sent);
      expect(app.state().deviceName).toBe('Desk');
      expect(again.sync.known().name).toBe('Desk');
      // And a name saved in Settings → Sync is the one the command syncs under.
      await app.save({ target: { kind: 'folder', path }, deviceName: 'Study' });
    } finally {
      again.close();
    }
    const status = await temporaProcess(['sync', 'status', '--data', dataDir, '--json']);
    expect((JSON.parse(status.stdout) as { device: { name: string } }).device.name).toBe('Study');
  });

  it('keeps this device’s name in one place, written once through the memory’s sync room, and reports it', async () => {
    const dataDir = folder('one-place');
    const memory = openMemory({ dataDir });
    try {
      // The settings as the app hands them, each patch seen.
      const patches: Partial<Settings>[] = [];
      const settings = { read: () => memory.settings.read(), update: (patch: Partial<Settings>) => (patches.push(patch), memory.settings.update(patch)) };
      const secrets = folder('one-place-secrets');
      const service = new SyncService(settings, new SyncSecretStore(secrets), () => syncCoreOf(memory));
      const saved = await service.save({ target: { kind: 'folder', path: folder('target-one-place') }, passphrase: PASSPHRASE, deviceName: ' Lantern ' });
      expect(saved.deviceName).toBe('Lantern');
      // Written once, by the memory's sync room (which sends it at the next sync), not again as a setting.
      expect(patches.flatMap((patch) => Object.keys(patch))).toEqual(['syncTarget']);
      expect(memory.sync.known().name).toBe('Lantern');
      expect(memory.sync.nameToAnnounce()).toBe(true);
      // One place holds it: the memory's record of this device (a row of its one settings store).
      const db = databaseOf(memory);
      const holding = db.prepare<[], { place: string }>("SELECT 'memory_settings.' || key AS place FROM memory_settings WHERE value LIKE '%Lantern%' UNION ALL SELECT 'sync_state.' || key FROM sync_state WHERE value LIKE '%Lantern%'").all();
      expect(holding.map((row) => row.place)).toEqual(['memory_settings.syncDeviceName']);
      expect(readdirSync(secrets).map((file) => readFileSync(join(secrets, file), 'utf8')).join('')).not.toContain('Lantern');
      // The state reports the memory's name, also one given by another door since (`tempora sync --name`).
      expect(service.state().deviceName).toBe('Lantern');
      memory.sync.setDeviceName('Study');
      expect(service.state().deviceName).toBe('Study');
    } finally {
      memory.close();
    }
  });

  it('keeps a target and a key, hands the core a cipher that opens the other devices’ files, and says what a sync did', async () => {
    const dataDir = folder('data-1');
    const { core, calls } = fakeCore();
    const service = new SyncService(settingsStore(), new SyncSecretStore(dataDir), () => core);
    expect(service.state()).toMatchObject({ target: null, keyKept: false, paused: false, keyStore: 'file', note: null });
    expect(await refusal(service.syncNow())).toBe('Sync is not set up on this device: choose where to sync and type the passphrase, then Save.');

    const path = folder('target-1');
    const state = await service.save({ target: { kind: 'folder', path }, passphrase: PASSPHRASE, deviceName: '  Laptop ' });
    expect(state).toMatchObject({ target: { kind: 'folder', path }, describe: `the folder ${path}`, keyKept: true, deviceName: 'Laptop' });
    expect(calls.names).toEqual(['Laptop']);
    expect(readFileSync(join(dataDir, SYNC_SECRETS_FILE), 'utf8')).not.toContain(PASSPHRASE);

    const answer = await service.syncNow();
    expect(answer.message).toBe('Sent 2 records; received 5 from 1 device.');
    // Nothing refused, nothing waiting: no warning, the answer as the contract has it.
    expect(answer.warnings).toEqual([]);
    expect(syncNowResponse.parse(answer)).toEqual(answer);
    expect(answer.state.status).toEqual({ lastSync: '2026-09-01T02:00:00.000Z', devices: [{ name: 'Desktop', lastSeen: '2026-09-01T01:00:00.000Z' }], unsent: 0, blocked: [] });

    service.setPaused(true);
    expect(await refusal(service.syncNow())).toBe('Sync is paused on this device: press Resume first.');
    expect(service.setPaused(false).paused).toBe(false);
  });

  it('creates a folder target that is not there yet only when asked, never the folders above it, and takes it back when the save is refused', async () => {
    const settings = settingsStore();
    const { core } = fakeCore();
    const service = new SyncService(settings, new SyncSecretStore(folder('data-create')), () => core);
    const parent = folder('drive');
    const named = join(parent, 'tempora');
    // Not asked: refused with the detail the screen offers to create it by; nothing made.
    const refused = await service.save({ target: { kind: 'folder', path: named }, passphrase: PASSPHRASE, deviceName: 'Laptop' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ message: `The sync folder ${named} is not there yet.`, detail: SYNC_FOLDER_MISSING });
    expect(existsSync(named)).toBe(false);
    // Its parent not there either: refused in words even when asked, and neither is made.
    const deeper = join(parent, 'unplugged', 'tempora');
    expect(await refusal(service.save({ target: { kind: 'folder', path: deeper }, passphrase: PASSPHRASE, deviceName: 'Laptop', createFolder: true }))).toBe(
      `The sync folder ${deeper} is not there, nor the folder it would go in, ${join(parent, 'unplugged')} (is its drive connected?).`,
    );
    expect(existsSync(join(parent, 'unplugged'))).toBe(false);
    // Asked, but the save is then refused (a name another device has): the folder made is taken back.
    const taken: SyncCore = { ...core, nameTakenOnTarget: async () => ({ id: 'd2', name: 'Laptop' }) };
    const refusing = new SyncService(settings, new SyncSecretStore(folder('data-create-2')), () => taken);
    expect(await refusal(refusing.save({ target: { kind: 'folder', path: named }, passphrase: PASSPHRASE, deviceName: 'Laptop', createFolder: true }))).toContain('already named “Laptop”');
    expect(existsSync(named)).toBe(false);
    expect(settings.read().syncTarget).toBeNull();
    // Asked: made, with its key check, and kept.
    await service.save({ target: { kind: 'folder', path: named }, passphrase: PASSPHRASE, deviceName: 'Laptop', createFolder: true });
    expect(readdirSync(named)).toEqual([KEYCHECK_FILE]);
    expect(settings.read().syncTarget).toEqual({ kind: 'folder', path: named });
  });

  it('asks for the passphrase for another target and changes nothing until it is given', async () => {
    const dataDir = folder('data-2');
    const settings = settingsStore();
    const secrets = new SyncSecretStore(dataDir);
    const { core } = fakeCore();
    const service = new SyncService(settings, secrets, () => core);
    const first = folder('target-2a');
    await service.save({ target: { kind: 'folder', path: first }, passphrase: PASSPHRASE, deviceName: 'Laptop' });
    const kept = readFileSync(join(dataDir, SYNC_SECRETS_FILE));
    // The same target again without the passphrase: the kept key serves.
    expect((await service.save({ target: { kind: 'folder', path: first }, deviceName: 'Work laptop' })).deviceName).toBe('Work laptop');

    const second = folder('target-2b');
    expect(await refusal(service.save({ target: { kind: 'folder', path: second }, deviceName: 'Laptop' }))).toBe(
      'Type the sync passphrase: it makes the key that opens this target (the same passphrase on every device).',
    );
    expect(await refusal(service.save({ target: { kind: 'folder', path: 'Sync' }, passphrase: PASSPHRASE, deviceName: 'Laptop' }))).toBe(
      'The sync folder must be a full path (starting with / or a drive letter).',
    );
    expect(await refusal(service.save({ target: { kind: 'folder', path: first }, deviceName: '  ' }))).toBe('This device’s name is empty: give the name other devices will see it by.');
    expect(settings.read().syncTarget).toEqual({ kind: 'folder', path: first });
    expect(service.state().deviceName).toBe('Work laptop');
    expect(readFileSync(join(dataDir, SYNC_SECRETS_FILE)).equals(kept)).toBe(true);
    expect(await createFolderTarget(second).list('')).toEqual([]);

    // No sync core in this build: said, in the state and by Sync now.
    const coreless = new SyncService(settings, secrets, () => null);
    expect(coreless.state().note).toBe('This build keeps the target and passphrase but cannot sync yet: the sync engine is not part of it.');
    expect(await refusal(coreless.syncNow())).toBe(coreless.state().note);
  });

  it('keeps a WebDAV password apart, never shows it back, and uses the kept one when the field is left empty', async () => {
    const users = new webdav.SimpleUserManager();
    const user = users.addUser('alice', 'right-password', false);
    const privileges = new webdav.SimplePathPrivilegeManager();
    privileges.setRights(user, '/', ['all']);
    const server = new webdav.WebDAVServer({ port: 0, hostname: '127.0.0.1', httpAuthentication: new webdav.HTTPBasicAuthentication(users, 'test'), privilegeManager: privileges });
    const http = await new Promise<import('node:http').Server | undefined>((resolve) => server.start((started) => resolve(started)));
    try {
      const url = `http://127.0.0.1:${(http!.address() as AddressInfo).port}/`;
      const { core } = fakeCore();
      const service = new SyncService(settingsStore(), new SyncSecretStore(folder('data-3')), () => core);
      expect(await refusal(service.save({ target: { kind: 'webdav', url, username: 'alice', password: 'wrong' }, passphrase: PASSPHRASE, deviceName: 'Laptop' }))).toBe(
        `WebDAV at ${url} did not accept the user name and password (keycheck).`,
      );
      expect(service.state().target).toBeNull();
      const saved = await service.save({ target: { kind: 'webdav', url, username: 'alice', password: 'right-password' }, passphrase: PASSPHRASE, deviceName: 'Laptop' });
      expect(saved.target).toEqual({ kind: 'webdav', url, username: 'alice', hasPassword: true });
      expect(JSON.stringify(saved)).not.toContain('right-password');
      const again = await service.save({ target: { kind: 'webdav', url, username: 'alice', password: '' }, deviceName: 'Laptop' });
      expect(again.target).toEqual({ kind: 'webdav', url, username: 'alice', hasPassword: true });
      expect((await service.syncNow()).message).toBe('Sent 2 records; received 5 from 1 device.');
    } finally {
      await new Promise<void>((resolve) => server.stop(() => resolve()));
    }
  });

  it('keeps in the state the devices a sync left waiting, by name, reason and since when, and answers a sync that left one with a warning', async () => {
    const path = folder('target-waiting');
    // A desk writes three facts, one segment each; its second segment has not reached the folder.
    const desk = openMemory({ dataDir: ':memory:', clock: steppingClock('2026-10-01T00:00:00.000Z') });
    let deskId: string;
    try {
      desk.sync.setDeviceName('Desk');
      for (const object of ['tea', 'coffee', 'matcha'])
        desk.facts.observe([{ subject: 'Sato', predicate: 'likes', object, fact: `Sato likes ${object}.`, reference_time: '2026-09-01T05:00:00.000Z', valid_at: '2026-09-01T00:00:00.000Z', cardinality: 'many' }]);
      const target = createFolderTarget(path);
      await syncOnce(desk.sync, target, cipherFromKey(await unlockTarget(target, PASSPHRASE)), { segmentRows: 1 });
      deskId = desk.sync.known().id!;
    } finally {
      desk.close();
    }
    const segments = join(path, 'devices', deskId, 'segments');
    const second = readdirSync(segments).sort()[1]!;
    rmSync(join(segments, second));

    const laptop = openMemory({ dataDir: folder('laptop-waiting') });
    try {
      const service = new SyncService(laptop.settings, new SyncSecretStore(folder('laptop-waiting-secrets')), () => syncCoreOf(laptop));
      await service.save({ target: { kind: 'folder', path }, passphrase: PASSPHRASE, deviceName: 'Laptop' });
      const answer = await service.syncNow();
      expect(syncNowResponse.parse(answer)).toEqual(answer);
      expect(answer.warnings).toEqual([expect.stringMatching(new RegExp(`^Segment 2 of (Desk \\(${deskId.slice(0, 8)}\\)|device ${deskId}) is not on the target, though a later one is`))]);
      expect(answer.message).toContain(answer.warnings[0]);
      // After a reload (a new state), the device is still said, with its name, the reason and since when.
      const state = service.state();
      expect(syncState.parse(state)).toEqual(state);
      expect(state.status?.blocked).toEqual([{ id: deskId, name: 'Desk', reason: answer.warnings[0], since: laptop.sync.status().blocked[0]!.since }]);
      expect(state.status?.blocked[0]?.since).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      laptop.close();
    }
  });

  it('warns of a refused segment, a wait and a start-over, each in its own sentence; a device not named yet is kept by its id', async () => {
    const refused = 'The segment devices/d3/segments/00000001-ab could not be opened (it was changed or cut short, renamed, or sealed with another passphrase).';
    const waiting = 'Segment 2 of Desktop (d2) is not on the target, though a later one is: its later segments wait for it (a synced folder may still be bringing it).';
    const { core } = fakeCore({ refused: [refused], waiting: [waiting], startedOver: true, tookBack: 1 }, [
      { id: 'd3', name: null, reason: refused, since: '2026-09-01T02:00:00.000Z' },
    ]);
    const service = new SyncService(settingsStore(), new SyncSecretStore(folder('data-warnings')), () => core);
    await service.save({ target: { kind: 'folder', path: folder('target-warnings') }, passphrase: PASSPHRASE, deviceName: 'Laptop' });
    const answer = await service.syncNow();
    const startedOver = 'This memory had synced with another target: everything it holds was sent here again, and the other devices’ segments here were applied from their first.';
    expect(answer.warnings).toEqual([startedOver, refused, waiting]);
    // What a restored copy took back is said, not warned of.
    const tookBack = 'Took back 1 record this device had sent from a later copy of this memory (was it restored from a backup?); its new segments follow them.';
    expect(answer.message).toBe(`Sent 2 records; received 5 from 1 device. ${tookBack} ${answer.warnings.join(' ')}`);
    expect(answer.state.status?.blocked).toEqual([{ id: 'd3', name: null, reason: refused, since: '2026-09-01T02:00:00.000Z' }]);
    expect(syncNowResponse.parse(answer)).toEqual(answer);
  });

  it('says in plain words, with no jargon, that the kept key no longer opens a target set up again with another passphrase', async () => {
    const { core } = fakeCore();
    const service = new SyncService(settingsStore(), new SyncSecretStore(folder('data-rekeyed')), () => core);
    const path = folder('target-rekeyed');
    await service.save({ target: { kind: 'folder', path }, passphrase: PASSPHRASE, deviceName: 'Laptop' });
    // The target is made again elsewhere with another passphrase, and its key check copied over this one.
    const elsewhere = folder('target-rekeyed-elsewhere');
    await unlockTarget(createFolderTarget(elsewhere), 'another passphrase entirely');
    copyFileSync(join(elsewhere, KEYCHECK_FILE), join(path, KEYCHECK_FILE));
    const said = await refusal(service.syncNow());
    expect(said).toBe('The kept sync key no longer opens this target: it was set up again with another passphrase, or the key kept here is old. Type the passphrase again and Save.');
    expect(said).not.toMatch(/key ?check/i);
  });
});
