/**
 * `tempora sync`: this memory and the user's other devices through a folder they already keep in
 * sync (Syncthing, Dropbox, iCloud Drive, OneDrive, a drive), end to end encrypted with their
 * passphrase — from $TEMPORA_SYNC_PASSPHRASE or --key-file, so it runs unattended (never a prompt).
 * `tempora sync status`: this device, the last sync, the devices seen, what is not sent yet.
 */
import { readFileSync } from 'node:fs';
import type { Memory } from '../../memory/index';
import { cipherFromKey, PASSPHRASE_DOES_NOT_OPEN, SyncCryptoError, unlockTarget, type SyncCipher } from '../../sync/sync-crypto';
import { deviceNamedOnTarget, sameName, type KnownDevices } from '../../sync/device-names';
import { syncProgressWords, syncReportNotes, type SyncProgress } from '../../../shared/sync-contract';
import { syncOnce, type SyncReport } from '../../sync/sync-runner';
import { SyncTargetError, type SyncTarget } from '../../sync/sync-target';
import { TargetReads } from '../../sync/target-reads';
import { SpoolError } from '../../sync/segment-spool';
import { SyncBusyError } from '../../sync/sync-lock';
import { createFolderTarget } from '../../sync/targets/folder-target';
import type { CommandContext, CommandSpec } from '../command';
import { InputError, UsageError } from '../errors';
import { describeFsError } from '../files';
import { checkForRead } from '../memory-dir';
import { escapeControls, formatTime, plural, printJson, printLines, progressLine } from '../output';

export const syncCommand: CommandSpec = {
  name: 'sync',
  summary: "sync this memory with the user's other devices through a folder, encrypted",
  synopsis: 'sync [status] [--folder DIR] [--key-file FILE] [--name NAME] [--watch [--every SECONDS]]',
  description: [
    'Uploads what this device wrote since its last sync and applies what the other devices wrote, each',
    'of their segments in one write (a sync stopped at any point resumes on the next). The folder holds',
    'only ciphertext. The passphrase comes from $TEMPORA_SYNC_PASSPHRASE, or the first line of --key-file.',
    '`sync status`: this device, the last sync, the devices seen and the records not sent yet.',
  ],
  options: {
    folder: { type: 'string', help: ['--folder DIR', 'the sync folder (one the user keeps in Syncthing, Dropbox, iCloud Drive, OneDrive …)'] },
    'key-file': { type: 'string', help: ['--key-file FILE', 'read the passphrase from the first line of FILE (else $TEMPORA_SYNC_PASSPHRASE)'] },
    name: { type: 'string', help: ['--name NAME', "this device's name as the others see it (default: the host name)"] },
    watch: { type: 'boolean', help: ['--watch', 'keep syncing until Ctrl-C'] },
    every: { type: 'string', help: ['--every SECONDS', 'with --watch: seconds between syncs (default 60)'] },
  },
  positionals: { min: 0, max: 1, name: 'status' },
  run(ctx) {
    const sub = ctx.positionals[0];
    if (sub !== undefined && sub !== 'status') throw new UsageError(`sync takes "status" or nothing, not ${JSON.stringify(sub)}`, 'sync');
    // A directory with no memory stays without one, as `tempora facts` leaves it.
    if (sub === 'status') return (checkForRead(ctx.memoryDir), ctx.withMemory((memory) => printStatus(ctx, memory)));
    const folder = ctx.string('folder') ?? folderSetInApp(ctx);
    if (folder === undefined) {
      // --folder is for this sync only: the one the last sync used is named, to give it again.
      const last = lastTarget(ctx);
      throw new UsageError(`sync needs --folder DIR (the folder the devices share), or a folder set in the app (Settings → Sync)${last ? `; the last sync was with ${escapeControls(last)}` : ''}`, 'sync');
    }
    const every = everySeconds(ctx);
    const passphrase = passphraseOf(ctx);
    const name = nameOf(ctx);
    return syncWith(ctx, folder, passphrase, name, every);
  },
};

