/**
 * `tempora mcp` as a client starts it: a spawned process (node --import tsx electron/cli/main.ts
 * mcp), driven by the official SDK client over stdio — every tool, the seed scenario end to end
 * (A from 1 Sep, B from 15 Sep in the one-valued slot me/manager), bad arguments as tool errors
 * naming the argument, and the current-facts resource with its change notification. Both protocol
 * eras: the 2025 initialize handshake (the SDK client's default) and 2026-07-28 (negotiated).
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as s from '../../electron/mcp/tool-schemas';
import { connectMcpStdio, openMcpStdio, type McpStdioSession } from '../fixtures/mcp-stdio-client';

let session: McpStdioSession | undefined;
let client: Client;

/** Each tool's result, checked against the schema the server declares. */
const outputs = s.toolOutputs;
type Tool = s.ToolName;
type Output<N extends Tool> = z.infer<(typeof outputs)[N]>;

/** The server's stderr: every process started here (the second client's too). */
const stderrs: (() => string)[] = [];
const stderr = () => stderrs.map((read) => read()).join('');

/** The options of a client in one protocol era: the 2025 handshake ('legacy') or negotiated ('auto'). */
const era = (mode: 'legacy' | 'auto') => ({ timeZone: 'UTC', clientName: 'tempora-test', client: { versionNegotiation: { mode } } });

async function call<N extends Tool>(name: N, args: Record<string, unknown>, on: Client = client): Promise<Output<N>> {
  const result = await on.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return outputs[name].parse(result.structuredContent) as Output<N>;
}

async function callError(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
}

beforeAll(async () => {
  session = await openMcpStdio({ name: 'stdio', ...era('legacy') });
  client = session.client;
  stderrs.push(session.stderr);
});

afterAll(() => session?.close());

