/**
 * `tempora mcp connect CLIENT --http` (issue #30), as a spawned process with HOME pointed at a
 * temporary folder, beside the desktop app's MCP service on the same memory: the entry carries the
 * app's kept URL and token, and an MCP SDK client given exactly that entry lists the tools; HTTP off,
 * and Claude Desktop (whose file starts local servers only), get one sentence each and change nothing.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaSync } from './cli-helpers';
import { TemporaEngine } from '../../electron/engine/index';
import { McpService, MCP_TOKEN_FILE } from '../../electron/main/mcp-service';

let home: string;
let dataDir: string;
let engine: TemporaEngine;
let service: McpService;

const tempora = (...args: string[]) =>
  temporaSync(args, { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), TEMPORA_DATA_DIR: dataDir, TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error' });

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'tempora-mcp-connect-http-'));
  dataDir = join(home, 'tempora-data');
  engine = await TemporaEngine.open({ dataDir, autoLoadModels: false, startWorker: false, timeZone: 'UTC' });
  service = new McpService(engine);
});
afterAll(async () => {
  await service?.close();
  await engine?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('tempora mcp connect --http', () => {
  it('says to turn the app’s MCP on first, and writes nothing, while it is off', () => {
    mkdirSync(join(home, '.cursor'), { recursive: true });
    const off = tempora('mcp', 'connect', 'cursor', '--http');
    expect(off.code).toBe(1);
    expect(off.out).toBe('');
    expect(off.err).toBe('tempora: The desktop app’s MCP over HTTP is off: turn it on in Settings → Other agents (MCP) (its address and token stay from then on), then run this again.\n');
    expect(existsSync(join(home, '.cursor', 'mcp.json'))).toBe(false);
  });

  it('writes the app’s kept URL and token, and a client given that entry lists the tools', async () => {
    const status = await service.setEnabled(true);
    mkdirSync(join(home, '.config', 'Code', 'User'), { recursive: true });
    const added = tempora('mcp', 'connect', 'vscode', '--http');
    expect(added.err).toBe('');
    expect(added.code).toBe(0);
    const file = join(home, '.config', 'Code', 'User', 'mcp.json');
    const entry = (JSON.parse(readFileSync(file, 'utf8')) as { servers: Record<string, { type: string; url: string; headers: Record<string, string> }> }).servers.tempora!;
    const token = readFileSync(join(dataDir, MCP_TOKEN_FILE), 'utf8').trim();
    expect(entry).toEqual({ type: 'http', url: status.url, headers: { Authorization: `Bearer ${token}` } });
    expect(added.out).toContain(JSON.stringify({ tempora: entry }, null, 2));

    const client = new Client({ name: 'vscode-stand-in', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: entry.headers } }));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('search_memory');
    await client.close();

    // Cursor takes the same address under mcpServers, without "type".
    const cursor = tempora('mcp', 'connect', 'cursor', '--http');
    expect(cursor.code).toBe(0);
    expect(JSON.parse(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8'))).toEqual({ mcpServers: { tempora: { url: status.url, headers: { Authorization: `Bearer ${token}` } } } });
  });

  it('refuses Claude Desktop in words: its file starts local servers only', () => {
    mkdirSync(join(home, '.config', 'Claude'), { recursive: true });
    const refused = tempora('mcp', 'connect', 'claude-desktop', '--http');
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('tempora: Claude Desktop’s config file starts local servers only: use the stdio entry (or the Tempora MCP Bundle).\n');
    expect(existsSync(join(home, '.config', 'Claude', 'claude_desktop_config.json'))).toBe(false);
    // Said before the memory is looked for: a --data with no memory gets the same words, and stays without one.
    const noMemory = join(home, 'no-memory');
    const first = tempora('mcp', 'connect', 'claude-desktop', '--http', '--data', noMemory);
    expect(first.err).toBe('tempora: Claude Desktop’s config file starts local servers only: use the stdio entry (or the Tempora MCP Bundle).\n');
    expect(first.code).toBe(1);
    expect(existsSync(noMemory)).toBe(false);
    const both = tempora('mcp', 'connect', 'cursor', '--http', '--remove');
    expect(both.code).toBe(2);
    expect(both.err).toContain('--remove takes out whichever Tempora entry is there; leave out --http');
  });
});
