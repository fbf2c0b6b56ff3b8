/**
 * Downloads in words and kept by the core: an unreachable server says "Could not reach HOST —
 * check your connection" (never fetch's bare "fetch failed", whose reason hides in its causes);
 * the engine keeps the downloads in progress for a screen opened later (listDownloads); one
 * recommended model, the best chat model that fits, listed first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withRecommendation } from '../../electron/engine/catalogue';
import { createApiHandlers } from '../../electron/engine/api-handlers';
import { TemporaEngine } from '../../electron/engine/index';
import type { CatalogueModel } from '../../electron/llm/model-catalogue';
import { downloadModel, ModelDownloadError } from '../../electron/llm/model-download';
import { describeNetworkError } from '../../electron/llm/model-download-watchdog';
import type { CatalogueEntry } from '../../shared/api-contract';
import { serveSlowly, type SlowServer } from '../e2e/helpers/slow-model-server';
import { runAsync } from '../../electron/cli/run';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tempora-download-words-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('network errors in words', () => {
  it('finds the reason in the causes of "fetch failed"', () => {
    const fetchFailed = (cause?: unknown) => new TypeError('fetch failed', cause === undefined ? undefined : { cause });
    expect(describeNetworkError(fetchFailed({ code: 'ENOTFOUND' }))).toBe('the name does not resolve (offline?)');
    expect(describeNetworkError(new Error('download failed', { cause: fetchFailed(new Error('connect', { cause: { code: 'ECONNREFUSED' } })) }))).toBe('the connection was refused');
    expect(describeNetworkError(fetchFailed())).toBe('the request failed before the server answered (offline?)');
    expect(describeNetworkError(new Error('disk full'))).toBeNull();
  });

  it('a port nobody listens on: "Could not reach 127.0.0.1:PORT — check your connection"', async () => {
    const probe = http.createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((done) => probe.close(() => done()));
    const error = await downloadModel({ uri: `http://127.0.0.1:${port}/m.gguf`, dirPath: dir, fileName: 'm.gguf', connectTimeoutMs: 500 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelDownloadError);
    expect((error as Error).message).toMatch(new RegExp(`^Could not reach 127\\.0\\.0\\.1:${port} — check your connection \\(`));
    expect((error as Error).message).not.toContain('fetch failed');
  }, 20_000);
});

describe('downloads kept by the core', () => {
  let server: SlowServer;
  let engine: TemporaEngine;
  beforeAll(async () => {
    server = await serveSlowly(Buffer.alloc(1024 * 1024, 0x47), { chunkBytes: 64 * 1024, everyMs: 10, holdTailBytes: 64 * 1024 });
    const model: CatalogueModel = {
      id: 'held',
      name: 'Held',
      role: 'chat',
      uri: `${server.url}/held.gguf`,
      fileName: 'held.gguf',
      sizeBytes: 1024 * 1024,
      sizeIsExact: false,
      sha256: null,
      ramBytes: 1,
      contextLength: 2048,
      notes: '',
      fitFor: () => 'fits',
    };
    engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false, catalogue: [model] });
  });
  afterAll(async () => {
    server.release();
    await engine.close();
    await server.close();
  });

  it('listDownloads tells how far a download in progress has come, and forgets it once it ends', async () => {
    const handlers = createApiHandlers(engine);
    expect(await handlers.listDownloads({})).toEqual([]);
    let reached = (): void => undefined;
    const halfway = new Promise<void>((resolve) => (reached = resolve));
    const running = engine.models.download('held', (p) => p.downloadedBytes > 512 * 1024 && reached()).catch((e: unknown) => e);
    await halfway;
    const [download] = await handlers.listDownloads({});
    expect(download).toMatchObject({ id: 'held' });
    expect(download!.downloadedBytes).toBeGreaterThan(512 * 1024);
    engine.models.cancelDownload('held');
    expect(((await running) as Error).message).toMatch(/cancelled/);
    expect(await handlers.listDownloads({})).toEqual([]);
  }, 20_000);
});

describe('one recommended model', () => {
  const entry = (id: string, role: 'chat' | 'embedding', fit: CatalogueEntry['fit'], ramBytes: number): Omit<CatalogueEntry, 'recommended'> => ({
    id,
    name: id,
    role,
    sizeBytes: ramBytes,
    ramBytes,
    fit,
    notes: '',
    path: null,
    partial: false,
  });

  it('is the largest chat model that fits, listed first; else the smallest that may be slow; else none', () => {
    const list = [entry('small', 'chat', 'fits', 1), entry('big', 'chat', 'fits', 5), entry('huge', 'chat', 'wont_fit', 50), entry('e5', 'embedding', 'fits', 9)];
    expect(withRecommendation(list).map((e) => [e.id, e.recommended])).toEqual([
      ['big', true],
      ['small', false],
      ['huge', false],
      ['e5', false],
    ]);
    const slow = withRecommendation([entry('b', 'chat', 'may_be_slow', 8), entry('a', 'chat', 'may_be_slow', 4)]);
    expect(slow.filter((e) => e.recommended).map((e) => e.id)).toEqual(['a']);
    expect(withRecommendation([entry('x', 'chat', 'wont_fit', 8)]).some((e) => e.recommended)).toBe(false);
  });

  it('`tempora models` marks the same one as the Models screen', async () => {
    let out = '';
    const io = { stdout: (t: string) => (out += t), stderr: () => undefined, cwd: dir, env: { TEMPORA_TZ: 'UTC' } };
    expect(await runAsync(['models', '--data', join(dir, 'cli-data')], io)).toBe(0);
    const engine = await TemporaEngine.open({ dataDir: join(dir, 'cli-data'), autoLoadModels: false, startWorker: false });
    const recommended = engine.models.entries().filter((e) => e.recommended).map((e) => e.id);
    await engine.close();
    const marked = out.split('\n').filter((l) => l.includes('← recommended')).map((l) => l.trim().split(/\s+/)[0]);
    expect(marked).toEqual(recommended);
  });
});
