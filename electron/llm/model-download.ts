/**
 * Downloads a model with node-llama-cpp's createModelDownloader (ipull underneath), then verifies it
 * before it gets its final name:
 *   <dir>/<file>.download.ipull  while transferring (ipull's progress file, resumable)
 *   <dir>/<file>.download        complete, not yet verified
 *   <dir>/<file>                 verified: size, GGUF magic, SHA-256 when known
 * Interrupted transfers resume: a dropped connection is retried in-process from the last completed
 * chunk, and a cancelled (or killed) download continues from its progress file on the next call.
 * ipull tracks progress in 5 MiB chunks, so at most the last chunk is fetched again.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describeNetworkError, hostOf, unreachable, Watchdog } from './model-download-watchdog';

export { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_IDLE_TIMEOUT_MS, hostOf } from './model-download-watchdog';

export interface DownloadProgress {
  phase: 'downloading' | 'verifying';
  downloadedBytes: number;
  /** 0 while the size is not known yet. */
  totalBytes: number;
}

export interface DownloadModelOptions {
  /** https:// or http:// URL, or a node-llama-cpp `hf:` URI. */
  uri: string;
  dirPath: string;
  fileName: string;
  /** Lower-case hex SHA-256 of the file; verified when given. */
  sha256?: string | null;
  /** The exact size in bytes; verified when given. (The server's Content-Length is always verified.) */
  expectedSizeBytes?: number | null;
  onProgress?: (progress: DownloadProgress) => void;
  /** Aborting cancels the download (ModelDownloadError 'cancelled'). */
  signal?: AbortSignal;
  /** Keep the partial file on cancel so the next call resumes (default true). */
  keepPartialOnCancel?: boolean;
  headers?: Record<string, string>;
  /** Longest wait for the server to answer at all (connect, TLS, first response): default 30 s. */
  connectTimeoutMs?: number;
  /** Longest time without a byte once the transfer runs: default 60 s. */
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  path: string;
  sizeBytes: number;
  sha256: string;
  /** True when a verified file was already there and nothing was downloaded. */
  alreadyPresent: boolean;
}

export type ModelDownloadErrorCode = 'cancelled' | 'size_mismatch' | 'checksum_mismatch' | 'not_gguf' | 'failed';

