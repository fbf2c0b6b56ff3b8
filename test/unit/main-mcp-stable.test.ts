/**
 * The desktop app's MCP over HTTP keeps its way in across restarts (issue #30, item 2), in plain
 * Node over a real engine: the token is made once and kept in the data directory with owner-only
 * permissions (0600), a new service (the next start) serves the same URL and the same token;
 * rotating gives a new token that works at once while the old one gets 401 at once; a kept port that
 * another program holds is said in words, and the new port is kept.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHandlers, dispatchCall } from '../../electron/engine/api-handlers';
import { TemporaEngine } from '../../electron/engine/index';
import { McpService, MCP_TOKEN_FILE } from '../../electron/main/mcp-service';

let dir: string;
let dataDir: string;
let engine: TemporaEngine;
const services: McpService[] = [];

function service(): McpService {
  const made = new McpService(engine);
  services.push(made);
  return made;
}

/** The status of an MCP request with this bearer token: 200 when it is the one, 401 otherwise. */
async function statusWith(url: string, token: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
  await response.text();
  return response.status;
}

function holdPort(port: number): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-main-mcp-stable-'));
  dataDir = join(dir, 'data');
  engine = await TemporaEngine.open({ dataDir, autoLoadModels: false, startWorker: false, timeZone: 'UTC' });
});

afterAll(async () => {
  for (const made of services) await made.close();
  await engine?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('McpService across restarts', () => {
  it('keeps the token in a file only its owner can read, and the next start serves the same URL and token', async () => {
    const first = service();
    const on = await first.setEnabled(true);
    const file = join(dataDir, MCP_TOKEN_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(on.token);
    expect(engine.memory.settings.read()).toMatchObject({ mcpPort: Number(new URL(on.url!).port) });
    await first.close();

    const second = service();
    const again = await second.start();
    expect(again).toEqual(on);
    expect(await statusWith(again.url!, again.token!)).toBe(200);
    // Off and on again in the same run: still the same.
    await second.setEnabled(false);
    expect(await second.setEnabled(true)).toEqual(on);
    await second.close();
  });

  it('tightens a token file others could read back to 0600', async () => {
    const file = join(dataDir, MCP_TOKEN_FILE);
    chmodSync(file, 0o644);
    const mcp = service();
    const token = readFileSync(file, 'utf8').trim();
    expect((await mcp.start()).token).toBe(token);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await mcp.close();
  });

  it('rotates on demand: the new token works at once, the old one gets 401 at once, and the next start keeps the new one', async () => {
    const mcp = service();
    const before = await mcp.start();
    expect(await statusWith(before.url!, before.token!)).toBe(200);
    const rotated = await mcp.rotateToken();
    expect(rotated.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.token).not.toBe(before.token);
    expect(rotated.url).toBe(before.url);
    expect(await statusWith(before.url!, before.token!)).toBe(401);
    expect(await statusWith(rotated.url!, rotated.token!)).toBe(200);
    expect(readFileSync(join(dataDir, MCP_TOKEN_FILE), 'utf8').trim()).toBe(rotated.token);
    await mcp.close();
    expect((await service().start()).token).toBe(rotated.token);
    await services.at(-1)!.close();
  });

  it('says so in words when another program holds the kept port, serves on another and keeps that one', async () => {
    const kept = engine.memory.settings.read().mcpPort!;
    const squatter = await holdPort(kept);
    try {
      const mcp = service();
      const moved = await mcp.start();
      expect(moved.enabled).toBe(true);
      const port = Number(new URL(moved.url!).port);
      expect(port).not.toBe(kept);
      expect(moved.notice).toBe(
        `Port ${kept} is taken by another program, so MCP is now at ${moved.url}; agents set up with the old address need this one.`,
      );
      expect(await statusWith(moved.url!, moved.token!)).toBe(200);
      expect(engine.memory.settings.read().mcpPort).toBe(port);
      await mcp.close();
      // The next start has the new port again, and nothing to say.
      const next = await service().start();
      expect(next.url).toBe(moved.url);
      expect(next.notice).toBeUndefined();
      await services.at(-1)!.close();
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
  });

  it('is the API call rotateMcpToken in the app; the bridge refuses it in words', async () => {
    const mcp = service();
    const before = await mcp.start();
    const handlers = createApiHandlers(engine, { mcp });
    const rotated = (await dispatchCall(handlers, 'rotateMcpToken', {})) as { token: string };
    expect(rotated.token).not.toBe(before.token);
    const refused: unknown = await dispatchCall(createApiHandlers(engine), 'rotateMcpToken', {}).catch((e: unknown) => e);
    expect((refused as Error).message).toContain('the tempora serve command itself serves MCP at /mcp');
    await mcp.close();
  });
});
