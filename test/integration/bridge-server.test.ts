/**
 * The loopback bridge with a real engine on a temporary data directory and real WebSocket
 * clients: calls round-trip, events arrive, and everything that is not the bridge's own page with
 * its token (or the session cookie it was exchanged for) gets nothing - a wrong or missing token,
 * a foreign Origin, a foreign Host (DNS rebinding), other sites, path traversal, malformed or
 * oversized messages. The cookie exchange itself is bridge-auth.test.ts.
 */
import { connect } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FactRecord } from '../../shared/memory-schema';
import { TemporaEngine } from '../../electron/engine/engine';
import { startBridge, type Bridge } from '../../electron/server/bridge-server';
import { FIXTURE_TITLE, openClient, openSocket, rawRequest, writeFixtureRenderer, type BridgeTestClient } from './bridge-helpers';

let dir: string;
let engine: TemporaEngine;
let bridge: Bridge;
let client: BridgeTestClient;
/** `tempora_<port>=…`: the session cookie the printed address is exchanged for. */
let cookie: string;
const SECRET = 'the secret outside the renderer directory';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-bridge-'));
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  writeFixtureRenderer(join(dir, 'renderer'), join(dir, 'secret.txt'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false });
  engine.memory.facts.observe(
    [
      { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' },
      { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' },
      { subject: 'me', predicate: 'likes', object: '抹茶', fact: '私は抹茶が好きです。', reference_time: '2026-09-02T10:00:00+09:00' },
    ],
    { where: 'bridge test' },
  );
  bridge = await startBridge({ engine, rendererDir: join(dir, 'renderer'), port: 0 });
  client = await openClient(bridge.port, bridge.token);
  cookie = await sessionCookieOf(bridge.port, bridge.token);
});

/** The Cookie header value a browser would send after opening the printed address. */
async function sessionCookieOf(port: number, token: string): Promise<string> {
  const res = await rawRequest(port, `/?token=${token}`);
  return String(([] as string[]).concat(res.headers['set-cookie'] ?? [])[0] ?? '').split(';')[0]!;
}

