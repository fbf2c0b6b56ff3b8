/**
 * MCP arguments fuzzed (issue 13's invariant, for the MCP face): any arguments to any tool give a
 * valid result or a tool error in words — never a protocol failure or a crash — and a tool error
 * changes nothing in the memory.
 */
import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { toolOutputs, type ToolName } from '../../electron/mcp/tool-schemas';
import { openMcpSession } from '../fixtures/mcp-http-server';

const TOOLS = Object.keys(toolOutputs) as ToolName[];
let engine: TemporaEngine;
let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ engine, client, close } = await openMcpSession({
    name: 'fuzz',
    timeZone: 'UTC',
    seed: (engine) => {
      engine.memory.facts.observe([{ subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T00:00:00Z', cardinality: 'one' }]);
    },
  }));
});

afterAll(() => close?.());

const snapshot = () => {
  const { exported_at: _, ...rest } = engine.memory.transfer.export();
  return JSON.stringify(rest);
};

/** Values of the kinds a confused model sends: wrong types, odd strings, times and phrases, deep objects. */
const value = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', ' ', 'now', 'yesterday', '先週', '2026-02-30', '0000-01-01T00:00:00+01:00', '9999-12-31T23:59:59Z', 'fct_nope', '\u0000', 'x'.repeat(5000)),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
);
const argumentsArb = fc.dictionary(
  fc.constantFrom('query', 'id', 'facts', 'subject', 'predicate', 'object', 'fact', 'valid_at', 'invalid_at', 'at', 'as_of', 'known_at', 'include_history', 'limit', 'content', 'role', 'reference_time', 'conversation', 'entity', 'cardinality', 'object_type', 'extra'),
  fc.oneof(value, fc.array(fc.dictionary(fc.constantFrom('subject', 'predicate', 'object', 'fact', 'valid_at', 'cardinality'), value), { maxLength: 3 })),
  { maxKeys: 6 },
);

describe('MCP arguments, fuzzed', () => {
  it('any arguments to any tool: a result or a tool error in words; an error changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOLS), argumentsArb, async (tool, args) => {
        const before = snapshot();
        const result = await client.callTool({ name: tool, arguments: args });
        if (result.isError) {
          const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join(' ');
          expect(text.length).toBeGreaterThan(0);
          expect(text).not.toMatch(/\n\s+at /); // no stack trace
          expect(snapshot()).toBe(before);
        } else {
          expect(result.structuredContent).toBeDefined();
        }
      }),
      { numRuns: 150 },
    );
    // Still serving.
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
  }, 60_000);
});
