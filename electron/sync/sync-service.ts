/**
 * Sync as the faces see it (Settings → Sync): the target this device syncs to, kept without its
 * secrets in the settings and with them in the secret store (sync-secrets.ts: the key made from the
 * passphrase, never the passphrase); pause; this device's name, read and written only through the
 * sync core (the memory's record of this device, which its segments carry); "sync now" through the
 * sync core (sync-runner.ts over the memory's sync room). A target and passphrase are checked
 * against the target's key check before anything is kept, so a wrong passphrase or an unreachable
 * target is said in one sentence and changes nothing.
 */
import { hostname } from 'node:os';
import type { Settings } from '../../shared/settings-schema';
import { MemoryInputError } from '../memory/index';
import { formatCount, plural } from '../../shared/count-words';
import { SYNC_FOLDER_MISSING, syncReportNotes, type SyncNowResponse, type SyncProgress, type SyncState } from '../../shared/sync-contract';
import { storedSyncTargetSchema, syncTargetConfigFault, syncTargetConfigSchema, withoutSecrets, type StoredSyncTarget, type SyncTargetConfig } from '../../shared/sync-target-config';
import { SyncBusyError } from './sync-lock';
import { cipherFromKey, KEYCHECK_FILE, keyOpensKeyCheck, SyncCryptoError, unlockTarget, type SyncCipher } from './sync-crypto';
import type { SyncSecretStore } from './sync-secrets';
import { SyncTargetError, type SyncTarget } from './sync-target';
import { SpoolError } from './segment-spool';
import { TargetReads } from './target-reads';
import { createSyncFolder, folderStanding, parentMissingWords, removeCreatedSyncFolder } from './targets/folder-target';
import { openSyncTarget } from './targets/open-sync-target';
import type { IsoTime } from '../../shared/time';

/**
 * What the service needs of the sync core: its status (with the devices a sync left blocked or
 * waiting: a refused segment, a missing one; their name when one of their segments applied here, the
 * reason in one sentence, since when), this device's name, one sync (telling how far it is).
 */
export interface SyncCore {
  status(): {
    lastSync: IsoTime | null;
    devices: { id: string; name: string; appliedAt: IsoTime }[];
    unsent: number;
    blocked: { id: string; name: string | null; reason: string; since: IsoTime }[];
  };
  /** This device's name as the others see it (the computer's until it is named). */
  deviceName(): string;
  /**
   * Renames this device in the one place its name is kept (the memory's record of it, memory.sync:
   * the setting `syncDeviceName`, written by no other door), to be sent at the next sync.
   */
  setDeviceName(name: string): void;
  /**
   * Another device on the target that goes by `name` (spaces and case aside), read from the headers
   * of its latest segment (device-names.ts); null when none, or when `name` is this device's already.
   */
  nameTakenOnTarget?(target: SyncTarget, cipher: SyncCipher, name: string): Promise<{ id: string; name: string } | null>;
  run(target: SyncTarget, cipher: SyncCipher, onProgress: (progress: SyncProgress) => void): Promise<{ sent: number; applied: { device: string; records: number }[]; refused: string[]; waiting: string[]; startedOver: boolean; tookBack: number }>;
}

/** The settings the service reads and writes (memory.settings): where to sync and pause; never the device's name (the core's). */
type SyncSettings = Pick<Settings, 'syncTarget' | 'syncPaused'>;
export interface SyncSettingsStore {
  read(): SyncSettings;
  update(patch: Partial<SyncSettings>): SyncSettings;
}

/** A refusal in one sentence, nothing changed. */
export class SyncServiceError extends Error {
  constructor(
    message: string,
    /** A finer code the screen can act on (SYNC_FOLDER_MISSING: it offers to create the folder). */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'SyncServiceError';
  }
}

const NO_CORE = 'This build keeps the target and passphrase but cannot sync yet: the sync engine is not part of it.';

export class SyncService {
  private running: Promise<SyncNowResponse> | null = null;

  constructor(
    private readonly settings: SyncSettingsStore,
    private readonly secrets: SyncSecretStore,
    private readonly core: () => SyncCore | null,
    /** Told after each segment of a running "sync now" (Settings → Sync shows it). */
    private readonly onProgress: (progress: SyncProgress) => void = () => {},
  ) {}

