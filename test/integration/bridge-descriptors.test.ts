/**
 * No request leaves a file descriptor open (finding 1 of issue 13): thousands of requests -
 * complete, aborted mid-body, HEAD, unauthorized, not found - and the process holds as many
 * descriptors afterwards as before, give or take a small constant. The old bridge piped a read
 * stream into the response; every client that left mid-body left that stream paused with its
 * descriptor open, until EMFILE took the bridge down.
 *
 * No sleeps: each request is waited for by its events (end, close), then /proc/self/fd is polled
 * on setImmediate for a bounded time while the server side finishes closing. Linux only.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaEngine } from '../../electron/engine/engine';
import { startBridge, type Bridge } from '../../electron/server/bridge-server';
import { rawRequest, writeFixtureRenderer } from './bridge-helpers';

const haveProcFd = existsSync('/proc/self/fd');
const REQUESTS = 3_000;
const CONCURRENCY = 50;
/** Descriptors the process may hold more after than before (timers, the thread pool, a socket closing). */
const SLACK = 12;
/** Large enough that the server cannot write it all before the client leaves. */
const BIG_BYTES = 4 * 1024 * 1024;

let dir: string;
let engine: TemporaEngine;
let bridge: Bridge;
let cookie: string;

beforeAll(async () => {
  if (!haveProcFd) return;
  dir = mkdtempSync(join(tmpdir(), 'tempora-bridge-fds-'));
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  writeFixtureRenderer(join(dir, 'renderer'), join(dir, 'secret.txt'));
  writeFileSync(join(dir, 'renderer', 'assets', 'big.js'), `/* ${'x'.repeat(BIG_BYTES)} */\n`);
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false });
  bridge = await startBridge({ engine, rendererDir: join(dir, 'renderer'), port: 0 });
  const exchange = await rawRequest(bridge.port, `/?token=${bridge.token}`);
  cookie = String(([] as string[]).concat(exchange.headers['set-cookie'] ?? [])[0] ?? '').split(';')[0]!;
});

afterAll(async () => {
  await bridge?.close();
  await engine?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const openDescriptors = (): number => readdirSync('/proc/self/fd').length;

type Kind = 'complete' | 'page' | 'aborted' | 'head' | 'unauthorized' | 'not-found';
const KINDS: Kind[] = ['complete', 'aborted', 'head', 'unauthorized', 'page', 'aborted', 'not-found', 'complete'];

/** One request on its own connection; resolves once the client's socket is closed. */
function one(kind: Kind): Promise<number> {
  const path = kind === 'aborted' || kind === 'head' ? '/assets/big.js' : kind === 'page' ? '/' : kind === 'not-found' ? '/assets/none.js' : '/assets/app.js';
  const headers: Record<string, string> = { Host: `127.0.0.1:${bridge.port}` };
  if (kind !== 'unauthorized') headers.Cookie = cookie;
  return new Promise((resolve, reject) => {
    let status = 0;
    const req = request({ host: '127.0.0.1', port: bridge.port, path, method: kind === 'head' ? 'HEAD' : 'GET', headers, agent: false }, (res) => {
      status = res.statusCode ?? 0;
      if (kind === 'aborted') {
        // Leave mid-body: after the first chunk, of megabytes.
        res.once('data', () => req.destroy());
        return;
      }
      res.resume();
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (kind !== 'aborted') reject(error);
    });
    req.on('close', () => resolve(status));
    req.end();
  });
}

/** Polls until the count is down to `limit`, for at most `ms` (a bounded loop on setImmediate, no sleep). */
async function settle(limit: number, ms: number): Promise<number> {
  const until = Date.now() + ms;
  let count = openDescriptors();
  while (count > limit && Date.now() < until) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    count = openDescriptors();
  }
  return count;
}

describe.skipIf(!haveProcFd)('descriptors', () => {
  it(`${REQUESTS} requests (complete, aborted mid-body, HEAD, unauthorized, not found) leave no descriptor open`, async () => {
    // Warm up: the thread pool, the database and the first connections take their descriptors once.
    for (const kind of KINDS) await one(kind);
    const before = await settle(0, 200);

    const statuses = new Map<string, number>();
    let next = 0;
    const worker = async () => {
      while (next < REQUESTS) {
        const kind = KINDS[next++ % KINDS.length]!;
        const status = await one(kind);
        const key = `${kind} ${status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    const after = await settle(before + SLACK, 5_000);
    expect(after - before, `open descriptors: ${before} before, ${after} after ${REQUESTS} requests`).toBeLessThanOrEqual(SLACK);
    // Each kind was answered as it should have been (the aborted ones had begun a 200).
    expect([...statuses.keys()].sort()).toEqual(['aborted 200', 'complete 200', 'head 200', 'not-found 404', 'page 200', 'unauthorized 401'].sort());

    // And the bridge still answers the printed address.
    expect((await rawRequest(bridge.port, `/?token=${bridge.token}`)).status).toBe(303);
  });
});
