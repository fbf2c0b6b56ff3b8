/**
 * The API shapes of Settings → Sync: where this device syncs to (its secrets never sent back), this
 * device's name, whether a passphrase key is kept, pause, and the sync core's status (last sync,
 * devices seen, records not yet sent, devices blocked or waiting); saving a target with its
 * passphrase, "Sync now" (with its warnings) and Pause.
 */
import { plural } from './count-words';
import { z } from 'zod';
import { isoTime } from './memory-schema';

const publicTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('folder'), path: z.string() }),
  z.strictObject({ kind: z.literal('webdav'), url: z.string(), username: z.string(), hasPassword: z.boolean() }),
  z.strictObject({
    kind: z.literal('s3'),
    endpoint: z.string(),
    region: z.string(),
    bucket: z.string(),
    prefix: z.string(),
    accessKeyId: z.string(),
    forcePathStyle: z.boolean(),
    hasSecret: z.boolean(),
  }),
]);

export const syncState = z.strictObject({
  /** The target without its secrets; null: sync is not set up on this device. */
  target: publicTarget.nullable(),
  /** Words for the target ("the folder /home/me/Sync/tempora"), or null. */
  describe: z.string().nullable(),
  /** Whether a key from the passphrase is kept on this device (the passphrase itself never is). */
  keyKept: z.boolean(),
  deviceName: z.string(),
  paused: z.boolean(),
  /** Where the key is kept: the system's keychain, or an owner-only file in the data folder. */
  keyStore: z.enum(['keychain', 'file']),
  /** The sync core's view; null when this build cannot sync yet (the note says why). */
  status: z
    .strictObject({
      lastSync: isoTime.nullable(),
      devices: z.array(z.strictObject({ name: z.string(), lastSeen: isoTime.nullable() })),
      unsent: z.number().int().nonnegative(),
      /**
       * Devices a sync left blocked or waiting (a segment refused: changed, cut short, a newer format;
       * or one missing while a later one is there): their later segments wait until it applies. The
       * name is null when none of the device's segments has applied here; the reason is one sentence.
       */
      blocked: z.array(z.strictObject({ id: z.string(), name: z.string().nullable(), reason: z.string(), since: isoTime })),
    })
    .nullable(),
  note: z.string().nullable(),
});
export type SyncState = z.infer<typeof syncState>;

export const saveSyncRequest = z.strictObject({
  /** A target as typed; a secret left empty keeps the one kept for the same target. */
  target: z.unknown(),
  /** Needed when no key is kept for this target; never stored, only the key made from it. */
  passphrase: z.string().max(1000).optional(),
  deviceName: z.string().max(200),
  /**
   * A folder target that is not there yet is created (that one folder, in one that is there; never
   * the folders above it) before its key check is made. Without it such a folder is refused with
   * the detail SYNC_FOLDER_MISSING, so the screen can offer to create it.
   */
  createFolder: z.boolean().optional(),
});

/** The detail of a save refused because its folder is not there yet, though the folder it goes in is: it can be created. */
export const SYNC_FOLDER_MISSING = 'sync_folder_missing';

export const syncNowResponse = z.strictObject({
  state: syncState,
  /** What happened, in one sentence ("Sent 12 records; applied 3 segments from 1 device."), with each warning after it. */
  message: z.string(),
  /**
   * What did not go as asked, each in one sentence (also said in `message`): a refused segment, one
   * waiting for a missing one, everything sent again to another target. Empty: all went well.
   */
  warnings: z.array(z.string()),
});
export type SyncNowResponse = z.infer<typeof syncNowResponse>;

/**
 * Where a running sync stands, told after each segment (the `syncProgress` event; the CLI's stderr
 * line). upload: `done` of `total` records sent; download (a first sync onto an empty device fetches
 * every segment before applying them in one write), apply and rewrite: `done` of `total` segments,
 * with `records` the records applied so far (0 for download and rewrite).
 */
export const syncProgress = z.strictObject({
  phase: z.enum(['upload', 'download', 'apply', 'rewrite']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  records: z.number().int().nonnegative(),
});
export type SyncProgress = z.infer<typeof syncProgress>;

/**
 * The words for a sync's progress, the same in every face; each face counts in its own way
 * (`plural(3, 'segment')` → "3 segments", the screen with the user's digit grouping).
 */
export function syncProgressWords(progress: SyncProgress, plural: (count: number, one: string) => string): string {
  const { phase, done, total, records } = progress;
  if (phase === 'upload') return `uploading: ${done} of ${plural(total, 'record')}`;
  if (phase === 'download') return `downloading: ${done} of ${plural(total, 'segment')}`;
  if (phase === 'apply') return `applying: ${done} of ${plural(total, 'segment')} (${plural(records, 'record')})`;
  return `removing what was forgotten: ${done} of ${plural(total, 'segment')} rewritten`;
}

/**
 * What a sync did beyond sending and applying, in the same words in every face: it took back what a
 * later copy of this memory had sent (`tookBack` records: the memory was restored from a backup), or
 * it started over on a target it had not synced with before.
 */
export function syncReportNotes(report: { tookBack: number; startedOver: boolean }): { tookBack: string | null; startedOver: string | null } {
  return {
    tookBack: report.tookBack > 0 ? `Took back ${plural(report.tookBack, 'record', 'records', 'en-US')} this device had sent from a later copy of this memory (was it restored from a backup?); its new segments follow them.` : null,
    startedOver: report.startedOver ? 'This memory had synced with another target: everything it holds was sent here again, and the other devices’ segments here were applied from their first.' : null,
  };
}