/**
 * A sync that fails before it syncs changes nothing: the target is reached and the passphrase
 * unlocks it before the memory is opened (so none is made in a new directory), and --name is checked
 * against the devices on the target and applied only then, before anything goes up under it.
 */
async function syncWith(ctx: CommandContext, folder: string, passphrase: string, name: string | undefined, every: number): Promise<void> {
  const target = createFolderTarget(ctx.resolvePath(folder));
  // The first sync reads the target through what the unlock and the name check read: the key check
  // and one listing read once, each segment fetched once.
  const firstReads = new TargetReads(target);
  const cipher = cipherFromKey(await inWords(() => unlockTarget(firstReads, passphrase), ctx.string('key-file')));
  let first = true;
  // At first contact every device on the target is another one: checked once, before a memory is made.
  const checkedFirst = name !== undefined && !hasMemory(ctx);
  if (checkedFirst) await refuseTakenName(firstReads, cipher, name, { me: null, cursor: () => 0, nameSeen: () => undefined });
  return ctx.withMemory(async (memory) => {
    if (name !== undefined && memory.sync.known().name !== name) {
      const me = memory.sync.known().id;
      const seen = memory.sync.devicesSeen();
      if (!checkedFirst) await refuseTakenName(firstReads, cipher, name, { me, cursor: (device) => memory.sync.cursor(device), nameSeen: (device) => seen.find((d) => d.id === device)?.name });
      memory.sync.setDeviceName(name);
    }
    // The sync itself, once or every --every seconds. Watching, a round is said when something
    // moved (or was refused, or waits), after the first: a quiet minute says nothing.
    {
      let saidOne = false;
      const once = async () => {
        const shown = progressLine(ctx.io);
        const reads = first ? firstReads : target;
        first = false;
        let report: SyncReport;
        try {
          report = await inWords(() => syncOnce(memory.sync, reads, cipher, { onProgress: progress(ctx, shown) }));
        } finally {
          shown.clear();
        }
        if (saidOne && !ctx.json && !moved(report)) return;
        saidOne = true;
        printReport(ctx, target.describe, report);
        // A name another device here has too (the host's name, when neither was given one) is said at once, not only in `sync status`.
        if (!ctx.json) printLines(ctx.io, sameNameLines(memory.sync.status()));
      };
      if (!ctx.flag('watch')) return once();
      // Unattended, a round that fails in words (the target out of reach, another sync of this
      // memory running) is said, and the next round tries again.
      const round = async () => {
        try {
          await once();
        } catch (error) {
          if (!(error instanceof InputError)) throw error;
          ctx.io.stderr(`tempora: ${error.message} Trying again in ${plural(every, 'second')}.\n`);
        }
      };
      await round();
      await watch(every, round);
    }
  });
}

function nameOf(ctx: CommandContext): string | undefined {
  const name = ctx.string('name');
  if (name === undefined) return undefined;
  if (name.trim() === '' || name.length > 100) throw new InputError('--name must be 1 to 100 characters');
  return name.trim();
}

/** Whether the memory directory holds a memory already (a sync refused before it syncs makes none). */
function hasMemory(ctx: CommandContext): boolean {
  try {
    checkForRead(ctx.memoryDir);
    return true;
  } catch {
    return false;
  }
}

/** A name another device on the target goes by is refused in words, before anything goes up under it. */
async function refuseTakenName(target: SyncTarget, cipher: SyncCipher, name: string, known: KnownDevices): Promise<void> {
  const taken = await inWords(() => deviceNamedOnTarget(target, cipher, name, known));
  if (taken) throw new InputError(`Another device that syncs with this memory is already named “${escapeControls(taken.name)}”: give this one a name of its own.`);
}

