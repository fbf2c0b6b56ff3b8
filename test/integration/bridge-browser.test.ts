/**
 * The bridge as a browser sees it (Playwright with Debian's Chromium): the printed address is
 * exchanged for an HttpOnly, SameSite=Strict cookie and leaves the address bar; the page loads
 * under its CSP and reaches the API over the WebSocket with that cookie alone (no token in the
 * page); a browser without the cookie gets nothing; the CSP stops the page from connecting
 * anywhere else; a
 * page of another local origin gets nothing even when it knows the token; and a DNS-rebinding
 * name for 127.0.0.1 gets nothing either. Skipped, saying why, where Chromium is not installed.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaEngine } from '../../electron/engine/engine';
import { startBridge, type Bridge } from '../../electron/server/bridge-server';
import { FIXTURE_TITLE, writeFixtureRenderer } from './bridge-helpers';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`bridge-browser: skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

let dir: string;
let engine: TemporaEngine;
let bridge: Bridge;
let browser: Browser;
let foreign: Server;
let foreignPort: number;

beforeAll(async () => {
  if (!haveChromium) return;
  dir = mkdtempSync(join(tmpdir(), 'tempora-bridge-browser-'));
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  writeFixtureRenderer(join(dir, 'renderer'), join(dir, 'secret.txt'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false });
  engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' }], { where: 'browser test' });
  bridge = await startBridge({ engine, rendererDir: join(dir, 'renderer'), port: 0 });
  // Another local web page (any other origin on this machine), which the bridge must not serve.
  foreign = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>foreign</title><p>another local page</p>');
  });
  await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
  foreignPort = (foreign.address() as AddressInfo).port;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // evil.example resolves to 127.0.0.1, as a DNS-rebinding attacker would arrange.
    // Chromium's own local-network protections are off, so that the bridge's checks are what is tested.
    args: ['--host-resolver-rules=MAP evil.example 127.0.0.1', '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests,PrivateNetworkAccessSendPreflights'],
  });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (foreign ? foreign.close(resolve) : resolve(undefined)));
  await bridge?.close();
  await engine?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The few DOM pieces the in-page functions use (the Node-side typecheck has no DOM library). */
interface PageElement {
  dataset: Record<string, string | undefined>;
  setAttribute(name: string, value: string): void;
}
interface PageGlobals {
  document: {
    getElementById(id: string): PageElement | null;
    createElement(tag: string): PageElement;
    addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
    body: { append(element: PageElement): void };
  };
  injected?: boolean;
}

/** In the page: one call over the bridge's WebSocket; resolves with the result message or how it failed. */
const callInPage = ([socketUrl, name]: [string, string]) =>
  new Promise<unknown>((resolve) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(socketUrl);
    } catch (error) {
      resolve({ thrown: String(error) });
      return;
    }
    socket.onopen = () => socket.send(JSON.stringify({ type: 'call', id: 1, name, request: {} }));
    socket.onmessage = (event) => {
      resolve(JSON.parse(String(event.data)));
      socket.close();
    };
    socket.onclose = (event) => resolve({ closed: event.code });
    setTimeout(() => resolve({ timeout: true }), 3000);
  });

