/**
 * The desktop app's MCP over HTTP (electron/main/mcp-service.ts), in plain Node over a real engine
 * on a temporary memory: off by default; on, a URL on 127.0.0.1 and a token that an SDK client
 * uses to list the tools (without it: 401); off again, the port is closed; the choice persists in
 * the memory's settings and a new service applies it at start().
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHandlers, dispatchCall } from '../../electron/engine/api-handlers';
import { TemporaEngine } from '../../electron/engine/index';
import { ApiError } from '../../shared/api-error';
import { McpService } from '../../electron/main/mcp-service';

let dir: string;
let dataDir: string;
let engine: TemporaEngine;
const services: McpService[] = [];

function service(): McpService {
  const made = new McpService(engine);
  services.push(made);
  return made;
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
  });
}

async function listTools(url: string, token: string): Promise<string[]> {
  const client = new Client({ name: 'tempora-app-mcp-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).sort();
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-main-mcp-'));
  dataDir = join(dir, 'data');
  engine = await TemporaEngine.open({ dataDir, autoLoadModels: false, startWorker: false, timeZone: 'UTC' });
});

afterAll(async () => {
  for (const made of services) await made.close();
  await engine?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('McpService', () => {
  it('is off by default, also after start()', async () => {
    const mcp = service();
    expect(mcp.status()).toEqual({ enabled: false, url: null, token: null });
    expect(await mcp.start()).toEqual({ enabled: false, url: null, token: null });
  });

  it('serves MCP on 127.0.0.1 with a bearer token when enabled, and closes the port when disabled', async () => {
    const mcp = service();
    const on = await mcp.setEnabled(true);
    expect(on.enabled).toBe(true);
    expect(on.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(on.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mcp.status()).toEqual(on);
    const url = on.url!;
    const port = Number(new URL(url).port);

    expect(await listTools(url, on.token!)).toEqual(['close_fact', 'correct_fact', 'fact_history', 'forget_fact', 'list_facts', 'remember_facts', 'remember_message', 'search_memory']);

    const noToken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(noToken.status).toBe(401);
    const wrongToken = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer not-the-token-at-all', 'content-type': 'application/json' }, body: '{}' });
    expect(wrongToken.status).toBe(401);
    const elsewhere = await fetch(`http://127.0.0.1:${port}/other`);
    expect(elsewhere.status).toBe(404);
    await elsewhere.text();

    expect(engine.memory.settings.read()).toMatchObject({ mcpEnabled: true });

    const off = await mcp.setEnabled(false);
    expect(off).toEqual({ enabled: false, url: null, token: null });
    expect(await accepts(port)).toBe(false);
    expect(engine.memory.settings.read()).toMatchObject({ mcpEnabled: false });

    // On again: the same URL and token (kept until rotated: main-mcp-stable.test.ts).
    const again = await mcp.setEnabled(true);
    expect(again).toEqual(on);
    await mcp.close();
    expect(await accepts(port)).toBe(false);
    expect(mcp.status().enabled).toBe(false);
  });

  it('keeps the setting: a new service on the same data directory serves at start()', async () => {
    const first = service();
    await first.setEnabled(true);
    await first.close(); // quit: stops serving, the setting stays on

    const second = service();
    expect(second.status().enabled).toBe(false);
    const started = await second.start();
    expect(started.enabled).toBe(true);
    expect(await listTools(started.url!, started.token!)).toHaveLength(8);
    await second.setEnabled(false);

    const third = service();
    expect((await third.start()).enabled).toBe(false);
  });

  it('is the API calls mcpStatus / setMcpEnabled in the app; without it (the bridge) a note why, and the switch refused in words', async () => {
    const mcp = service();
    const handlers = createApiHandlers(engine, { mcp });
    expect(await dispatchCall(handlers, 'mcpStatus', {})).toEqual({ enabled: false, url: null, token: null });
    const on = (await dispatchCall(handlers, 'setMcpEnabled', { enabled: true })) as { enabled: boolean };
    expect(on.enabled).toBe(true);
    expect(await dispatchCall(handlers, 'setMcpEnabled', { enabled: false })).toEqual({ enabled: false, url: null, token: null });

    const bridge = createApiHandlers(engine);
    const note = (await dispatchCall(bridge, 'mcpStatus', {})) as { enabled: boolean; unavailable?: string };
    expect(note.enabled).toBe(false);
    expect(note.unavailable).toContain('the tempora serve command itself serves MCP at /mcp');
    const error: unknown = await dispatchCall(bridge, 'setMcpEnabled', { enabled: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toContain('the tempora serve command itself serves MCP at /mcp');
    expect((error as ApiError).message).not.toContain('setMcpEnabled');
    expect((await service().start()).enabled).toBe(false);
  });
});