  state(): SyncState {
    const settings = this.settings.read();
    const stored = settings.syncTarget;
    const kept = this.secrets.read();
    const matching = stored !== null && kept !== null && kept.target === JSON.stringify(stored) ? kept : null;
    const core = this.core();
    const status = core?.status() ?? null;
    let target: SyncState['target'] = null;
    let describe: string | null = null;
    if (stored) {
      const full = withSecret(stored, matching?.targetSecret ?? '');
      target = withoutSecrets(full);
      describe = describeTarget(withSecret(stored, 'not shown')); // the words never hold a secret
    }
    return {
      target,
      describe,
      keyKept: matching?.key != null,
      // Without a sync core there is no device to name: the computer's name, as the core would say.
      deviceName: core?.deviceName() ?? hostname(),
      paused: settings.syncPaused,
      keyStore: this.secrets.where,
      status: status && {
        lastSync: status.lastSync,
        devices: status.devices.map((device) => ({ name: device.name, lastSeen: device.appliedAt })),
        unsent: status.unsent,
        blocked: status.blocked.map((device) => ({ id: device.id, name: device.name, reason: device.reason, since: device.since })),
      },
      note: core ? null : NO_CORE,
    };
  }

  /** Keeps a target, this device's name (through the sync core) and the key of the passphrase, once the target's key check opens. */
  async save(request: { target: unknown; passphrase?: string | undefined; deviceName: string; createFolder?: boolean | undefined }): Promise<SyncState> {
    const deviceName = request.deviceName.trim();
    if (deviceName === '') throw new SyncServiceError('This device’s name is empty: give the name other devices will see it by.');
    if (deviceName.length > 100) throw new SyncServiceError('This device’s name is longer than 100 characters.');
    const before = this.settings.read().syncTarget;
    const kept = this.secrets.read();
    const input = typeof request.target === 'object' && request.target !== null ? { ...(request.target as Record<string, unknown>) } : request.target;
    // A secret left empty keeps the one kept for this same target.
    const stored = storedSyncTargetSchema.safeParse(input);
    if (stored.success && kept && kept.target === JSON.stringify(stored.data) && typeof input === 'object' && input !== null) {
      const fields = input as Record<string, unknown>;
      if (stored.data.kind === 'webdav' && !fields['password']) fields['password'] = kept.targetSecret;
      if (stored.data.kind === 's3' && !fields['secretAccessKey']) fields['secretAccessKey'] = kept.targetSecret;
    }
    const parsed = syncTargetConfigSchema.safeParse(input);
    if (!parsed.success) throw new SyncServiceError(syncTargetConfigFault(input) ?? 'The sync target is not in a shape Tempora knows.');
    const config = parsed.data;
    const storedNow = storedSyncTargetSchema.parse(config);
    const sameTarget = kept !== null && kept.target === JSON.stringify(storedNow);
    const passphrase = request.passphrase ?? '';
    const opens = passphrase !== '' ? { passphrase } : sameTarget && kept.key ? { key: Buffer.from(kept.key, 'base64') } : null;
    if (opens === null) {
      throw new SyncServiceError(
        before === null || !sameTarget ? 'Type the sync passphrase: it makes the key that opens this target (the same passphrase on every device).' : 'Type the sync passphrase again.',
      );
    }
    // A new folder target that is not there yet: refused so the screen can offer to create it, or created when asked.
    const created = config.kind === 'folder' && !sameTarget ? await newFolder(config.path, request.createFolder === true) : null;
    try {
      return await this.keep(config, storedNow, deviceName, opens);
    } catch (error) {
      if (created !== null) await removeCreatedSyncFolder(created, [KEYCHECK_FILE]);
      throw error;
    }
  }

  /** Opens the target with the passphrase (or the kept key), checks this device's name there, and keeps them. */
  private async keep(config: SyncTargetConfig, storedNow: StoredSyncTarget, deviceName: string, opens: { passphrase: string } | { key: Uint8Array }): Promise<SyncState> {
    const target = openSyncTarget(config);
    const key = 'passphrase' in opens ? await inWords(() => unlockTarget(target, opens.passphrase)) : opens.key;
    // The name first: one another device has — on the target too, at first contact — is refused in words before anything is kept.
    const core = this.core();
    const taken = core?.nameTakenOnTarget ? await inWords(() => core.nameTakenOnTarget!(target, cipherFromKey(key), deviceName)) : null;
    if (taken) throw new SyncServiceError(`Another device that syncs with this memory is already named “${taken.name}”: give this one a name of its own.`);
    try {
      core?.setDeviceName(deviceName);
    } catch (error) {
      if (error instanceof MemoryInputError) throw new SyncServiceError(error.message);
      throw error;
    }
    this.secrets.write({ target: JSON.stringify(storedNow), key: Buffer.from(key).toString('base64'), targetSecret: secretOf(config) });
    this.settings.update({ syncTarget: storedNow });
    return this.state();
  }