describe.skipIf(!haveChromium)('the bridge in Chromium', () => {
  it('serves the page, whose script runs under the CSP and reaches the API over the WebSocket', async () => {
    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(bridge.url);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe(FIXTURE_TITLE);
    await expect.poll(() => page.evaluate(() => (globalThis as unknown as PageGlobals).document.getElementById('root')?.dataset.loaded)).toBe('yes');
    // The cookie alone: the socket's address carries no token.
    const result = await page.evaluate(callInPage, [`ws://127.0.0.1:${bridge.port}/api`, 'listFacts'] as [string, string]);
    expect(result).toMatchObject({ type: 'result', id: 1, ok: true, value: { facts: [{ object: 'A' }], total: 1 } });
    expect(violations).toEqual([]);
    await page.close();
  });

  it('exchanges the token for an HttpOnly, SameSite=Strict cookie; the token leaves the address; a reload works', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${bridge.url}#/timeline`);
    expect(page.url()).toBe(`http://127.0.0.1:${bridge.port}/#/timeline`);
    const cookies = await context.cookies(`http://127.0.0.1:${bridge.port}/`);
    expect(cookies).toEqual([expect.objectContaining({ name: `tempora_${bridge.port}`, httpOnly: true, sameSite: 'Strict', path: '/' })]);
    expect(cookies[0]!.value).not.toBe(bridge.token);
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe('');
    const reloaded = await page.reload();
    expect(reloaded?.status()).toBe(200);
    expect(await page.title()).toBe(FIXTURE_TITLE);
    await context.close();
  });

  it('a browser without the cookie gets nothing: not the page, not an asset, not the socket', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const path of ['/', '/index.html', '/assets/app.js', '/%69ndex.html', '/index%2ehtml']) {
      const response = await page.goto(`http://127.0.0.1:${bridge.port}${path}`);
      expect(response?.status(), path).toBe(401);
      expect(await response?.text()).not.toContain(FIXTURE_TITLE);
    }
    const socket = await page.evaluate(callInPage, [`ws://127.0.0.1:${bridge.port}/api`, 'listFacts'] as [string, string]);
    expect(socket).toEqual({ closed: 4401 });
    await context.close();
  });

  it('works when opened as localhost too', async () => {
    const page = await browser.newPage();
    await page.goto(`http://localhost:${bridge.port}/?token=${bridge.token}`);
    expect(page.url()).toBe(`http://localhost:${bridge.port}/`);
    const result = await page.evaluate(callInPage, [`ws://localhost:${bridge.port}/api`, 'listEntities'] as [string, string]);
    expect(result).toMatchObject({ type: 'result', ok: true });
    await page.close();
  });

  it('the CSP keeps the page from connecting anywhere else, or running injected inline code', async () => {
    const page = await browser.newPage();
    await page.goto(bridge.url);
    const blocked = await page.evaluate(async (port) => {
      const page = globalThis as unknown as PageGlobals;
      const document = page.document;
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      try {
        new WebSocket(`ws://127.0.0.1:${port}/`);
      } catch {
        violations.push('thrown');
      }
      await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
      const img = document.createElement('img');
      img.setAttribute('src', 'x:');
      img.setAttribute('onerror', 'window.injected = true');
      document.body.append(img);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { violations, injected: page.injected === true };
    }, foreignPort);
    expect(blocked.injected).toBe(false);
    expect(blocked.violations.filter((v) => v.startsWith('connect-src')).length).toBeGreaterThanOrEqual(2);
    await page.close();
  });

  it('a page of another local origin gets nothing, even knowing the token', async () => {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${foreignPort}/`);
    const socket = await page.evaluate(callInPage, [`ws://127.0.0.1:${bridge.port}/api?token=${bridge.token}`, 'listFacts'] as [string, string]);
    expect(socket).toEqual({ closed: 1006 });
    const fetched = await page.evaluate(async (url) => {
      try {
        const res = await fetch(url);
        return { status: res.status, body: await res.text() };
      } catch (error) {
        return { failed: String(error) };
      }
    }, bridge.url);
    expect(fetched).toHaveProperty('failed'); // no CORS header: the page cannot read anything
    await page.close();
  });

  it('a DNS-rebinding page (evil.example now resolving to 127.0.0.1) gets nothing', async () => {
    const page = await browser.newPage();
    // The attacker's page was served from evil.example:PORT before the name was rebound to
    // 127.0.0.1; its requests to its "own" origin now reach the bridge, naming evil.example.
    await page.route(`http://evil.example:${bridge.port}/attack`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>attacker</title>' }),
    );
    await page.goto(`http://evil.example:${bridge.port}/attack`);
    const stolen = await page.evaluate(async (token) => {
      const res = await fetch(`/?token=${token}`);
      return { status: res.status, body: await res.text() };
    }, bridge.token);
    expect(stolen.status).toBe(421);
    expect(stolen.body).not.toContain(FIXTURE_TITLE);
    const socket = await page.evaluate(callInPage, [`ws://evil.example:${bridge.port}/api?token=${bridge.token}`, 'listFacts'] as [string, string]);
    expect(socket).toEqual({ closed: 1006 });
    await page.close();
  });
});
