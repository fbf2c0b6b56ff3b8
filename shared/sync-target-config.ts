/**
 * Where a device syncs to, one shape for every door (the Settings → Sync screen, `tempora sync`,
 * the engine): a folder, a WebDAV server or S3-compatible storage, with their fields. The secrets in
 * it (a WebDAV password, an S3 secret key) are kept apart from the settings and never shown back,
 * logged or exported: `withoutSecrets` is the shape a screen, a log line or an export may hold.
 */
import { z } from 'zod';

const folderTarget = z.object({
  kind: z.literal('folder'),
  /** An absolute path to a folder that exists (the drive connected, the sync app's folder). */
  path: z
    .string()
    .trim()
    .min(1, 'The sync folder is empty: give the path of a folder.')
    .refine((path) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\'), {
      message: 'The sync folder must be a full path (starting with / or a drive letter).',
    }),
});

const httpUrl = (what: string) =>
  z
    .string()
    .trim()
    .refine(
      (url) => {
        try {
          const parsed = new URL(url);
          return parsed.protocol === 'https:' || parsed.protocol === 'http:';
        } catch {
          return false;
        }
      },
      { message: `The ${what} must be a web address starting with https:// or http://.` },
    );

const webdavTarget = z.object({
  kind: z.literal('webdav'),
  url: httpUrl('WebDAV address'),
  username: z.string().default(''),
  password: z.string().default(''),
});

const s3Target = z.object({
  kind: z.literal('s3'),
  /** '' for AWS itself; else the store's address, e.g. http://nas.local:9000. */
  endpoint: z.union([z.literal(''), httpUrl('S3 endpoint')]).default(''),
  region: z.string().trim().min(1, 'The S3 region is empty (use us-east-1 when the store has none).').default('us-east-1'),
  bucket: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'The S3 bucket name must be 3 to 63 lower-case letters, digits, dots or dashes.'),
  /** A folder inside the bucket: '' or parts of letters, digits, '.', '_' and '-'. */
  prefix: z
    .string()
    .trim()
    .regex(/^([A-Za-z0-9_-][A-Za-z0-9._-]*\/?)*$/, 'The S3 prefix may hold only letters, digits, ".", "_", "-" and "/".')
    .default(''),
  accessKeyId: z.string().trim().min(1, 'The S3 access key is empty.'),
  secretAccessKey: z.string().min(1, 'The S3 secret key is empty.'),
  /** Path-style addresses (bucket in the path): what MinIO and most self-hosted stores want. */
  forcePathStyle: z.boolean().default(true),
});

export const syncTargetConfigSchema = z.discriminatedUnion('kind', [folderTarget, webdavTarget, s3Target]);

/** A target as settings keep it: the config without its secrets (those are in the key store). */
export const storedSyncTargetSchema = z.discriminatedUnion('kind', [
  folderTarget,
  webdavTarget.omit({ password: true }),
  s3Target.omit({ secretAccessKey: true }),
]);
export type StoredSyncTarget = z.infer<typeof storedSyncTargetSchema>;
export type SyncTargetConfig = z.infer<typeof syncTargetConfigSchema>;
export type SyncTargetKind = SyncTargetConfig['kind'];

/** The fields that are secrets, per kind: kept in the key store, never in settings, logs or exports. */
export const SYNC_TARGET_SECRETS = { folder: [], webdav: ['password'], s3: ['secretAccessKey'] } as const;

/** A target as a screen, a log or an export may hold it: each secret replaced by whether it is set. */
export type PublicSyncTargetConfig =
  | Extract<SyncTargetConfig, { kind: 'folder' }>
  | (Omit<Extract<SyncTargetConfig, { kind: 'webdav' }>, 'password'> & { hasPassword: boolean })
  | (Omit<Extract<SyncTargetConfig, { kind: 's3' }>, 'secretAccessKey'> & { hasSecret: boolean });

export function withoutSecrets(config: SyncTargetConfig): PublicSyncTargetConfig {
  if (config.kind === 'webdav') {
    const { password, ...rest } = config;
    return { ...rest, hasPassword: password !== '' };
  }
  if (config.kind === 's3') {
    const { secretAccessKey, ...rest } = config;
    return { ...rest, hasSecret: secretAccessKey !== '' };
  }
  return config;
}

/** The first fault of a config in one sentence, naming the field; null when it is a good config. */
export function syncTargetConfigFault(input: unknown): string | null {
  const parsed = syncTargetConfigSchema.safeParse(input);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  if (issue === undefined) return 'The sync target is not in a shape Tempora knows.';
  if (issue.path[0] === 'kind' || issue.path.length === 0) return 'The sync target must be a folder, WebDAV or S3.';
  if (issue.code === 'invalid_type') return `The sync target's ${issue.path.join('.')} is missing or not text.`;
  return issue.message;
}