describe('tempora mcp over stdio', () => {
  it('lists the eight tools with bounded JSON Schemas and output schemas', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['close_fact', 'correct_fact', 'fact_history', 'forget_fact', 'list_facts', 'remember_facts', 'remember_message', 'search_memory']);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.outputSchema?.type).toBe('object');
    }
    const search = tools.find((t) => t.name === 'search_memory')!;
    expect(JSON.stringify(search.description)).toMatch(/as_of.*known_at/s);
    const props = search.inputSchema.properties as Record<string, { maxLength?: number }>;
    expect(props.query?.maxLength).toBe(2000);
    expect(props.as_of?.maxLength).toBe(100);
    const facts = (tools.find((t) => t.name === 'remember_facts')!.inputSchema.properties as Record<string, { maxItems?: number }>).facts;
    expect(facts?.maxItems).toBe(200);
  });

  it('runs the seed scenario: A from 1 Sep, B from 15 Sep; as of 10 Sep it is A, now it is B', async () => {
    const a = await call('remember_facts', {
      facts: [{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', cardinality: 'one' }],
      reference_time: '2026-09-01T10:00:00Z',
    });
    expect(a.added).toHaveLength(1);
    expect(a.added[0]).toMatchObject({ object: 'A', valid_at: '2026-09-01T10:00:00.000Z', invalid_at: null, current: true, origin: 'observed' });
    const b = await call('remember_facts', {
      facts: [{ subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', cardinality: 'one', valid_at: '2026-09-15' }],
      reference_time: '2026-09-15T12:00:00Z',
    });
    expect(b.added.map((f) => f.object)).toEqual(['B']);
    expect(b.closed).toHaveLength(1);
    expect(b.closed[0]).toMatchObject({ object: 'A', invalid_at: '2026-09-15T00:00:00.000Z', current: false, invalidated_by: b.added[0]!.id });

    const then = await call('search_memory', { query: 'manager', as_of: '2026-09-10' });
    expect(then.hits.map((h) => h.fact.object)).toEqual(['A']);
    const now = await call('search_memory', { query: 'manager' });
    expect(now.hits.map((h) => h.fact.object)).toEqual(['B']);
    expect(now.hits[0]!.fact.current).toBe(true);

    const listed = await call('list_facts', { subject: 'me', predicate: 'manager', as_of: '2026-09-10' });
    expect(listed.facts.map((f) => f.object)).toEqual(['A']);
    const history = await call('list_facts', { subject: 'me', include_history: true });
    expect(history.count).toBeGreaterThanOrEqual(3); // A open (expired), A closed, B
    const before = await call('list_facts', { subject: 'me', known_at: '2026-01-01' });
    expect(before.count).toBe(0); // nothing was known then (the memory was told in December)

    // A's end is where B begins: reopening it is refused, naming the argument that asked for it.
    expect(await callError('correct_fact', { id: then.hits[0]!.fact.id, invalid_at: null })).toMatch(/^invalid_at: .+ begins, and it cannot be reopened/);
    const details = await call('fact_history', { id: then.hits[0]!.fact.id });
    expect(details.closed_by).toMatchObject({ object: 'B' });
    expect(details.source_messages.length).toBeGreaterThanOrEqual(1);
    const ofB = await call('fact_history', { id: b.added[0]!.id });
    expect(ofB.closed.map((f) => f.object)).toEqual(['A']);
  });

  it('corrects, closes and forgets a fact, keeping versions', async () => {
    const added = await call('remember_facts', { facts: [{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', valid_at: '2026-01-01' }], reference_time: '2026-03-01T00:00:00Z' });
    const id = added.added[0]!.id;
    const corrected = await call('correct_fact', { id, object: 'green tea', fact: 'I like green tea.' });
    expect(corrected.fact).toMatchObject({ object: 'green tea', supersedes: id, origin: 'user_edit' });
    // An edit that changes nothing names the argument the caller gave.
    expect(await callError('correct_fact', { id: corrected.fact.id, object: 'green tea' })).toBe('object: the edit changes nothing');
    const closing = await client.callTool({ name: 'close_fact', arguments: { id: corrected.fact.id, at: '2026-06-01' } });
    // The end in words, by the one interval formatter (in the user's zone: TEMPORA_TZ=UTC here).
    expect((closing.content as { text: string }[])[0]!.text.split('\n')[0]).toBe('Closed: I like green tea. (ended 1 Jun 2026).');
    const closed = outputs.close_fact.parse(closing.structuredContent);
    // An end still to come is set, not closed: "Ends", as the app says it.
    const trip = await call('remember_facts', { facts: [{ subject: 'me', predicate: 'plans', object: 'a trip', fact: 'I plan a trip.' }], reference_time: '2026-03-01T00:00:00Z' });
    const ending = await client.callTool({ name: 'close_fact', arguments: { id: trip.added[0]!.id, at: '2099-01-01' } });
    expect((ending.content as { text: string }[])[0]!.text.split('\n')[0]).toBe('Ends: I plan a trip. (until 1 Jan 2099).');
    // A search's lines write each interval with the same formatter: no raw UTC times, no "now" for an end.
    const found = await client.callTool({ name: 'search_memory', arguments: { query: 'green tea', include_history: true } });
    expect((found.content as { text: string }[])[0]!.text).toContain(`- I like green tea. (1 Jan – 1 Jun 2026; id ${closed.fact.id})`);
    expect(closed.fact).toMatchObject({ invalid_at: '2026-06-01T00:00:00.000Z', current: false });
    const history = await call('fact_history', { id });
    expect(history.versions.length).toBeGreaterThanOrEqual(3);
    const forgotten = await call('forget_fact', { id });
    expect(forgotten.fact_ids).toContain(id);
    expect(await callError('fact_history', { id })).toMatch(/^id: no fact/);
  });

  it('answers bad arguments with tool errors naming the argument', async () => {
    expect(await callError('search_memory', { query: 'manager', as_of: 'blorp' })).toMatch(/^as_of: not a time/);
    expect(await callError('list_facts', { known_at: 'the day after never' })).toMatch(/^known_at: not a time/);
    expect(await callError('remember_facts', { facts: [{ subject: 'me', predicate: 'x', object: 'y', fact: 'z', valid_at: '2026-02-30' }] })).toBe('facts[0].valid_at: 2026-02-30 is not a date: February 2026 has 28 days');
    expect(
      await callError('remember_facts', { facts: [{ subject: 'me', predicate: 'x', object: 'y', fact: 'z', valid_at: '2026-05-01T00:00Z', invalid_at: '2026-04-01T00:00Z' }], reference_time: '2026-05-02T00:00:00Z' }),
    ).toMatch(/facts\[0\]\.invalid_at: must be after valid_at/);
    expect(await callError('remember_facts', { facts: [] })).toMatch(/facts/);
    expect(await callError('list_facts', { limit: 'ten' })).toMatch(/limit/);
    expect(await callError('search_memory', { query: 'x'.repeat(2001) })).toMatch(/query/);
    expect(await callError('close_fact', { id: 'fct_nope', at: 'yesterday' })).toMatch(/^id: no fact/);
    expect(await callError('close_fact', { id: 'fct_nope' })).toMatch(/at/);
    expect(await callError('remember_message', { content: 'hi', reference_time: 'someday maybe' })).toMatch(/^reference_time: not a time/);
    // the server is still fine
    expect((await call('list_facts', { limit: 1 })).count).toBe(1);
  });

  it('stores a message and says it is queued for learning (no model in this process)', async () => {
    const first = await call('remember_message', { content: 'I moved to Kyoto last week.', reference_time: '2026-10-08T09:00:00Z' });
    expect(first).toMatchObject({ duplicate: false, learning: 'queued', model_loaded: false });
    expect(first.episode_id).toMatch(/^epi_/);
    const again = await call('remember_message', { content: 'I moved to Kyoto last week.', reference_time: '2026-10-08T09:00:00Z' });
    expect(again).toMatchObject({ episode_id: first.episode_id, duplicate: true });
  });

  it('serves the current facts about the user as a resource and tells a subscriber when they change', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('tempora://facts/me/current');
    const read = await client.readResource({ uri: 'tempora://facts/me/current' });
    const body = z.object({ facts: z.array(s.mcpFact) }).parse(JSON.parse((read.contents[0] as { text: string }).text));
    expect(body.facts.map((f) => f.object)).toContain('B');
    expect(body.facts.every((f) => f.current === true)).toBe(true);

    const updated = new Promise<string>((done) => client.setNotificationHandler('notifications/resources/updated', (n) => done(n.params.uri)));
    await client.subscribeResource({ uri: 'tempora://facts/me/current' });
    await call('remember_facts', { facts: [{ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: 'I live in Kyoto.', cardinality: 'one' }] });
    expect(await updated).toBe('tempora://facts/me/current');
  });

  it('speaks the 2026-07-28 protocol too, when the client negotiates it', async () => {
    const started = await connectMcpStdio({ data: session!.data, ...era('auto') });
    stderrs.push(started.stderr);
    const modern = started.client;
    try {
      expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const result = await call('search_memory', { query: 'manager', as_of: '2026-09-10' }, modern);
      expect(result.hits.map((h) => h.fact.object)).toEqual(['A']);
      const bad = await modern.callTool({ name: 'close_fact', arguments: { id: 'fct_nope', at: 'never-ish' } });
      expect(bad.isError).toBe(true);
      // 2026-07-28 clients hear of changes on a subscriptions/listen stream
      const updated = new Promise<string>((done) => modern.setNotificationHandler('notifications/resources/updated', (n) => done(n.params.uri)));
      const subscription = await modern.listen({ resourceSubscriptions: ['tempora://facts/me/current'] });
      await call('remember_facts', { facts: [{ subject: 'me', predicate: 'lives in', object: 'Nara', fact: 'I live in Nara.', cardinality: 'one' }] }, modern);
      expect(await updated).toBe('tempora://facts/me/current');
      await subscription.close();
    } finally {
      await modern.close();
    }
  });

  it('wrote nothing but MCP frames to stdout, and its log to stderr', () => {
    // A stray line on stdout would have broken the client's framing above; the log went to stderr.
    expect(stderr()).toMatch(/tempora mcp: serving .* over stdio/);
  });
});
