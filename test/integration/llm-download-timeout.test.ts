/**
 * A model download against servers that do not behave (issue 13): one that accepts the connection
 * and never answers, one that answers and stalls in the middle of the body, and a port nobody
 * listens on. Each fails within its timeout (set small here), in words naming the host, instead of
 * hanging for minutes — as a plain https entry of the catalogue used to while an hf: one failed fast.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { downloadModel, hostOf, ModelDownloadError } from '../../electron/llm/model-download';
import { startRangeResponse } from '../fixtures/range-response';

let dir: string;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tempora-download-timeout-'));
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A loopback server with the given request handler; its sockets are destroyed when the test ends. */
async function serve(handler: http.RequestListener): Promise<string> {
  const sockets = new Set<Socket>();
  const server = http.createServer(handler);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  closers.push(
    () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/model.gguf`;
}

async function failure(uri: string, fileName: string): Promise<{ error: ModelDownloadError; ms: number }> {
  const started = performance.now();
  const error = await downloadModel({ uri, dirPath: dir, fileName, connectTimeoutMs: 800, idleTimeoutMs: 800 }).then(
    () => {
      throw new Error('the download succeeded');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelDownloadError);
  return { error: error as ModelDownloadError, ms: performance.now() - started };
}

describe('downloads never hang silently', () => {
  it('a server that accepts and never answers: "Could not reach HOST" within the connect timeout', async () => {
    const uri = await serve(() => {
      // never answers
    });
    const { error, ms } = await failure(uri, 'silent.gguf');
    expect(error.message).toMatch(/^Could not reach 127\.0\.0\.1:\d+ — check your connection \(no answer within 800 ms/);
    expect(ms).toBeLessThan(5_000);
  }, 20_000);

  it('a server that stalls mid-body: "stalled: no data for …" within the idle timeout', async () => {
    const uri = await serve((req, res) => {
      const { head } = startRangeResponse(req, res, 8 << 20);
      if (!head) res.write(Buffer.alloc(64 * 1024, 0x47)); // then nothing more
    });
    const { error, ms } = await failure(uri, 'stalled.gguf');
    expect(error.message).toMatch(/^the download from 127\.0\.0\.1:\d+ stalled: no data for 800 ms/);
    expect(ms).toBeLessThan(6_000);
  }, 20_000);

  it('a port nobody listens on fails in words, quickly', async () => {
    const uri = await serve(() => undefined);
    await Promise.all(closers.splice(0).map((close) => close()));
    const { error, ms } = await failure(uri, 'refused.gguf');
    expect(error.message).toMatch(/^Could not reach 127\.0\.0\.1:\d+ — check your connection/);
    expect(ms).toBeLessThan(5_000);
  }, 20_000);

  it('a Cancel pressed before the connection starts is a cancel, not a failed connection', async () => {
    let requests = 0;
    const uri = await serve(() => void requests++); // accepts, never answers
    const controller = new AbortController();
    // Aborted while the download loads its runtime (an import, before any connection).
    const download = downloadModel({ uri, dirPath: dir, fileName: 'cancelled-early.gguf', connectTimeoutMs: 800, idleTimeoutMs: 800, signal: controller.signal });
    controller.abort();
    const error = await download.then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ModelDownloadError);
    expect(error).toMatchObject({ code: 'cancelled', message: 'Download of cancelled-early.gguf was cancelled' });
    expect(requests).toBe(0);
  });

  it('names the host of an hf: URI as huggingface.co', () => {
    expect(hostOf('hf:bartowski/Qwen2.5-14B-Instruct-GGUF/Qwen2.5-14B-Instruct-Q4_K_M.gguf')).toBe('huggingface.co');
    expect(hostOf('https://example.org:8443/m.gguf')).toBe('example.org:8443');
  });
});
