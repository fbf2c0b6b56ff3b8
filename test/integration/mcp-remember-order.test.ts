/**
 * `remember_facts` answers `added` in the order the facts were given: an agent that takes the ids by
 * position must not edit the wrong fact (they came back ordered by valid_at). Driven by the MCP SDK
 * client over Streamable HTTP, for a user in Tokyo.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemporaEngine } from '../../electron/engine/index';
import { toolOutputs } from '../../electron/mcp/tool-schemas';
import { serveMcpHttp, type McpHttpServer } from '../fixtures/mcp-http-server';

let dir: string;
let engine: TemporaEngine;
let mcp: McpHttpServer;
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-mcp-order-'));
  engine = await TemporaEngine.open({ dataDir: join(dir, 'data'), autoLoadModels: false, startWorker: false, timeZone: 'Asia/Tokyo' });
  mcp = await serveMcpHttp(engine);
  client = await mcp.connect('order');
});

afterAll(async () => {
  await client?.close();
  await mcp?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('remember_facts', () => {
  it('answers the facts added in the order they were given, whatever their dates', async () => {
    const facts = [
      { subject: 'me', predicate: 'lives in', object: '大阪', fact: '大阪に住んでいます。', valid_at: '2026年2月' },
      { subject: 'me', predicate: 'hobby', object: '将棋', fact: '趣味は将棋です。', valid_at: '2020年' },
      { subject: 'me', predicate: 'pet', object: 'Mochi', fact: 'My cat is Mochi.', valid_at: '2024-05-01' },
    ];
    const result = await client.callTool({ name: 'remember_facts', arguments: { facts } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const { added } = toolOutputs.remember_facts.parse(result.structuredContent);
    expect(added.map((f) => f.fact)).toEqual(facts.map((f) => f.fact));
  });
});
