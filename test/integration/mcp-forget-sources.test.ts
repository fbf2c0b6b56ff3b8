/**
 * forget_fact over MCP (Streamable HTTP, a real client) with with_sources: the source message that
 * supports nothing else is deleted, the one that also supports another fact is kept and says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import type { TemporaEngine } from '../../electron/engine/index';
import { forgetFactOutput } from '../../electron/mcp/tool-schemas';
import { scriptedModel } from '../fixtures/scripted-model';
import { openMcpSession, type McpHttpServer } from '../fixtures/mcp-http-server';

const A = 'My manager is A.';
const TEA = 'My manager is A and I like tea.';
const manager = { subject: 'me', subject_type: 'user' as const, predicate: 'manager', object: 'A', fact: 'My manager is A.', cardinality: 'one' as const };

let engine: TemporaEngine;
let mcp: McpHttpServer;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ engine, server: mcp, close } = await openMcpSession({
    name: 'forget',
    timeZone: 'UTC',
    seed: async (engine) => {
      const model = scriptedModel({ extract: { [A]: [manager], [TEA]: [manager, { subject: 'me', subject_type: 'user', predicate: 'likes', object: 'tea', object_type: 'thing', fact: 'I like tea.' }] } });
      const worker = new IngestionWorker(engine.memory, { model: () => model });
      const conversation = engine.memory.conversations.create('Work').id;
      engine.memory.messages.append({ role: 'user', content: A, time: '2026-09-01T10:00:00Z', conversation });
      engine.memory.messages.append({ role: 'user', content: TEA, time: '2026-09-02T10:00:00Z', conversation });
      worker.start();
      await worker.whenIdle();
      await worker.stop();
    },
    client: false,
  }));
});

afterAll(() => close?.());

describe('forget_fact with_sources', () => {
  it('deletes the only-source message and names the one kept with why', async () => {
    const client = await mcp.connect('tempora-forget-test', { versionNegotiation: { mode: 'auto' } });
    try {
      const fact = engine.memory.facts.list({ predicate: 'manager' })[0]!;
      const result = forgetFactOutput.parse((await client.callTool({ name: 'forget_fact', arguments: { id: fact.id, with_sources: true } })).structuredContent);
      expect(result.deleted_messages.map((m) => m.excerpt)).toEqual([A]);
      expect(result.kept_messages).toEqual([expect.objectContaining({ excerpt: TEA, reason: 'also the source of 1 other fact' })]);
      expect(result.episode_ids).toEqual(result.deleted_messages.map((m) => m.id));
      expect(JSON.stringify(engine.memory.transfer.export())).not.toContain(`"${A}"`);
    } finally {
      await client.close();
    }
  });
});
