/**
 * The one way from a target's config (shared/sync-target-config.ts) to a SyncTarget: the config is
 * checked first, and a bad one is refused in one sentence naming the field before anything is read.
 */
import { syncTargetConfigFault, syncTargetConfigSchema } from '../../../shared/sync-target-config';
import { SyncTargetError, type SyncTarget } from '../sync-target';
import { createFolderTarget } from './folder-target';
import { createS3Target } from './s3-target';
import { createWebdavTarget } from './webdav-target';

export function openSyncTarget(input: unknown): SyncTarget {
  const parsed = syncTargetConfigSchema.safeParse(input);
  if (!parsed.success) throw new SyncTargetError('invalid', syncTargetConfigFault(input) ?? 'The sync target is not in a shape Tempora knows.');
  const config = parsed.data;
  switch (config.kind) {
    case 'folder':
      return createFolderTarget(config.path);
    case 'webdav':
      return createWebdavTarget({
        url: config.url,
        ...(config.username !== '' ? { username: config.username } : {}),
        ...(config.password !== '' ? { password: config.password } : {}),
      });
    case 's3':
      return createS3Target({
        ...(config.endpoint !== '' ? { endpoint: config.endpoint } : {}),
        region: config.region,
        bucket: config.bucket,
        prefix: config.prefix,
        accessKeyId: config.accessKeyId,
        secretAccessKey: config.secretAccessKey,
        forcePathStyle: config.forcePathStyle,
      });
  }
}