afterAll(async () => {
  client?.close();
  await bridge?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('where the bridge listens', () => {
  it('prints a 127.0.0.1 address with a fresh 32-byte token', () => {
    expect(bridge.url).toBe(`http://127.0.0.1:${bridge.port}/?token=${bridge.token}`);
    expect(bridge.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(bridge.port).toBeGreaterThan(0);
  });

  it('binds to 127.0.0.1 only: other loopback addresses are refused', async () => {
    const tryConnect = (host: string) =>
      new Promise<string>((resolve) => {
        const socket = connect({ host, port: bridge.port });
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
    expect(await tryConnect('127.0.0.1')).toBe('connected');
    // A wildcard (0.0.0.0 or ::) bind would accept these too.
    expect(await tryConnect('127.0.0.2')).not.toBe('connected');
    expect(await tryConnect('::1')).not.toBe('connected');
  });
});

describe('the page', () => {
  it('is served with the session cookie, under a strict CSP whose connect-src is this bridge only', async () => {
    const res = await rawRequest(bridge.port, '/', { Cookie: cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(FIXTURE_TITLE);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src ws://127.0.0.1:${bridge.port} ws://localhost:${bridge.port}`);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(res.body).toContain(`connect-src ws://127.0.0.1:${bridge.port} ws://localhost:${bridge.port}`);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is served to localhost:PORT too', async () => {
    const exchange = await rawRequest(bridge.port, `/?token=${bridge.token}`, { Host: `localhost:${bridge.port}` });
    expect(exchange.status).toBe(303);
    const res = await rawRequest(bridge.port, '/', { Host: `localhost:${bridge.port}`, Cookie: cookie });
    expect(res.status).toBe(200);
  });

  it.each([
    ['no token', '/'],
    ['a wrong token', '/?token=wrong'],
    ['an almost right token', '/?token=ALMOST'],
    ['the token in another parameter', '/?t=TOKEN'],
    ['index.html without the token', '/index.html'],
  ])('is refused with 401 for %s', async (_label, path) => {
    const almost = `${bridge.token.slice(0, -1)}${bridge.token.endsWith('A') ? 'B' : 'A'}`;
    const res = await rawRequest(bridge.port, path.replace('ALMOST', almost).replace('TOKEN', bridge.token));
    expect(res.status).toBe(401);
    expect(res.body).not.toContain(FIXTURE_TITLE);
  });

  it('serves the static files of the renderer', async () => {
    const js = await rawRequest(bridge.port, '/assets/app.js', { Cookie: cookie });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.body).toContain('dataset.loaded');
    expect((await rawRequest(bridge.port, '/assets/app.css', { Cookie: cookie })).status).toBe(200);
    expect((await rawRequest(bridge.port, '/assets/missing.js', { Cookie: cookie })).status).toBe(404);
    expect((await rawRequest(bridge.port, '/assets/notes.unknownext', { Cookie: cookie })).status).toBe(404);
    expect((await rawRequest(bridge.port, '/assets/', { Cookie: cookie })).status).toBe(404);
  });

  it.each([
    '/../secret.txt',
    '/assets/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/assets/%2e%2e/%2e%2e/secret.txt',
    '/..%2fsecret.txt',
    '/..%5csecret.txt',
    '/%2fsecret.txt',
    '//secret.txt',
    '/DIR_SECRET',
    '/assets/link-to-secret.txt',
    '/assets/app.js%00.txt',
    '/%E0%A4%A',
  ])('refuses path traversal: %s', async (path) => {
    const res = await rawRequest(bridge.port, path.replace('DIR_SECRET', encodeURIComponent(join(dir, 'secret.txt'))), { Cookie: cookie });
    expect([400, 404]).toContain(res.status);
    expect(res.body).not.toContain(SECRET);
  });

  it('answers only GET and HEAD', async () => {
    expect((await rawRequest(bridge.port, `/?token=${bridge.token}`, {}, 'POST')).status).toBe(405);
    expect((await rawRequest(bridge.port, '/', { Cookie: cookie }, 'DELETE')).status).toBe(405);
    const head = await rawRequest(bridge.port, '/', { Cookie: cookie }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const asset = await rawRequest(bridge.port, '/assets/app.js', { Cookie: cookie }, 'HEAD');
    expect(asset.status).toBe(200);
    expect(Number(asset.headers['content-length'])).toBeGreaterThan(0);
    expect(asset.body).toBe('');
  });

  it.each([
    ['a rebinding name', 'evil.example'],
    ['a rebinding name on the right port', 'evil.example:PORT'],
    ['the right name on another port', '127.0.0.1:1'],
    ['localhost without the port', 'localhost'],
    ['0.0.0.0', '0.0.0.0:PORT'],
    ['an empty Host', ''],
  ])('gives nothing to a request whose Host is %s (DNS rebinding)', async (_label, host) => {
    const res = await rawRequest(bridge.port, `/?token=${bridge.token}`, { Host: host.replace('PORT', String(bridge.port)) });
    expect([400, 421]).toContain(res.status);
    expect(res.body).not.toContain(FIXTURE_TITLE);
    const asset = await rawRequest(bridge.port, '/assets/app.js', { Host: host.replace('PORT', String(bridge.port)), Cookie: cookie });
    expect([400, 421]).toContain(asset.status);
    expect(asset.body).not.toContain('dataset');
  });

  it('gives nothing to other sites', async () => {
    const foreignOrigin = await rawRequest(bridge.port, '/assets/app.js', { Origin: 'http://evil.example', Cookie: cookie });
    expect(foreignOrigin.status).toBe(403);
    expect(foreignOrigin.body).not.toContain('dataset');
    const otherLocalPage = await rawRequest(bridge.port, '/assets/app.js', { Origin: 'http://127.0.0.1:1', Cookie: cookie });
    expect(otherLocalPage.status).toBe(403);
    const crossSite = await rawRequest(bridge.port, `/?token=${bridge.token}`, { 'Sec-Fetch-Site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    const sameSite = await rawRequest(bridge.port, '/assets/app.js', { 'Sec-Fetch-Site': 'same-site', Cookie: cookie });
    expect(sameSite.status).toBe(403);
    const own = await rawRequest(bridge.port, '/assets/app.js', { Origin: `http://127.0.0.1:${bridge.port}`, 'Sec-Fetch-Site': 'same-origin', Cookie: cookie });
    expect(own.status).toBe(200);
  });
});

describe('the WebSocket', () => {
  it('refuses a foreign Origin, a missing Origin and a foreign Host before the handshake', async () => {
    for (const origin of ['http://evil.example', `http://evil.example:${bridge.port}`, 'http://127.0.0.1:1', `https://127.0.0.1:${bridge.port}`, 'null']) {
      expect(await openSocket(bridge.port, bridge.token, { origin })).toEqual({ kind: 'refused', status: 403 });
    }
    expect(await openSocket(bridge.port, bridge.token, { origin: null })).toEqual({ kind: 'refused', status: 403 });
    expect(await openSocket(bridge.port, bridge.token, { host: `evil.example:${bridge.port}` })).toEqual({ kind: 'refused', status: 421 });
    expect(await openSocket(bridge.port, bridge.token, { host: `evil.example:${bridge.port}`, origin: `http://evil.example:${bridge.port}` })).toEqual({
      kind: 'refused',
      status: 421,
    });
  });

  it('accepts the page opened as localhost:PORT', async () => {
    const connection = await openSocket(bridge.port, bridge.token, { host: `localhost:${bridge.port}`, origin: `http://localhost:${bridge.port}` });
    expect(connection.kind).toBe('open');
    if (connection.kind === 'open') {
      expect((await connection.client.call('listEntities', {})).ok).toBe(true);
      connection.client.close();
    }
  });

  it.each([
    ['a wrong token', 'wrong'],
    ['no token', null],
    ['an empty token', ''],
  ])('closes with 4401 at once, before any message, for %s', async (_label, token) => {
    const connection = await openSocket(bridge.port, bridge.token, { token });
    expect(connection.kind).toBe('open');
    if (connection.kind !== 'open') return;
    connection.client.sendRaw(JSON.stringify({ type: 'call', id: 1, name: 'listFacts', request: {} }));
    const closed = await connection.client.closed;
    expect(closed.code).toBe(4401);
    expect(closed.reason).toMatch(/token/);
    expect(connection.client.messages).toEqual([]);
  });

  it('has no other path', async () => {
    const res = await rawRequest(bridge.port, `/api?token=${bridge.token}`);
    expect(res.status).toBe(426);
  });
});

describe('calls', () => {
  it('round-trip: listFacts', async () => {
    const current = await client.value<{ facts: FactRecord[]; total: number }>('listFacts', {});
    expect(current.facts.map((f) => f.object).sort()).toEqual(['B', '抹茶']);
    expect(current.total).toBe(2);
    const asOf = await client.value<{ facts: FactRecord[] }>('listFacts', { asOf: '2026-09-10T00:00:00.000Z', predicate: 'manager' });
    expect(asOf.facts.map((f) => f.object)).toEqual(['A']);
  });

  it('round-trip: search finds what was observed, Japanese included', async () => {
    engine.memory.facts.observe([{ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-09-20T10:00:00+09:00', cardinality: 'one' }], {
      where: 'bridge test',
    });
    const result = await client.value<{ hits: Array<{ fact: FactRecord }>; vectorsUsed: boolean }>('search', { query: 'Kyoto' });
    expect(result.hits.map((h) => h.fact.object)).toContain('Kyoto');
    expect(result.vectorsUsed).toBe(false);
    const japanese = await client.value<{ hits: Array<{ fact: FactRecord }> }>('search', { query: '抹茶' });
    expect(japanese.hits.map((h) => h.fact.object)).toContain('抹茶');
  });

  it('a call made without a request gets the empty request', async () => {
    const result = await client.call('listConversations');
    expect(result).toMatchObject({ ok: true, value: expect.any(Array) });
  });

  it('pickModelFile answers null: the browser types a path instead', async () => {
    expect(await client.value('pickModelFile', {})).toEqual({ path: null });
  });

  it('reports a failing handler as an error result', async () => {
    const result = await client.call('factDetails', { id: 'no-such-fact' });
    expect(result.ok).toBe(false);
  });

  it('answers calls in flight concurrently, each by its id', async () => {
    const results = await Promise.all([client.call('listFacts', {}), client.call('listEntities', {}), client.call('modelStatus', {})]);
    expect(results.map((r) => r.ok)).toEqual([true, true, true]);
  });
});

describe('events', () => {
  it('memoryChanged reaches every client after editFact', async () => {
    const other = await openClient(bridge.port, bridge.token);
    const [fact] = (await client.value<{ facts: FactRecord[] }>('listFacts', { predicate: 'likes' })).facts;
    const edited = await client.value<FactRecord>('editFact', { id: fact!.id, fact: '私は抹茶がとても好きです。' });
    expect(edited.supersedes).toBe(fact!.id);
    const isEdit = (m: { type: string; event?: { name: string; payload: Record<string, unknown> } }) =>
      m.type === 'event' && m.event?.name === 'memoryChanged' && m.event.payload.reason === 'edit';
    await expect(client.next(isEdit)).resolves.toMatchObject({ type: 'event', event: { name: 'memoryChanged', payload: { reason: 'edit' } } });
    await expect(other.next(isEdit)).resolves.toBeTruthy();
    other.close();
  });

  it('forwards what the engine emits, and drops an event that breaks the contract', async () => {
    engine.emit({ name: 'downloadProgress', payload: { id: 'm', downloadedBytes: 5, totalBytes: 10, done: false, error: null } });
    engine.emit({ name: 'memoryChanged', payload: { reason: 42 } } as never);
    engine.emit({ name: 'modelsChanged', payload: {} });
    await client.next((m) => m.type === 'event' && m.event.name === 'modelsChanged');
    expect(client.messages.filter((m) => m.type === 'event' && m.event.name === 'downloadProgress')).toHaveLength(1);
    expect(client.messages.some((m) => m.type === 'event' && m.event.name === 'memoryChanged' && m.event.payload.reason === 42)).toBe(false);
  });
});

describe('malformed messages', () => {
  const last = async (test: (m: { type: string; id?: number | null }) => boolean) => client.next(test);

  it('answer an error result, naming what is wrong, and the server keeps serving', async () => {
    const before = client.messages.length;
    client.sendRaw('this is not JSON');
    client.sendRaw('[1,2,3]');
    client.sendRaw('{"type":"call","name":"listFacts"}');
    const errors = await new Promise<unknown[]>((resolve) => {
      const check = () => {
        const fresh = client.messages.slice(before).filter((m) => m.type === 'result' && m.id === null);
        if (fresh.length >= 3) resolve(fresh);
        else setTimeout(check, 10);
      };
      check();
    });
    expect(errors).toEqual([
      { type: 'result', id: null, ok: false, error: expect.stringMatching(/^not JSON/) },
      { type: 'result', id: null, ok: false, error: expect.stringMatching(/JSON object/) },
      { type: 'result', id: null, ok: false, error: expect.stringMatching(/^id: must be an integer/) },
    ]);

    expect(await client.call('dropTables', {})).toMatchObject({ ok: false, error: 'unknown call "dropTables"' });
    expect(await client.call('__proto__', {})).toMatchObject({ ok: false, error: expect.stringMatching(/unknown call/) });
    expect(await client.call('toString', {})).toMatchObject({ ok: false, error: expect.stringMatching(/unknown call/) });
    expect(await client.call('listFacts', { asOf: 'yesterday' })).toMatchObject({ ok: false, error: expect.stringMatching(/listFacts: invalid request: asOf:/) });
    expect(await client.call('listFacts', { limit: -1 })).toMatchObject({ ok: false, error: expect.stringMatching(/limit:/) });
    expect(await client.call('listFacts', { subject: 'me', sql: 'DROP TABLE facts' })).toMatchObject({ ok: false, error: expect.stringMatching(/invalid request/) });
    expect(await client.call('editFact', { fact: 'no id' })).toMatchObject({ ok: false, error: expect.stringMatching(/editFact: invalid request: id:/) });
    expect(await client.call('listFacts', 'all of them')).toMatchObject({ ok: false, error: expect.stringMatching(/invalid request/) });

    client.sendRaw(JSON.stringify({ type: 'subscribe', id: 900 }));
    expect(await last((m) => m.id === 900)).toMatchObject({ ok: false, error: expect.stringMatching(/type: must be "call"/) });
    client.sendRaw(JSON.stringify({ type: 'call', id: 901, name: 7 }));
    expect(await last((m) => m.id === 901)).toMatchObject({ ok: false, error: expect.stringMatching(/name:/) });
    client.sendRaw(JSON.stringify({ type: 'call', id: 902, name: 'listFacts', request: {}, extra: true }));
    expect(await last((m) => m.id === 902)).toMatchObject({ ok: false, error: expect.stringMatching(/unexpected field "extra"/) });

    // Still serving, on the same connection.
    expect((await client.call('listFacts', {})).ok).toBe(true);
  });

  it('a binary frame closes that connection only', async () => {
    const victim = await openClient(bridge.port, bridge.token);
    victim.sendRaw(Buffer.from([1, 2, 3]), true);
    expect((await victim.closed).code).toBe(1003);
    expect((await client.call('listEntities', {})).ok).toBe(true);
  });

  it('a message over the size limit closes that connection only', async () => {
    const victim = await openClient(bridge.port, bridge.token);
    victim.sendRaw(JSON.stringify({ type: 'call', id: 1, name: 'previewImport', request: { document: 'x'.repeat(26 * 1024 * 1024) } }));
    expect((await victim.closed).code).toBe(1009);
    expect((await client.call('listEntities', {})).ok).toBe(true);
  });

  it('a large import within the limit is accepted', async () => {
    const exported = await client.value<{ facts: unknown[] }>('exportMemory', {});
    const preview = await client.value<{ valid: boolean; facts: number; clashes: number }>('previewImport', { document: exported });
    expect(preview).toMatchObject({ valid: true, facts: exported.facts.length });
    const bad = await client.value<{ valid: boolean; error: string }>('previewImport', { document: { format: 'something else' } });
    expect(bad.valid).toBe(false);
    expect(bad.error).toBeTruthy();
  });
});

describe('closing', () => {
  it('says goodbye to clients, stops listening, and leaves the engine open', async () => {
    const second = await startBridge({ engine, rendererDir: join(dir, 'renderer'), port: 0 });
    expect(second.token).not.toBe(bridge.token);
    expect((await rawRequest(second.port, `/?token=${bridge.token}`)).status).toBe(401);
    const connected = await openClient(second.port, second.token);
    await second.close();
    expect((await connected.closed).code).toBe(1001);
    await expect(rawRequest(second.port, '/')).rejects.toThrow(/ECONNREFUSED/);
    await second.close(); // idempotent
    expect(engine.memory.facts.list({}).length).toBeGreaterThan(0);
  });

  it('refuses a port in use, saying so', async () => {
    await expect(startBridge({ engine, rendererDir: join(dir, 'renderer'), port: bridge.port })).rejects.toThrow(/in use/);
  });

  it('refuses a renderer directory without index.html', async () => {
    await expect(startBridge({ engine, rendererDir: dir + '/nowhere', port: 0 })).rejects.toThrow(/npm run build/);
  });
});
