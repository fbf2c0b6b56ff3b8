/**
 * Resource subscriptions over Streamable HTTP (issue 27 item 4): a 2025-era client subscribes with
 * resources/subscribe and is told of each change on the standalone GET stream of its session; a
 * 2026-07-28 client hears them on its subscriptions/listen stream. Subscription is advertised only
 * where it is delivered: a legacy request outside a session is not offered it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaEngine } from '../../electron/engine/index';
import { CURRENT_FACTS_URI, createMcpHttpHandler, type McpHttpRequestHandler } from '../../electron/mcp/index';
import { MAX_SESSIONS } from '../../electron/mcp/mcp-sessions';

let dir: string;
let engine: TemporaEngine;
let handler: McpHttpRequestHandler;
let server: Server;
let url: URL;
const token = randomBytes(24).toString('base64url');
const auth = { authorization: `Bearer ${token}` };

async function connect(mode: 'legacy' | 'auto'): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'tempora-subscriptions-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: auth } });
  await client.connect(transport);
  return { client, transport };
}

/** Every resources/updated notification a client receives, awaited one at a time. */
function updates(client: Client): { next(): Promise<string>; received: string[] } {
  const received: string[] = [];
  const waiting: ((uri: string) => void)[] = [];
  let taken = 0;
  client.setNotificationHandler('notifications/resources/updated', (n) => {
    received.push(n.params.uri);
    waiting.shift()?.(n.params.uri);
  });
  return {
    received,
    next: () => {
      const index = taken++;
      return index < received.length ? Promise.resolve(received[index]!) : new Promise((done) => waiting.push(done));
    },
  };
}

const livesIn = (city: string) => ({ facts: [{ subject: 'me', predicate: 'lives in', object: city, fact: `I live in ${city}.`, cardinality: 'one' }] });

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A raw request to /mcp; for an event stream, resolves at its headers and closes it. */
function raw(method: string, headers: Record<string, string>, body?: unknown): Promise<RawResponse> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: url.port, path: '/mcp', method, headers: { accept: 'application/json, text/event-stream', ...auth, ...(body ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      if (method === 'GET' && res.headers['content-type']?.startsWith('text/event-stream')) {
        done({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        res.destroy();
        return;
      }
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', fail);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-mcp-subscriptions-'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false, timeZone: 'UTC' });
  handler = createMcpHttpHandler(engine, { token, learnsHere: false });
  server = createServer((req, res) => void handler(req, res).then((handled) => handled || res.writeHead(404).end()));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = new URL(`http://127.0.0.1:${address.port}/mcp`);
});

afterAll(async () => {
  await handler?.close();
  server?.closeAllConnections();
  await new Promise((done) => server?.close(done));
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('resource subscriptions over HTTP', () => {
  it('a 2025-era client that subscribed hears every one of 80 changes', async () => {
    const { client } = await connect('legacy');
    try {
      expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
      const heard = updates(client);
      await client.subscribeResource({ uri: CURRENT_FACTS_URI });
      for (let i = 0; i < 80; i++) {
        const result = await client.callTool({ name: 'remember_facts', arguments: livesIn(`City ${i}`) });
        expect(result.isError).toBeFalsy();
        expect(await heard.next()).toBe(CURRENT_FACTS_URI);
      }
      expect(heard.received).toHaveLength(80);
    } finally {
      await client.close();
    }
  });

  it('a 2025-era session has its standalone GET stream; an unknown or ended session is 404', async () => {
    const opened = await raw('POST', {}, initialize);
    expect(opened.status).toBe(200);
    const session = String(opened.headers['mcp-session-id'] ?? '');
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    const version = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    expect((await raw('POST', version, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const stream = await raw('GET', { ...version, accept: 'text/event-stream' });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect((await raw('DELETE', version)).status).toBe(200);
    const ended = await raw('POST', version, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(ended.status).toBe(404);
    expect(ended.body).toMatch(/session/i);
    expect((await raw('GET', { 'mcp-session-id': 'no-such-session', accept: 'text/event-stream' })).status).toBe(404);
  });

  it(`keeps at most ${MAX_SESSIONS} sessions: one more ends the one used longest ago`, async () => {
    const open = async () => String((await raw('POST', {}, initialize)).headers['mcp-session-id']);
    const first = await open();
    const second = await open();
    for (let i = 2; i < MAX_SESSIONS; i++) await open();
    const list = (session: string) => raw('POST', { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await list(first)).status).toBe(200); // used again: now the most recent
    await open();
    expect((await list(second)).status).toBe(404);
    expect((await list(first)).status).toBe(200);
  });

  it('a 2026-07-28 client is offered subscription and hears changes on its listen stream', async () => {
    const { client } = await connect('auto');
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect(client.getServerCapabilities()?.resources?.subscribe).toBe(true);
      const heard = updates(client);
      const subscription = await client.listen({ resourceSubscriptions: [CURRENT_FACTS_URI] });
      await client.callTool({ name: 'remember_facts', arguments: livesIn('Kyoto') });
      expect(await heard.next()).toBe(CURRENT_FACTS_URI);
      await subscription.close();
    } finally {
      await client.close();
    }
  });

  it('a 2025-era subscription to a URI the server has no resource at is refused, naming those it has', async () => {
    const { client } = await connect('legacy');
    try {
      await expect(client.subscribeResource({ uri: 'tempora://facts/someone-else' })).rejects.toThrow(
        `No resource "tempora://facts/someone-else" here: Tempora's resources are ${CURRENT_FACTS_URI} and tempora://guide/time-axes.`,
      );
      // The connection goes on: a known one still subscribes.
      await client.subscribeResource({ uri: CURRENT_FACTS_URI });
    } finally {
      await client.close();
    }
  });

  it('a legacy request outside a session cannot subscribe: nothing would deliver it', async () => {
    const answer = await raw('POST', { 'mcp-protocol-version': '2025-11-25' }, { jsonrpc: '2.0', id: 3, method: 'resources/subscribe', params: { uri: CURRENT_FACTS_URI } });
    expect(answer.body).toMatch(/"error"/);
    expect(answer.body).not.toMatch(/"result"/);
  });
});
