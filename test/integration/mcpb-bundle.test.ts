/**
 * The MCP Bundle (issue #30): scripts/build-mcpb.mjs (npm run mcpb, and npm run dist) builds a .mcpb
 * from electron-vite's output with @anthropic-ai/mcpb 2.1.2. Its manifest passes the package's own
 * validator and lists the real tool table; the bundle, unpacked by the package as Claude Desktop
 * would, starts its server — the built `tempora mcp` under plain Node, with nothing from the
 * checkout to lean on — and an MCP SDK client lists the tools over stdio and reads a fact remembered
 * through it. No model runtime is shipped (`tempora mcp` learns nothing itself). Slow: it builds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { validateManifest, unpackExtension } from '@anthropic-ai/mcpb';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundle, type BundleManifest } from '../../scripts/build-mcpb.mjs';

const root = resolve(import.meta.dirname, '../..');
const TOOLS = ['remember_facts', 'remember_message', 'search_memory', 'list_facts', 'fact_history', 'correct_fact', 'close_fact', 'forget_fact'];
let work: string;
let unpacked: string;
let manifest: BundleManifest;

describe('the MCP Bundle', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'tempora-mcpb-'));
    // A build of its own, beside the checkout's out/ (other tests build that one at the same time).
    const built = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build', '--outDir', join(work, 'out')], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`electron-vite build failed:\n${built.stdout}\n${built.stderr}`);
    const bundle = await buildBundle({ root, outDir: join(work, 'dist'), mainDir: join(work, 'out', 'main') });
    expect(bundle.file).toBe(join(work, 'dist', `tempora-0.1.0-${process.platform}-${process.arch}.mcpb`));
    unpacked = join(work, 'Claude Extensions', 'tempora');
    mkdirSync(unpacked, { recursive: true });
    expect(await unpackExtension({ mcpbPath: bundle.file, outputDir: unpacked, silent: true })).toBe(true);
    manifest = JSON.parse(readFileSync(join(unpacked, 'manifest.json'), 'utf8')) as BundleManifest;
  }, 400_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('has a manifest the package’s validator passes, with the real tool table and the built command as its server', () => {
    expect(validateManifest(join(unpacked, 'manifest.json'))).toBe(true);
    expect(manifest.name).toBe('tempora');
    expect(manifest.version).toBe((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version);
    expect(manifest.tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    expect(manifest.tools.every((tool) => (tool.description ?? '').length > 20)).toBe(true);
    expect(manifest.server).toEqual({ type: 'node', entry_point: 'server/cli.js', mcp_config: { command: 'node', args: ['${__dirname}/server/cli.js', 'mcp'], env: { LANCEDB_LOG: 'error' } } });
    expect(manifest.compatibility.platforms).toEqual([process.platform]);
  });

  it('ships no model runtime and no build tools', () => {
    for (const left of ['node_modules/@node-llama-cpp', 'node_modules/tsx', 'node_modules/esbuild', 'node_modules/better-sqlite3/deps', 'node_modules/better-sqlite3/src']) {
      expect(existsSync(join(unpacked, left)), left).toBe(false);
    }
    expect(existsSync(join(unpacked, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
  });

  it('starts its server from the unpacked bundle as Claude Desktop does, and a client lists the tools and uses them', async () => {
    const home = join(work, 'home');
    mkdirSync(home);
    const { command, args, env } = manifest.server.mcp_config;
    expect(command).toBe('node');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: args.map((arg) => arg.replace('${__dirname}', unpacked)),
      // Only what Claude Desktop gives a server, and the memory in a temporary folder: nothing from the checkout.
      env: { ...env, PATH: process.env.PATH ?? '', HOME: home, TEMPORA_DATA_DIR: join(work, 'memory'), TEMPORA_TZ: 'UTC' },
      cwd: home,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'claude-desktop-stand-in', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
      const remembered = await client.callTool({ name: 'remember_facts', arguments: { facts: [{ subject: 'me', predicate: 'lives_in', object: 'Lisbon', fact: 'I live in Lisbon.', valid_at: '2026-03-01' }] } });
      expect(remembered.isError ?? false).toBe(false);
      const listed = await client.callTool({ name: 'list_facts', arguments: { subject: 'me' } });
      expect(JSON.stringify(listed.content)).toContain('I live in Lisbon.');
    } finally {
      await client.close();
    }
  }, 60_000);
});
