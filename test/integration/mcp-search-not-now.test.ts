/**
 * search_memory when nothing true now matches: it says, as `tempora search` does, that a fact that
 * was true before or one still to come (a plan) matches, and how to see it (include_history) — not a
 * bare "0 facts found." that tells an agent the memory knows nothing. Driven by the MCP SDK client
 * over Streamable HTTP, for a user in Tokyo.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMcpSession } from '../fixtures/mcp-http-server';

let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ client, close } = await openMcpSession({ name: 'not-now', timeZone: 'Asia/Tokyo' }));
  const remembered = await client.callTool({
    name: 'remember_facts',
    arguments: {
      facts: [
        { subject: 'me', predicate: 'lived in', object: '大阪', fact: '大阪に住んでいた。', valid_at: '2020-04-01', invalid_at: '2025-03-31', cardinality: 'one' },
        { subject: 'me', predicate: 'plans', object: 'Berlin', fact: 'A conference in Berlin.', valid_at: '2099-02-10', invalid_at: '2099-02-14', cardinality: 'many' },
        { subject: 'me', predicate: 'likes', object: 'coffee', fact: 'I like coffee.', cardinality: 'many' },
      ],
    },
  });
  expect(remembered.isError, JSON.stringify(remembered.content)).toBeFalsy();
});

afterAll(() => close?.());

async function searched(args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name: 'search_memory', arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  // The words first; the structured result follows as JSON text for older clients.
  return (result.content as { type: string; text: string }[])[0]!.text;
}

describe('search_memory: only another time matches', () => {
  it('a plan to come will be true later; a fact that ended was true before', async () => {
    expect(await searched({ query: 'Berlin' })).toBe('0 facts found.\nNo facts true now match "Berlin"; 1 fact that will be true later does: call again with include_history true to see it.');
    expect(await searched({ query: '大阪' })).toBe('0 facts found.\nNo facts true now match "大阪"; 1 fact that was true before does: call again with include_history true to see it.');
    expect(await searched({ query: 'Berlin', include_history: true })).toContain('A conference in Berlin.');
  });

  it('says nothing more when nothing matches at any time, or a time was asked', async () => {
    expect(await searched({ query: 'zebra' })).toBe('0 facts found.');
    expect(await searched({ query: 'Berlin', as_of: '2026-01-01' })).toBe('0 facts found.');
  });
});
