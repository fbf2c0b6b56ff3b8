/**
 * The bridge's credential, end to end (finding 2 of issue 13): the printed `/?token=T` is
 * exchanged once for an HttpOnly, SameSite=Strict cookie named after the port, and without that
 * cookie (or the token) nothing is served - the page, an asset, the page by another spelling
 * (`/%69ndex.html`, `/index%2ehtml`), the WebSocket. With it, every path is checked once decoded
 * and normalised: the page by another spelling is still the page under this bridge's CSP, never
 * the raw file, and nothing outside the renderer directory is reachable.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaEngine } from '../../electron/engine/engine';
import { startBridge, type Bridge } from '../../electron/server/bridge-server';
import { FIXTURE_TITLE, openSocket, rawRequest, writeFixtureRenderer, type RawResponse } from './bridge-helpers';

let dir: string;
let engine: TemporaEngine;
let bridge: Bridge;
let exchange: RawResponse;
let cookie: string;
const SECRET = 'the secret outside the renderer directory';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-bridge-auth-'));
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  writeFixtureRenderer(join(dir, 'renderer'), join(dir, 'secret.txt'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false });
  bridge = await startBridge({ engine, rendererDir: join(dir, 'renderer'), port: 0 });
  exchange = await rawRequest(bridge.port, `/?token=${bridge.token}`);
  cookie = setCookies(exchange)[0]?.split(';')[0] ?? '';
});

afterAll(async () => {
  await bridge?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

function setCookies(res: RawResponse): string[] {
  return ([] as string[]).concat(res.headers['set-cookie'] ?? []);
}

/** A WebSocket with the page's Origin and the given Cookie header, no token; resolves how it ended up. */
function socketWithCookie(cookieHeader: string, path = '/api'): Promise<{ open: true; close: Promise<number>; ws: WebSocket } | { open: false; status: number }> {
  const ws = new WebSocket(`ws://127.0.0.1:${bridge.port}${path}`, { origin: `http://127.0.0.1:${bridge.port}`, headers: { Cookie: cookieHeader } });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve({ open: false, status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', reject);
    const close = new Promise<number>((done) => ws.once('close', (code) => done(code)));
    ws.once('open', () => resolve({ open: true, close, ws }));
  });
}

/** An upgrade request written by hand; resolves with the first line of the answer. */
function rawUpgrade(path: string, cookieHeader: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: bridge.port }, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\nOrigin: http://127.0.0.1:${bridge.port}\r\nCookie: ${cookieHeader}\r\n` +
          'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
    });
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('the exchange', () => {
  it('answers the printed address with 303 to / and an HttpOnly, SameSite=Strict cookie named after the port', () => {
    expect(exchange.status).toBe(303);
    expect(exchange.headers.location).toBe('/');
    expect(exchange.body).not.toContain(FIXTURE_TITLE);
    const [set] = setCookies(exchange);
    expect(set).toMatch(new RegExp(`^tempora_${bridge.port}=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=/$`));
    // The cookie is a secret of its own, not the token.
    expect(cookie).not.toContain(bridge.token);
  });

  it('answers /index.html?token=T the same way, and refuses a wrong token even beside a good cookie', async () => {
    const res = await rawRequest(bridge.port, `/index.html?token=${bridge.token}`);
    expect(res.status).toBe(303);
    expect(setCookies(res)[0]?.split(';')[0]).toBe(cookie);
    const stale = await rawRequest(bridge.port, '/?token=stale', { Cookie: cookie });
    expect(stale.status).toBe(401);
    expect(setCookies(stale)).toEqual([]);
  });

  it('the cookie opens the page, its assets and the WebSocket; the page is rewritten for this bridge', async () => {
    const page = await rawRequest(bridge.port, '/', { Cookie: cookie });
    expect(page.status).toBe(200);
    expect(page.body).toContain(FIXTURE_TITLE);
    expect(page.body).toContain(`connect-src ws://127.0.0.1:${bridge.port}`);
    expect((await rawRequest(bridge.port, '/assets/app.js', { Cookie: `other=1; ${cookie}; more=2` })).status).toBe(200);
    const socket = await socketWithCookie(cookie);
    expect(socket.open).toBe(true);
    if (socket.open) {
      const answer = new Promise<string>((resolve) => socket.ws.once('message', (data) => resolve((data as Buffer).toString('utf8'))));
      socket.ws.send(JSON.stringify({ type: 'call', id: 1, name: 'listEntities', request: {} }));
      expect(JSON.parse(await answer)).toMatchObject({ type: 'result', id: 1, ok: true });
      socket.ws.close();
    }
  });
});

