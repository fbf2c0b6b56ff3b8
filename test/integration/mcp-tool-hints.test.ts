/**
 * What an agent reads before it calls anything (issue #30, item 4), through the official SDK client:
 * every tool's annotations (read-only for search / list / history, destructive for forget only,
 * idempotent where calling twice changes nothing more, a closed world for all), and the guide to the
 * two time axes — as a resource and as a prompt — in both protocol eras over HTTP and over stdio
 * from the spawned `tempora mcp`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaEngine } from '../../electron/engine/index';
import { serveMcpHttp, type McpHttpServer } from '../fixtures/mcp-http-server';
import { connectMcpStdio } from '../fixtures/mcp-stdio-client';

let dir: string;
let engine: TemporaEngine;
let http: McpHttpServer;

const HINTS = {
  search_memory: { readOnlyHint: true, openWorldHint: false },
  list_facts: { readOnlyHint: true, openWorldHint: false },
  fact_history: { readOnlyHint: true, openWorldHint: false },
  remember_facts: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  remember_message: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  correct_fact: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  close_fact: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  forget_fact: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
};

async function readsHintsAndGuide(client: Client): Promise<void> {
  const tools = (await client.listTools()).tools;
  expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]))).toEqual(HINTS);

  const resources = (await client.listResources()).resources;
  expect(resources.map((r) => r.uri).sort()).toEqual(['tempora://facts/me/current', 'tempora://guide/time-axes']);
  const guide = await client.readResource({ uri: 'tempora://guide/time-axes' });
  const text = (guide.contents[0] as { text: string; mimeType: string }).text;
  expect((guide.contents[0] as { mimeType: string }).mimeType).toBe('text/markdown');
  for (const words of ['as_of', 'known_at', 'valid time', 'include_history', 'close_fact', 'correct_fact', 'forget_fact']) expect(text).toContain(words);

  const prompts = (await client.listPrompts()).prompts;
  expect(prompts.map((p) => p.name)).toEqual(['time-axes']);
  const prompt = await client.getPrompt({ name: 'time-axes' });
  expect(prompt.messages).toHaveLength(1);
  expect((prompt.messages[0]!.content as { type: string; text: string }).text).toBe(text);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-mcp-hints-'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'http'), autoLoadModels: false, startWorker: false, timeZone: 'UTC' });
  http = await serveMcpHttp(engine);
});

afterAll(async () => {
  await http?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('tool hints and the time-axes guide', () => {
  for (const mode of ['legacy', 'auto'] as const) {
    it(`are read over HTTP by a ${mode === 'legacy' ? '2025-era' : '2026-07-28'} client`, async () => {
      const client = await http.connect(`hints-${mode}`, { versionNegotiation: { mode } });
      try {
        await readsHintsAndGuide(client);
      } finally {
        await client.close();
      }
    });
  }

  it('are read over stdio from `tempora mcp`', async () => {
    const { client } = await connectMcpStdio({ data: join(dir, 'stdio'), timeZone: 'UTC', clientName: 'hints-stdio' });
    try {
      await readsHintsAndGuide(client);
    } finally {
      await client.close();
    }
  }, 60_000);
});