function everySeconds(ctx: CommandContext): number {
  const every = ctx.string('every');
  if (every === undefined) return 60;
  if (!ctx.flag('watch')) throw new UsageError('--every goes with --watch', 'sync');
  const seconds = Number(every);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > 86_400) throw new InputError(`--every must be a whole number of seconds from 1 to 86400, not ${JSON.stringify(every)}`);
  return seconds;
}

function passphraseOf(ctx: CommandContext): string {
  const file = ctx.string('key-file');
  let passphrase: string | undefined;
  if (file !== undefined) {
    try {
      // The first line; a byte-order mark (Notepad writes one) is not part of it.
      passphrase = readFileSync(ctx.resolvePath(file), 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/)[0];
    } catch (error) {
      throw new InputError(`--key-file ${file} cannot be read: ${describeFsError(error)}`);
    }
    if (!passphrase) throw new InputError(`--key-file ${file} has no passphrase on its first line`);
  } else passphrase = ctx.io.env.TEMPORA_SYNC_PASSPHRASE;
  if (!passphrase) throw new InputError('sync needs a passphrase: set $TEMPORA_SYNC_PASSPHRASE or give --key-file FILE');
  return passphrase;
}

/**
 * A target's or the cipher's failure in its own words; anything else is a fault of ours. A wrong
 * passphrase says how to give the right one here (nothing prompts): where it came from, `keyFile`
 * or $TEMPORA_SYNC_PASSPHRASE.
 */
async function inWords<T>(fn: () => Promise<T>, keyFile?: string): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof SyncCryptoError && error.kind === 'wrong-passphrase') {
      const give =
        keyFile === undefined
          ? 'Set $TEMPORA_SYNC_PASSPHRASE to the passphrase your other devices sync with, or put it on the first line of a file given with --key-file FILE.'
          : `Put the passphrase your other devices sync with on the first line of ${keyFile} (the --key-file).`;
      throw new InputError(`${PASSPHRASE_DOES_NOT_OPEN} ${give}`);
    }
    if (error instanceof SyncTargetError || error instanceof SyncCryptoError || error instanceof SpoolError || error instanceof SyncBusyError) throw new InputError(error.message);
    throw error;
  }
}

/**
 * A long sync says how far it is on stderr, one line rewritten in place: a phase that spans
 * more than one segment (the first sync of a large memory, or of a device joining late); a short one
 * says nothing.
 */
function progress(ctx: CommandContext, shown: ReturnType<typeof progressLine>) {
  return (progress: SyncProgress) => {
    const { phase, done, total } = progress;
    if (ctx.json || phase === 'rewrite') return;
    const long = phase === 'upload' ? done < total || shown.shown : total > 1;
    if (long) shown.show(syncProgressWords(progress, plural));
  };
}

/** Whether a sync sent, applied, rewrote or took back anything, or has something refused or waiting to say. */
function moved(report: SyncReport): boolean {
  return report.sent > 0 || report.applied.length > 0 || report.rewritten > 0 || report.tookBack > 0 || report.startedOver || report.refused.length > 0 || report.waiting.length > 0;
}

function printReport(ctx: CommandContext, where: string, report: SyncReport): void {
  if (ctx.json) return printJson(ctx.io, report);
  const devices = new Set(report.applied.map((a) => a.device)).size;
  const records = report.applied.reduce((n, a) => n + a.records, 0);
  const lines = [
    `Synced with ${escapeControls(where)}: sent ${plural(report.sent, 'record')}; applied ${plural(report.applied.length, 'segment')} ` +
      `(${plural(records, 'record')}) from ${plural(devices, 'device')}.`,
  ];
  const notes = syncReportNotes(report);
  if (notes.tookBack) lines.push(notes.tookBack);
  if (notes.startedOver) lines.push(notes.startedOver);
  if (report.rewritten > 0) lines.push(`Rewrote ${plural(report.rewritten, 'segment')} of this device without what was forgotten.`);
  for (const refused of report.refused) lines.push(`Refused: ${escapeControls(refused)}`);
  for (const waiting of report.waiting) lines.push(`Waiting: ${escapeControls(waiting)}`);
  printLines(ctx.io, lines);
}

