/**
 * A sync target in S3-compatible object storage (AWS S3, MinIO, Backblaze B2, Cloudflare R2, …),
 * through @aws-sdk/client-s3: an endpoint, a bucket and a prefix inside it. Path-style addressing
 * when asked (MinIO, s3rver and most self-hosted stores want it). A PUT stores an object whole; a
 * list reads page by page, each page asked to start after the last key of the one before
 * (ListObjects with a marker, which every S3-compatible store answers alike; s3rver cannot make
 * ListObjectsV2's continuation tokens on Node's OpenSSL 3, where its DES cipher is gone). The secret key never appears in a message or in
 * `describe`.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { checkSyncFileName, checkSyncPrefix, isSyncFileName, type SyncTarget, SyncTargetError, type SyncTargetFile } from '../sync-target';

export interface S3TargetConfig {
  /** e.g. "https://s3.eu-central-1.amazonaws.com" or "http://nas.local:9000"; none for AWS's own. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Folder-like prefix inside the bucket, '' or "tempora/" ('/' added when missing). */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** Keys per list page (S3's maximum is 1,000; tests ask for fewer to see pages). */
  pageSize?: number;
}

export function createS3Target(config: S3TargetConfig): SyncTarget {
  const root = config.prefix === '' || config.prefix.endsWith('/') ? config.prefix : `${config.prefix}/`;
  const describe = `S3 bucket ${config.bucket}${root === '' ? '' : `/${root.replace(/\/$/, '')}`}${config.endpoint ? ` at ${config.endpoint}` : ''}`;
  /** The bucket as a sentence names it: "the S3 bucket …". */
  const where = `the ${describe}`;
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    maxAttempts: 2,
  });

  return {
    describe,
    async list(prefix) {
      checkSyncPrefix(prefix, where);
      const files: SyncTargetFile[] = [];
      let after: string | undefined;
      for (;;) {
        let page;
        try {
          page = await client.send(
            new ListObjectsCommand({ Bucket: config.bucket, Prefix: root + prefix, Marker: after, MaxKeys: config.pageSize ?? 1000 }),
          );
        } catch (error) {
          throw inWords(error, where, '');
        }
        for (const object of page.Contents ?? []) {
          const name = (object.Key ?? '').slice(root.length);
          if (isSyncFileName(name)) files.push({ name, size: object.Size ?? 0 });
        }
        const last = page.Contents?.at(-1)?.Key;
        if (!page.IsTruncated || last === undefined) break;
        if (after !== undefined && last <= after) throw new SyncTargetError('unreachable', `The ${describe} lists its files out of order; Tempora cannot read it.`);
        after = last;
      }
      return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    async get(name) {
      checkSyncFileName(name, where);
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: root + name }));
        if (answer.Body === undefined) return new Uint8Array();
        return await answer.Body.transformToByteArray();
      } catch (error) {
        const code = codeOf(error);
        if (code === 'NoSuchKey' || code === 'NotFound') throw new SyncTargetError('missing', `The file ${name} is not in ${where}.`);
        throw inWords(error, where, name);
      }
    },
    async put(name, bytes) {
      checkSyncFileName(name, where);
      try {
        await client.send(new PutObjectCommand({ Bucket: config.bucket, Key: root + name, Body: bytes, ContentLength: bytes.byteLength }));
      } catch (error) {
        throw inWords(error, where, name);
      }
    },
    async remove(name) {
      checkSyncFileName(name, where);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: root + name }));
      } catch (error) {
        if (codeOf(error) === 'NoSuchKey') return;
        throw inWords(error, where, name);
      }
    },
  };
}

function codeOf(error: unknown): string | undefined {
  if (error instanceof S3ServiceException) return error.name;
  return (error as { name?: string; Code?: string }).Code ?? (error as { name?: string }).name;
}

/** A store's failure in a sentence naming the bucket (`where`: "the S3 bucket …") and the file. */
function inWords(error: unknown, where: string, name: string): SyncTargetError {
  const file = name === '' ? '' : ` (${name})`;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const code = codeOf(error);
  if (code === 'NoSuchBucket') return new SyncTargetError('unreachable', `${capitalized(where)} does not exist.`);
  if (code === 'InvalidAccessKeyId' || code === 'SignatureDoesNotMatch' || status === 401)
    return new SyncTargetError('denied', `${capitalized(where)} did not accept the access key and secret${file}.`);
  if (code === 'AccessDenied' || status === 403) return new SyncTargetError('denied', `${capitalized(where)} does not allow Tempora to do this${file}.`);
  if (status !== undefined) return new SyncTargetError('unreachable', `${capitalized(where)} answered ${status} ${code ?? ''}${file}.`.replace(' .', '.'));
  const errno = (error as NodeJS.ErrnoException).code;
  const why = errno === 'ENOTFOUND' ? 'its host name is not known' : errno === 'ECONNREFUSED' ? 'nothing answers at that address' : 'it cannot be reached';
  return new SyncTargetError('unreachable', `${capitalized(where)} cannot be reached: ${why}${file}.`);
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
