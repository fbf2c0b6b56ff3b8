/**
 * MCP over Streamable HTTP: createMcpHttpHandler mounted on a plain node:http server on 127.0.0.1,
 * over an engine on a temporary memory, driven by the official SDK client. The gate first (no
 * token, a wrong token, a foreign Origin, a foreign Host: 401/403 in words, before MCP), then the
 * tools in both protocol eras, concurrent calls, and the resource's change notification on a
 * 2026-07-28 subscriptions/listen stream.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as s from '../../electron/mcp/tool-schemas';
import { TemporaEngine } from '../../electron/engine/index';
import { createMcpHttpHandler, type McpHttpRequestHandler } from '../../electron/mcp/index';

/** Each tool's result, checked against the schema the server declares. */
const outputs = s.toolOutputs;
type Tool = s.ToolName;
type Output<N extends Tool> = z.infer<(typeof outputs)[N]>;

let dir: string;
let engine: TemporaEngine;
let handler: McpHttpRequestHandler;
let server: Server;
let url: URL;
const token = randomBytes(24).toString('base64url');
const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

async function connect(mode: 'legacy' | 'auto'): Promise<Client> {
  const client = new Client({ name: 'tempora-http-test', version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** A raw POST, with exactly the headers given (fetch would add its own Host and maybe Origin). */
function post(headers: Record<string, string>, path = '/mcp'): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: url.port, path, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
    req.end(initialize);
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-mcp-http-'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false, timeZone: 'UTC' });
  handler = createMcpHttpHandler(engine, { token, learnsHere: false });
  server = createServer((req, res) => {
    void handler(req, res).then((handled) => {
      if (!handled) res.writeHead(404, { 'content-type': 'text/plain' }).end('not here\n');
    });
  });
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

describe('the /mcp gate', () => {
  it('refuses a request without the token, or with a wrong one, with 401 in words', async () => {
    const none = await post({});
    expect(none.status).toBe(401);
    expect(none.body).toMatch(/unauthorized: send the MCP token \(`tempora serve` prints it; the app shows it in Settings\)/);
    const wrong = await post({ authorization: `Bearer ${token.slice(1)}x` });
    expect(wrong.status).toBe(401);
    const scheme = await post({ authorization: token });
    expect(scheme.status).toBe(401);
  });

  it('refuses a foreign Origin and a foreign Host with 403, even with the token', async () => {
    const origin = await post({ authorization: `Bearer ${token}`, origin: 'https://evil.example' });
    expect(origin.status).toBe(403);
    expect(origin.body).toMatch(/web page "https:\/\/evil.example"/);
    const host = await post({ authorization: `Bearer ${token}`, host: `evil.example:${url.port}` });
    expect(host.status).toBe(403);
    expect(host.body).toMatch(/Host "evil.example:\d+"/);
    const rebinding = await post({ host: 'attacker.example' });
    expect(rebinding.status).toBe(403);
  });

  it('answers with the token, and leaves other paths to the server it is mounted on', async () => {
    const ok = await post({ authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatch(/"serverInfo":\{"name":"tempora"/);
    const elsewhere = await post({ authorization: `Bearer ${token}` }, '/api');
    expect(elsewhere.status).toBe(404);
  });

  it('accepts its own page and the allowed Origins, and only the allowed Hosts when given', async () => {
    const own = await post({ authorization: `Bearer ${token}`, origin: `http://127.0.0.1:${url.port}` });
    expect(own.status).toBe(200);
    const strict = createMcpHttpHandler(engine, { token, allowedHosts: () => [`127.0.0.1:${url.port}`], allowedOrigins: ['http://127.0.0.1:5173'] });
    try {
      const req = (headers: Record<string, string | undefined>) =>
        ({ url: '/mcp', method: 'POST', headers: { host: `127.0.0.1:${url.port}`, authorization: `Bearer ${token}`, ...headers } }) as unknown as Parameters<typeof strict>[0];
      const refused: { status?: number; body?: string } = {};
      const res = {
        writeHead(status: number) {
          refused.status = status;
          return { end: (body: string) => (refused.body = body) };
        },
      } as unknown as Parameters<typeof strict>[1];
      await strict(req({ host: `localhost:${url.port}` }), res);
      expect(refused.status).toBe(403); // a loopback name, but not one of the allowed Hosts
      await strict(req({ origin: 'http://127.0.0.1:8080' }), res);
      expect(refused).toMatchObject({ status: 403, body: expect.stringMatching(/web page/) });
    } finally {
      await strict.close();
    }
  });

  it('the SDK client cannot connect without the token', async () => {
    const client = new Client({ name: 'no-token', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(url))).rejects.toThrow();
  });
});

describe('tools over HTTP', () => {
  it('runs the seed scenario with a 2025-era client', async () => {
    const client = await connect('legacy');
    try {
      const call = async <N extends Tool>(name: N, args: Record<string, unknown>) => outputs[name].parse((await client.callTool({ name, arguments: args })).structuredContent) as Output<N>;
      await call('remember_facts', { facts: [{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', cardinality: 'one' }], reference_time: '2026-09-01T10:00:00Z' });
      const b = await call('remember_facts', { facts: [{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', cardinality: 'one' }], reference_time: '2026-09-15T10:00:00Z' });
      expect(b.closed.map((f) => f.object)).toEqual(['A']);
      expect((await call('search_memory', { query: 'manager', as_of: '2026-09-10' })).hits.map((h) => h.fact.object)).toEqual(['A']);
      expect((await call('search_memory', { query: 'manager' })).hits.map((h) => h.fact.object)).toEqual(['B']);
      const bad = await client.callTool({ name: 'list_facts', arguments: { as_of: 'when pigs fly' } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toMatch(/as_of: not a time/);
    } finally {
      await client.close();
    }
  });

  it('serves a 2026-07-28 client, and many concurrent calls lose no write', async () => {
    const client = await connect('auto');
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const writes = Array.from({ length: 20 }, (_, i) =>
        client.callTool({ name: 'remember_facts', arguments: { facts: [{ subject: `person ${i}`, predicate: 'likes', object: `thing ${i}`, fact: `Person ${i} likes thing ${i}.` }] } }),
      );
      const reads = Array.from({ length: 10 }, () => client.callTool({ name: 'search_memory', arguments: { query: 'likes' } }));
      const results = await Promise.all([...writes, ...reads]);
      expect(results.filter((r) => r.isError)).toEqual([]);
      const listed = s.listFactsOutput.parse((await client.callTool({ name: 'list_facts', arguments: { predicate: 'likes', limit: 1000 } })).structuredContent);
      expect(listed.count).toBe(20);
    } finally {
      await client.close();
    }
  });

  it('tells a 2026-07-28 listener when the current facts about the user change', async () => {
    const client = await connect('auto');
    try {
      const updated = new Promise<string>((done) => client.setNotificationHandler('notifications/resources/updated', (n) => done(n.params.uri)));
      const subscription = await client.listen({ resourceSubscriptions: ['tempora://facts/me/current'] });
      await client.callTool({ name: 'remember_facts', arguments: { facts: [{ subject: 'me', predicate: 'lives in', object: 'Osaka', fact: 'I live in Osaka.', cardinality: 'one' }] } });
      expect(await updated).toBe('tempora://facts/me/current');
      await subscription.close();
    } finally {
      await client.close();
    }
  });
});
