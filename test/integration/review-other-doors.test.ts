/**
 * Review before remembering covers every door that learns (#27 item 3): with review on, an agent's
 * `remember_facts` (MCP over Streamable HTTP, a real client) is held — nothing remembered — and
 * waits in the inbox as "from agent NAME" (the API and `tempora review list`); approved, it is
 * remembered as given. `tempora observe`, the user's own structured input, is remembered at once
 * and says plainly that it bypassed review. With review off, the agent's facts are remembered.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import type { TemporaEngine } from '../../electron/engine/index';
import { rememberFactsOutput } from '../../electron/mcp/tool-schemas';
import { steppingClock } from '../../electron/memory/index';
import { openMcpSession, type McpHttpServer } from '../fixtures/mcp-http-server';

let dir: string;
let engine: TemporaEngine;
let mcp: McpHttpServer;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ dir, engine, server: mcp, close } = await openMcpSession({ name: 'review-doors', timeZone: 'Asia/Tokyo', client: false }));
});

afterAll(() => close?.());

const agent = (name: string) => mcp.connect(name);

const manager = (object: string) => ({ subject: 'me', predicate: 'manager', object, fact: `My manager is ${object}.`, cardinality: 'one' as const, valid_at: '2026-09-01' });

async function tempora(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runAsync([...argv, '--data', join(dir, 'data')], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
    cwd: dir,
    env: { TEMPORA_TZ: 'Asia/Tokyo', LANG: 'en_GB.UTF-8', LANCEDB_LOG: 'error' },
    clock: steppingClock('2026-11-01T00:00:00.000Z'),
  });
  return { code, out, err };
}

describe('review before remembering, at every door', () => {
  it("holds an agent's facts for review, named after the agent, and remembers them once approved", async () => {
    engine.memory.review.setBeforeRemembering(true);
    const client = await agent('Research Agent');
    try {
      const result = await client.callTool({ name: 'remember_facts', arguments: { facts: [manager('Sato'), { subject: 'me', predicate: 'likes', object: 'green tea', fact: 'I like green tea.' }] } });
      expect(result.isError).toBeFalsy();
      const held = rememberFactsOutput.parse(result.structuredContent);
      expect(held).toMatchObject({ observations: 2, added: [], closed: [], confirmed: [] });
      expect(held.held_for_review).toHaveLength(1);
      expect((result.content as { text: string }[])[0]!.text).toMatch(/^Held 2 facts for the user's review .*nothing is remembered until they approve/);
      expect(engine.memory.facts.list()).toEqual([]);

      const [waiting] = engine.memory.review.pending();
      expect(waiting).toMatchObject({ episodeId: held.held_for_review[0], agent: 'Research Agent', conversationTitle: 'Facts from Research Agent (MCP)' });
      expect(waiting!.facts.map((f) => [f.subject, f.predicate, f.object])).toEqual([
        ['me', 'manager', 'Sato'],
        ['me', 'likes', 'green tea'],
      ]);
      const listed = await tempora(['review', 'list']);
      expect(listed.code).toBe(0);
      expect(listed.out).toContain(`${waiting!.episodeId}`);
      expect(listed.out).toContain('from agent Research Agent: My manager is Sato.');

      engine.memory.review.approve(waiting!.episodeId);
      const facts = engine.memory.facts.list();
      expect(facts.map((f) => f.fact).sort()).toEqual(['I like green tea.', 'My manager is Sato.']);
      // As given: the manager since 1 Sep in the user's zone, one-valued.
      expect(facts.find((f) => f.predicate === 'manager')).toMatchObject({ valid_at: '2026-08-31T15:00:00.000Z', cardinality: 'one' });
    } finally {
      await client.close();
    }
  });

  it('remembers observe at once with review on, and says so', async () => {
    const file = join(dir, 'mine.jsonl');
    writeFileSync(file, `${JSON.stringify({ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', reference_time: '2026-10-01T09:00:00+09:00' })}\n`);
    const run = await tempora(['observe', file]);
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    expect(run.out).toContain('1 fact added');
    expect(run.out).toContain('Review before remembering is on; these are your own observations, so they were remembered without review.');
    expect(engine.memory.facts.list().map((f) => f.fact)).toContain('I live in Kyoto.');
  });

  it("remembers an agent's facts at once when review is off, and observe says nothing of review", async () => {
    engine.memory.review.setBeforeRemembering(false);
    const client = await agent('Research Agent');
    try {
      const result = rememberFactsOutput.parse((await client.callTool({ name: 'remember_facts', arguments: { facts: [manager('Tanaka')] } })).structuredContent);
      expect(result.held_for_review).toEqual([]);
      expect(result.added.map((f) => f.object)).toEqual(['Tanaka']);
    } finally {
      await client.close();
    }
    const file = join(dir, 'more.jsonl');
    writeFileSync(file, `${JSON.stringify({ subject: 'me', predicate: 'likes', object: 'rain', fact: 'I like rain.', reference_time: '2026-10-01T09:00:00+09:00' })}\n`);
    const run = await tempora(['observe', file]);
    expect(run.code).toBe(0);
    expect(run.out).not.toContain('Review before remembering');
  });
});