/** A device whose next segment the last sync refused (memory.sync.status()). */
type BlockedDevice = ReturnType<Memory['sync']['status']>['blocked'][number];

/** Each other device seen that has this device's name, in words. */
function sameNameLines(status: ReturnType<Memory['sync']['status']>): string[] {
  return status.devices
    .filter((d) => d.id !== status.device.id && sameName(d.name, status.device.name))
    .map((d) => `Another device, ${d.id.slice(0, 8)}, is also named ${escapeControls(d.name)}: give this one a name of its own with --name.`);
}

/** Where the app syncs this memory when it is a folder the command can use too, or that none is set (--folder is for one sync). */
function syncFolderLine(memory: Memory): string {
  const target = memory.settings.read().syncTarget;
  if (target?.kind === 'folder') return `Sync folder: ${escapeControls(target.path)} (set in the app)`;
  return `Sync folder: none set in the app${target ? ' (it syncs with another kind of target)' : ''} (tempora sync needs --folder DIR each time)`;
}

function printStatus(ctx: CommandContext, memory: Memory): void {
  const status = memory.sync.status();
  if (ctx.json) return printJson(ctx.io, status);
  const unseen = status.blocked.filter((b) => !status.devices.some((d) => d.id === b.id));
  const lines = [
    `This device: ${escapeControls(status.device.name)} (${status.device.id})`,
    `Last sync: ${status.lastSync === null ? 'never' : formatTime(status.lastSync)}${status.lastSync !== null && status.lastTarget ? `, with ${escapeControls(status.lastTarget)}` : ''}`,
    `Not sent yet: ${plural(status.unsent, 'record')}`,
    syncFolderLine(memory),
    status.devices.length + unseen.length === 0 ? 'Devices seen: none yet' : `Devices seen: ${status.devices.length + unseen.length}`,
  ];
  const blockedLine = (b: BlockedDevice) => `    blocked. ${escapeControls(b.reason)} Its later segments wait until it is put right.`;
  for (const d of status.devices) {
    lines.push(`  ${escapeControls(d.name)} (${d.id}): ${plural(d.seq, 'segment')} applied, last at ${formatTime(d.appliedAt)}`);
    const blocked = status.blocked.find((b) => b.id === d.id);
    if (blocked) lines.push(blockedLine(blocked));
  }
  // A device none of whose segments could be applied yet is known by its id only.
  for (const b of unseen) lines.push(`  ${b.id}: ${blockedLine(b).trimStart()}`);
  lines.push(...sameNameLines(status));
  printLines(ctx.io, lines);
}

/** The folder the app syncs this memory with (Settings → Sync), said on stderr when used; undefined when none (or no memory yet). */
function folderSetInApp(ctx: CommandContext): string | undefined {
  try {
    checkForRead(ctx.memoryDir);
  } catch {
    return undefined;
  }
  const target = ctx.readMemory((memory) => memory.settings.read().syncTarget);
  if (target?.kind !== 'folder') return undefined;
  ctx.io.stderr(`Syncing with ${target.path}, the folder set in the app (Settings → Sync).\n`);
  return target.path;
}

/** What the last sync of this memory synced with ("the folder /x"), when it is known (and there is a memory). */
function lastTarget(ctx: CommandContext): string | null {
  if (!hasMemory(ctx)) return null;
  return ctx.readMemory((memory) => memory.sync.lastTarget());
}

/** Syncs every `seconds` until Ctrl-C (or SIGTERM); a sync under way finishes first. */
async function watch(seconds: number, once: () => Promise<void>): Promise<void> {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const next = new Promise<'tick'>((resolve) => (timer = setTimeout(() => resolve('tick'), seconds * 1000)));
      const why = await Promise.race([next, stopped.then(() => 'stop' as const)]);
      clearTimeout(timer);
      if (why === 'stop') return;
      await once();
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