export class ModelDownloadError extends Error {
  override readonly name = 'ModelDownloadError';
  constructor(
    readonly code: ModelDownloadErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const STAGING_SUFFIX = '.download';

const IPULL_SUFFIX = '.ipull';

/** The files a download of `fileName` may leave behind before it completes. */
export function partialDownloadPaths(dirPath: string, fileName: string): string[] {
  const staging = join(resolve(dirPath), fileName + STAGING_SUFFIX);
  return [staging, staging + IPULL_SUFFIX];
}

/** Deletes a partial download (what `keepPartialOnCancel` kept). */
export async function discardPartialDownload(dirPath: string, fileName: string): Promise<void> {
  await Promise.all(partialDownloadPaths(dirPath, fileName).map((path) => rm(path, { force: true })));
}

export async function sha256File(path: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20, signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function hasGgufMagic(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(4);
    const { bytesRead } = await handle.read(buffer, 0, 4, 0);
    return bytesRead === 4 && buffer.toString('ascii') === 'GGUF';
  } finally {
    await handle.close();
  }
}

/** Throws ModelDownloadError when `path` is not the expected file; returns its size and hash. */
async function verify(path: string, opts: DownloadModelOptions, announcedSize: number): Promise<{ sizeBytes: number; sha256: string }> {
  const { size } = await stat(path);
  const expected = opts.expectedSizeBytes ?? (announcedSize > 0 ? announcedSize : null);
  if (expected !== null && size !== expected) {
    throw new ModelDownloadError('size_mismatch', `${opts.fileName}: expected ${expected} bytes, got ${size}`);
  }
  if (!(await hasGgufMagic(path))) throw new ModelDownloadError('not_gguf', `${opts.fileName}: the downloaded file is not a GGUF model`);
  opts.onProgress?.({ phase: 'verifying', downloadedBytes: size, totalBytes: size });
  const sha256 = await sha256File(path, opts.signal);
  if (opts.sha256 && sha256 !== opts.sha256.toLowerCase()) {
    throw new ModelDownloadError('checksum_mismatch', `${opts.fileName}: SHA-256 is ${sha256}, expected ${opts.sha256.toLowerCase()}`);
  }
  return { sizeBytes: size, sha256 };
}

/** The most a downloader's trailing state record can be: JSON of a few chunks' progress. */
const MAX_STATE_BYTES = 64 * 1024;

/**
 * node-llama-cpp's downloader (ipull) keeps its progress as JSON after the file's bytes and cuts it
 * off when the file is done; a state write still in flight then (a resumed download racing its last
 * chunk) lands after the cut: seen once in CI, 69 bytes past the 17,327,872 announced. Bytes past
 * `size` that are such a record (a JSON object, at most MAX_STATE_BYTES) are cut off; anything else
 * stays, and the size check refuses it. The checksum then judges the file as always.
 */
export async function dropTrailingState(path: string, size: number): Promise<void> {
  if (!(size > 0)) return;
  const actual = await stat(path).then((s) => s.size, () => 0);
  if (actual <= size || actual - size > MAX_STATE_BYTES) return;
  const handle = await open(path, 'r+');
  try {
    const tail = Buffer.alloc(actual - size);
    await handle.read(tail, 0, tail.length, size);
    let record: unknown;
    try {
      record = JSON.parse(tail.toString('utf8'));
    } catch {
      return;
    }
    if (typeof record === 'object' && record !== null && !Array.isArray(record)) await handle.truncate(size);
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

export async function downloadModel(opts: DownloadModelOptions): Promise<DownloadResult> {
  const dirPath = resolve(opts.dirPath);
  const finalPath = join(dirPath, opts.fileName);
  const [stagingPath] = partialDownloadPaths(dirPath, opts.fileName) as [string, string];
  opts.signal?.throwIfAborted();

  // Already there and verifiable (needs a checksum or an exact size to trust it): nothing to do.
  if ((opts.sha256 || opts.expectedSizeBytes) && (await exists(finalPath))) {
    const present = await verify(finalPath, opts, 0).catch(() => null);
    if (present) return { path: finalPath, ...present, alreadyPresent: true };
  }

  const cancelled = (cause?: unknown) => new ModelDownloadError('cancelled', `Download of ${opts.fileName} was cancelled`, cause === undefined ? undefined : { cause });
  // Loaded here, not with this module: listing the catalogue (`tempora models`) would otherwise pay
  // node-llama-cpp's load (~2.6 s on this machine) without downloading anything. A Cancel pressed
  // meanwhile (or while a present file was checked) is a cancel, not a connection to make.
  let createModelDownloader: typeof import('node-llama-cpp').createModelDownloader;
  try {
    ({ createModelDownloader } = await import('node-llama-cpp'));
  } catch (error) {
    throw new ModelDownloadError('failed', `Download of ${opts.fileName} cannot start: the model runtime (node-llama-cpp) did not load: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (opts.signal?.aborted) throw cancelled();
  let announcedSize: number;
  const watchdog = new Watchdog(opts, (code, message, cause) => new ModelDownloadError(code, message, cause === undefined ? undefined : { cause }));
  try {
    const downloader = await watchdog.connecting(
      createModelDownloader({
        modelUri: opts.uri,
        dirPath,
        fileName: opts.fileName + STAGING_SUFFIX,
        headers: opts.headers,
        skipExisting: true,
        deleteTempFileOnCancel: !(opts.keepPartialOnCancel ?? true),
        parallelDownloads: 1,
        showCliProgress: false,
        onProgress: ({ totalSize, downloadedSize }) => {
          watchdog.alive();
          announcedSize = totalSize;
          opts.onProgress?.({ phase: 'downloading', downloadedBytes: downloadedSize, totalBytes: totalSize });
        },
      }),
    );
    announcedSize = downloader.totalSize;
    if (opts.expectedSizeBytes && announcedSize > 0 && announcedSize !== opts.expectedSizeBytes) {
      await downloader.cancel({ deleteTempFile: true });
      throw new ModelDownloadError('size_mismatch', `${opts.fileName}: the server offers ${announcedSize} bytes, expected ${opts.expectedSizeBytes}`);
    }
    await watchdog.transferring(downloader);
  } catch (error) {
    // The user's Cancel wins over a connection that failed meanwhile.
    if (opts.signal?.aborted && !(error instanceof ModelDownloadError && error.code === 'cancelled')) throw cancelled(error);
    if (error instanceof ModelDownloadError) throw error;
    const network = describeNetworkError(error);
    if (network !== null) throw new ModelDownloadError('failed', unreachable(hostOf(opts.uri), network), { cause: error });
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelDownloadError('failed', `Download of ${opts.fileName} from ${opts.uri} failed: ${reason}`, { cause: error });
  } finally {
    watchdog.stop();
  }
  if (opts.signal?.aborted) throw new ModelDownloadError('cancelled', `Download of ${opts.fileName} was cancelled`);

  try {
    await dropTrailingState(stagingPath, announcedSize);
    const verified = await verify(stagingPath, opts, announcedSize);
    await rename(stagingPath, finalPath);
    return { path: finalPath, ...verified, alreadyPresent: false };
  } catch (error) {
    // Cancelled while hashing: keep the complete file; the next call verifies it without downloading.
    if (!(error instanceof ModelDownloadError) && opts.signal?.aborted) {
      throw new ModelDownloadError('cancelled', `Download of ${opts.fileName} was cancelled`, { cause: error });
    }
    // A bad file must not be resumed or skipped next time: start over.
    await discardPartialDownload(dirPath, opts.fileName);
    if (error instanceof ModelDownloadError) throw error;
    throw new ModelDownloadError('failed', `Could not verify ${opts.fileName}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
