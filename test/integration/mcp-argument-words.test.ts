/**
 * The tools' declared input schemas say what the server refuses, and a refused argument is named
 * as the app names it everywhere else: a text argument of only spaces is refused by the schema
 * itself (a `pattern` a client can check before it calls), in words naming the argument. Driven by
 * the MCP SDK client over Streamable HTTP.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { openMcpSession } from '../fixtures/mcp-http-server';

let engine: TemporaEngine;
let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ engine, client, close } = await openMcpSession({
    name: 'words',
    timeZone: 'UTC',
    seed: (engine) => {
      engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T00:00:00Z' }]);
    },
  }));
});

afterAll(() => close?.());

const snapshot = () => {
  const { exported_at: _, ...rest } = engine.memory.transfer.export();
  return JSON.stringify(rest);
};

async function refused(name: string, args: Record<string, unknown>): Promise<string> {
  const before = snapshot();
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  expect(snapshot()).toBe(before);
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
}

type Schema = { type?: string; pattern?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };

/** Every string property of a tool's input schema, by its path ("facts[].fact"). */
function strings(schema: Schema, at = ''): [string, Schema][] {
  if (schema.type === 'string') return [[at, schema]];
  if (schema.anyOf) return schema.anyOf.flatMap((s) => strings(s, at));
  if (schema.items) return strings(schema.items, `${at}[]`);
  return Object.entries(schema.properties ?? {}).flatMap(([key, s]) => strings(s, at ? `${at}.${key}` : key));
}

describe('text arguments of only spaces', () => {
  it('are refused by the declared schema: every text argument carries a pattern', async () => {
    const { tools } = await client.listTools();
    const found = tools.flatMap((t) => strings(t.inputSchema as Schema).filter(([, s]) => !(s as { enum?: unknown }).enum).map(([path, s]) => [`${t.name}: ${path}`, s.pattern] as const));
    expect(found.map(([where]) => where)).toEqual(expect.arrayContaining(['remember_facts: facts[].fact', 'remember_facts: facts[].subject', 'search_memory: query', 'remember_message: content', 'close_fact: at', 'fact_history: id']));
    for (const [where, pattern] of found) expect(pattern, where).toBe('\\S');
  });

  it('are refused in words naming the argument, and change nothing', async () => {
    const fact = await refused('remember_facts', { facts: [{ subject: 'me', predicate: 'likes', object: 'tea', fact: '   ' }] });
    expect(fact).toContain('facts[0].fact: is empty or only spaces');
    expect(fact).not.toMatch(/Too small/);
    expect(await refused('search_memory', { query: ' \t ' })).toMatch(/query: is empty or only spaces/);
    expect(await refused('remember_message', { content: '  ' })).toMatch(/content: is empty or only spaces/);
    expect(await refused('list_facts', { subject: ' ' })).toMatch(/subject: is empty or only spaces/);
    const id = engine.memory.facts.list({ subject: 'me' })[0]!.id;
    expect(await refused('correct_fact', { id, object: '   ' })).toMatch(/object: is empty or only spaces/);
    expect(await refused('close_fact', { id, at: ' ' })).toMatch(/at: is empty or only spaces/);
  });

  it('a name or sentence of only invisible characters is refused too, and changes nothing', async () => {
    const before = engine.memory.facts.list({ history: true }).length;
    const zeroWidth = await refused('remember_facts', { facts: [{ subject: '\u200B', predicate: 'likes', object: 'tea', fact: 'Someone likes tea.' }] });
    expect(zeroWidth).toContain('facts[0].subject: holds only invisible characters');
    expect(await refused('remember_facts', { facts: [{ subject: 'me', predicate: 'likes', object: '\u0000\u2060', fact: 'I like it.' }] })).toContain('facts[0].object: holds only invisible characters');
    expect(await refused('list_facts', { subject: '\u200B\u200C' })).toMatch(/subject: holds only invisible characters/);
    expect(engine.memory.facts.list({ history: true })).toHaveLength(before);
  });
});

describe("the schema's own refusals", () => {
  it('name the argument as the app does, facts[0].fact, never facts.0.fact', async () => {
    const two = await refused('remember_facts', {
      facts: [
        { subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.' },
        { subject: 'me', predicate: 'likes', object: 'coffee', fact: '', cardinality: 'some' },
      ],
    });
    expect(two).toContain('facts[1].fact: is empty or only spaces');
    expect(two).toMatch(/facts\[1\]\.cardinality: /);
    expect(two).not.toMatch(/facts\.\d/);
    expect(await refused('remember_facts', { facts: [{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', colour: 'red' }] })).toContain(
      'facts[0].colour: not an argument of this tool',
    );
    expect(await refused('list_facts', { limit: 0 })).toMatch(/limit: /);
    expect(await refused('fact_history', {})).toMatch(/id: /);
  });

  it("say what is wrong in the app's words, as a tool error, never the SDK's \"Input validation error\" or zod's text", async () => {
    expect(await refused('list_facts', { limit: 0 })).toBe('list_facts: limit: must be at least 1 (it was 0)');
    expect(await refused('list_facts', { limit: 'ten' })).toBe('list_facts: limit: must be a number, not a string');
    expect(await refused('list_facts', { limit: 2.5 })).toBe('list_facts: limit: must be a whole number (it was 2.5)');
    expect(await refused('fact_history', {})).toBe('fact_history: id: is missing');
    expect(await refused('remember_facts', { facts: [] })).toBe('remember_facts: facts: is empty: give at least one');
    expect(await refused('remember_facts', { facts: 'I like tea.' })).toBe('remember_facts: facts: must be an array, not a string');
    const unknown = await refused('search_memory', { query: 'tea', colour: 'red' });
    expect(unknown).toBe('search_memory: colour: not an argument of this tool');
    for (const text of [unknown, await refused('list_facts', { limit: 0 })]) expect(text).not.toMatch(/Input validation error|Invalid arguments|Too small|Invalid input|expected number/);
  });
});