describe('without the cookie', () => {
  it.each([
    '/',
    '/index.html',
    '/assets/app.js',
    '/assets/app.css',
    '/%69ndex.html',
    '/index%2ehtml',
    '/assets/%61pp.js',
    '/./assets/app.js',
    '//assets/app.js',
    '/assets/missing.js',
    '/favicon.ico',
    '/api',
  ])('%s gets 401 and nothing else', async (path) => {
    const res = await rawRequest(bridge.port, path);
    expect(res.status).toBe(401);
    expect(res.body).toMatch(/^Unauthorized: open the address that `tempora serve` printed/);
    expect(res.body).not.toContain(FIXTURE_TITLE);
    expect(res.body).not.toContain('dataset');
  });

  it.each([
    ['a wrong secret', (c: string) => c.replace(/=.*/, '=wrong')],
    ['the secret under another port’s name', (c: string) => c.replace(/^tempora_\d+/, 'tempora_1')],
    ['the token as the cookie', () => `tempora_PORT=TOKEN`],
    ['an empty value', (c: string) => c.replace(/=.*/, '=')],
  ])('%s gets 401, for the page, an asset and the WebSocket', async (_label, make) => {
    const forged = make(cookie).replace('PORT', String(bridge.port)).replace('TOKEN', bridge.token);
    expect((await rawRequest(bridge.port, '/', { Cookie: forged })).status).toBe(401);
    expect((await rawRequest(bridge.port, '/assets/app.js', { Cookie: forged })).status).toBe(401);
    const socket = await socketWithCookie(forged);
    expect(socket.open).toBe(true);
    if (socket.open) expect(await socket.close).toBe(4401);
  });

  it('the cookie of another start of the bridge is refused', async () => {
    const second = await startBridge({ engine, rendererDir: join(dir, 'renderer'), port: 0 });
    try {
      const theirs = setCookies(await rawRequest(second.port, `/?token=${second.token}`))[0]!.split(';')[0]!;
      const secret = theirs.split('=')[1];
      expect((await rawRequest(bridge.port, '/', { Cookie: `tempora_${bridge.port}=${secret}` })).status).toBe(401);
      expect((await rawRequest(second.port, '/', { Cookie: cookie.replace(/^tempora_\d+/, `tempora_${second.port}`) })).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});

describe('with the cookie, every path is decoded once and normalised', () => {
  it.each(['/%69ndex.html', '/index%2ehtml', '/./index.html', '//index.html'])('%s is the page under this bridge’s CSP, not the raw file', async (path) => {
    const res = await rawRequest(bridge.port, path, { Cookie: cookie });
    expect(res.status).toBe(200);
    expect(res.body).toContain(`connect-src ws://127.0.0.1:${bridge.port}`);
    expect(res.body).not.toContain('&#39;self&#39;; connect-src &#39;self&#39;');
  });

  it.each([
    ['/%2e%2e/secret.txt', 400],
    ['/.%2e/secret.txt', 400],
    ['/assets/..%2f..%2fsecret.txt', 400],
    ['/assets/%2e%2e%5csecret.txt', 400],
    ['/%252e%252e/secret.txt', 404],
    ['/%C0%AE%C0%AE/secret.txt', 400],
    ['/%E0%80%AE/secret.txt', 400],
    ['/assets/app.js%00', 400],
    ['/assets/app.js%0a', 400],
    ['/assets/..\\..\\secret.txt', 400],
    ['/assets/%2fetc/passwd', 400],
    ['/.hidden.json', 404],
    ['/assets/link-to-secret.txt', 404],
  ])('%s is answered %i in words, never with the file outside', async (path, status) => {
    const res = await rawRequest(bridge.port, path, { Cookie: cookie });
    expect(res.status).toBe(status);
    expect(res.body).toMatch(status === 400 ? /^Bad request: .+\.\n$/ : /^Not found\.\n$/);
    expect(res.body).not.toContain(SECRET);
  });

  it('the WebSocket is at /api only, by any spelling that normalises to it', async () => {
    const encoded = await socketWithCookie(cookie, '/%61pi');
    expect(encoded.open).toBe(true);
    if (encoded.open) encoded.ws.close();
    // (The ws client normalises its URL itself: a raw upgrade sends `..` as it is.)
    expect(await rawUpgrade('/api/../api', cookie)).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawUpgrade('/api%2f', cookie)).toMatch(/^HTTP\/1\.1 400 /);
    expect(await socketWithCookie(cookie, '/other')).toEqual({ open: false, status: 404 });
    expect((await openSocket(bridge.port, bridge.token, { origin: 'http://evil.example' })).kind).toBe('refused');
  });
});