  setPaused(paused: boolean): SyncState {
    this.settings.update({ syncPaused: paused });
    return this.state();
  }

  /** One sync now; a second call while one runs waits for the same one. */
  syncNow(): Promise<SyncNowResponse> {
    this.running ??= this.runOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async runOnce(): Promise<SyncNowResponse> {
    const settings = this.settings.read();
    const stored = settings.syncTarget;
    const kept = this.secrets.read();
    if (stored === null || kept === null || kept.target !== JSON.stringify(stored) || !kept.key)
      throw new SyncServiceError('Sync is not set up on this device: choose where to sync and type the passphrase, then Save.');
    if (settings.syncPaused) throw new SyncServiceError('Sync is paused on this device: press Resume first.');
    const core = this.core();
    if (!core) throw new SyncServiceError(NO_CORE);
    const target = openSyncTarget(withSecret(stored, kept.targetSecret));
    const key = Buffer.from(kept.key, 'base64');
    // One sync's reads: the key check read here is the one the sync looks at (target-reads.ts).
    const reads = new TargetReads(target);
    const check = await inWords(() => reads.get(KEYCHECK_FILE));
    if (!keyOpensKeyCheck(key, check))
      throw new SyncServiceError('The kept sync key no longer opens this target: it was set up again with another passphrase, or the key kept here is old. Type the passphrase again and Save.');
    const report = await inWords(() => core.run(reads, cipherFromKey(key), this.onProgress));
    const records = report.applied.reduce((sum, segment) => sum + segment.records, 0);
    const devices = new Set(report.applied.map((segment) => segment.device)).size;
    const parts = [`Sent ${plural(report.sent, 'record', 'records', 'en-US')}`, `received ${formatCount(records, 'en-US')} from ${plural(devices, 'device', 'devices', 'en-US')}`];
    // What the user should know did not go as asked: the screen says the answer as a warning then.
    const notes = syncReportNotes(report);
    const warnings = [...(notes.startedOver ? [notes.startedOver] : []), ...report.refused, ...report.waiting];
    const told = [...(notes.tookBack ? [notes.tookBack] : []), ...warnings];
    return { state: this.state(), message: `${parts.join('; ')}.${told.map((words) => ` ${words}`).join('')}`, warnings };
  }
}

/**
 * A folder target about to be set up: null when it is there; else refused in words — with the detail
 * that lets the screen offer to create it when the folder it goes in is there — or, when `create`,
 * created (that one folder) and its path returned, to be taken back if the save is then refused.
 * One that appears between the check and the create (another device's sync service made it) is not
 * ours to take back: null, as when it was there.
 */
async function newFolder(path: string, create: boolean): Promise<string | null> {
  const standing = await folderStanding(path);
  if (standing === 'there') return null;
  if (standing === 'parent-missing') throw new SyncServiceError(parentMissingWords(path));
  if (!create) throw new SyncServiceError(`The sync folder ${path} is not there yet.`, SYNC_FOLDER_MISSING);
  return (await inWords(() => createSyncFolder(path))) === 'created' ? path : null;
}

function withSecret(stored: StoredSyncTarget, secret: string): SyncTargetConfig {
  if (stored.kind === 'webdav') return { ...stored, password: secret };
  if (stored.kind === 's3') return { ...stored, secretAccessKey: secret };
  return stored;
}

function secretOf(config: SyncTargetConfig): string {
  return config.kind === 'webdav' ? config.password : config.kind === 's3' ? config.secretAccessKey : '';
}

function describeTarget(config: SyncTargetConfig): string | null {
  try {
    return openSyncTarget(config).describe;
  } catch {
    return null;
  }
}

async function inWords<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SyncTargetError || error instanceof SyncCryptoError || error instanceof SpoolError || error instanceof SyncBusyError) throw new SyncServiceError(error.message);
    throw error;
  }
}
