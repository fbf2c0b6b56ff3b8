/**
 * downloadModel (createModelDownloader underneath) against loopback HTTP servers serving the fixture
 * model with Range support: progress, cancel, resume after a cancel and after a dropped connection,
 * size and checksum verification, nothing left under the final name on failure.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { downloadModel, partialDownloadPaths, type DownloadProgress } from '../../electron/llm/model-download';
import { startRangeResponse } from '../fixtures/range-response';
import { writeTinyGguf } from '../fixtures/tiny-gguf';

interface Behaviour {
  /** Destroy the socket of the first response that has sent this many bytes (once per server). */
  dropAfterBytes?: number;
  /** Serve everything before this offset, then hang until the client goes away. */
  stallAt?: number;
  status?: number;
}

interface TestServer {
  url: string;
  requests: Array<{ range: string | null; start: number; sent: number }>;
  close(): Promise<void>;
}

const servers: TestServer[] = [];

/** 256 KiB every 2 ms per connection: fast, but slow enough to cancel or drop in the middle. */
async function serve(file: Buffer, behaviour: Behaviour = {}): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  let dropped = false;
  const server = http.createServer((req, res) => {
    if (behaviour.status) {
      res.writeHead(behaviour.status).end();
      return;
    }
    const span = startRangeResponse(req, res, file.length);
    const { end } = span;
    const record = { range: span.range, start: span.start, sent: 0 };
    requests.push(record);
    if (span.head) return;
    let position = span.start;
    const tick = (): void => {
      if (res.destroyed) return;
      if (behaviour.dropAfterBytes !== undefined && !dropped && record.range && record.sent >= behaviour.dropAfterBytes) {
        dropped = true;
        req.socket.destroy();
        return;
      }
      if (position > end) {
        res.end();
        return;
      }
      let size = Math.min(256 * 1024, end + 1 - position);
      if (behaviour.stallAt !== undefined && record.range) {
        if (position >= behaviour.stallAt) return; // hang: never finishes
        size = Math.min(size, behaviour.stallAt - position);
      }
      res.write(file.subarray(position, position + size));
      position += size;
      record.sent += size;
      setTimeout(tick, 2);
    };
    tick();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const handle: TestServer = {
    url: `http://127.0.0.1:${port}/model.gguf`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(handle);
  return handle;
}

let dir: string;
let file: Buffer;
let sha256: string;
let n = 0;
const nextDir = (): string => join(dir, `dl-${++n}`);
const rangeBytes = (s: TestServer, from = 0): number => s.requests.slice(from).filter((r) => r.range).reduce((sum, r) => sum + r.sent, 0);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tempora-llm-download-'));
  // ~17 MB: more than three of ipull's 5 MiB resume chunks.
  const fixture = join(dir, 'fixture.gguf');
  await writeTinyGguf(fixture, { embeddingLength: 256, feedForwardLength: 1024, blockCount: 4 });
  file = await readFile(fixture);
  sha256 = createHash('sha256').update(file).digest('hex');
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('downloadModel', () => {
  it('downloads with increasing progress, verifies size and SHA-256, and renames into place', async () => {
    const server = await serve(file);
    const dirPath = nextDir();
    const events: DownloadProgress[] = [];
    const result = await downloadModel({ uri: server.url, dirPath, fileName: 'model.gguf', sha256, onProgress: (p) => events.push(p) });
    expect(result).toMatchObject({ path: join(dirPath, 'model.gguf'), sizeBytes: file.length, sha256, alreadyPresent: false });
    expect((await readFile(result.path)).equals(file)).toBe(true);
    for (const path of partialDownloadPaths(dirPath, 'model.gguf')) expect(existsSync(path)).toBe(false);

    const downloading = events.filter((e) => e.phase === 'downloading');
    expect(downloading.length).toBeGreaterThan(3);
    for (let i = 1; i < downloading.length; i++) expect(downloading[i]!.downloadedBytes).toBeGreaterThanOrEqual(downloading[i - 1]!.downloadedBytes);
    expect(downloading.at(-1)).toMatchObject({ downloadedBytes: file.length, totalBytes: file.length });
    expect(events.at(-1)?.phase).toBe('verifying');

    // A verified file already in place is not downloaded again.
    const before = server.requests.length;
    const again = await downloadModel({ uri: server.url, dirPath, fileName: 'model.gguf', sha256 });
    expect(again.alreadyPresent).toBe(true);
    expect(server.requests.length).toBe(before);
  });

  it('cancels on abort, leaves no final file, and resumes from the partial file on the next call', async () => {
    const stalling = await serve(file, { stallAt: file.length - 64 * 1024 });
    const dirPath = nextDir();
    const controller = new AbortController();
    let seen = 0;
    const cancelled = downloadModel({
      uri: stalling.url,
      dirPath,
      fileName: 'model.gguf',
      sha256,
      signal: controller.signal,
      onProgress: (p) => {
        seen = p.downloadedBytes;
        if (p.downloadedBytes >= file.length - 64 * 1024) controller.abort();
      },
    });
    await expect(cancelled).rejects.toMatchObject({ name: 'ModelDownloadError', code: 'cancelled' });
    expect(seen).toBeGreaterThan(file.length / 2);
    expect(existsSync(join(dirPath, 'model.gguf'))).toBe(false);
    expect(partialDownloadPaths(dirPath, 'model.gguf').some((path) => existsSync(path))).toBe(true);

    const healthy = await serve(file);
    const result = await downloadModel({ uri: healthy.url, dirPath, fileName: 'model.gguf', sha256 });
    expect(result.sha256).toBe(sha256);
    // Completed chunks were kept: far less than the whole file was fetched again.
    expect(rangeBytes(healthy)).toBeLessThan(file.length / 2);
    expect(healthy.requests.some((r) => r.range && r.start > 0)).toBe(true);
  });

  it('completes after the server drops the connection midway', async () => {
    const server = await serve(file, { dropAfterBytes: 1024 * 1024 });
    const dirPath = nextDir();
    const result = await downloadModel({ uri: server.url, dirPath, fileName: 'model.gguf', sha256 });
    expect(result.sha256).toBe(sha256);
    expect((await readFile(result.path)).equals(file)).toBe(true);
    const ranged = server.requests.filter((r) => r.range);
    expect(ranged.some((r) => r.sent >= 1024 * 1024 && r.sent < file.length)).toBe(true);
    expect(ranged.length).toBeGreaterThan(3); // the dropped range was requested again
    expect(rangeBytes(server)).toBeLessThan(file.length + 5.5 * 1024 * 1024);
  });

  it('rejects a checksum mismatch and leaves neither a final nor a partial file', async () => {
    const server = await serve(file);
    const dirPath = nextDir();
    const wrong = 'f'.repeat(64);
    await expect(downloadModel({ uri: server.url, dirPath, fileName: 'model.gguf', sha256: wrong })).rejects.toMatchObject({ code: 'checksum_mismatch' });
    expect(existsSync(join(dirPath, 'model.gguf'))).toBe(false);
    for (const path of partialDownloadPaths(dirPath, 'model.gguf')) expect(existsSync(path)).toBe(false);
  });

  it('rejects a size mismatch before downloading, and HTTP errors', async () => {
    const server = await serve(file);
    const dirPath = nextDir();
    await expect(downloadModel({ uri: server.url, dirPath, fileName: 'model.gguf', expectedSizeBytes: file.length + 1 })).rejects.toMatchObject({ code: 'size_mismatch' });
    expect(rangeBytes(server)).toBe(0);
    expect(existsSync(join(dirPath, 'model.gguf'))).toBe(false);

    const missing = await serve(file, { status: 404 });
    await expect(downloadModel({ uri: missing.url, dirPath, fileName: 'model.gguf' })).rejects.toMatchObject({ code: 'failed' });
    expect(existsSync(join(dirPath, 'model.gguf'))).toBe(false);
  });
});
