/**
 * Control characters in stored text (ESC, BEL, CR, a lone CSI U+009B, DEL, the bidi overrides) come
 * back escaped in the text a tool answers — the words and the JSON beside them — as the command line
 * shows them (shared/escape-controls.ts), while the structured content keeps the text as stored.
 * Driven by the MCP SDK client over Streamable HTTP.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolOutputs } from '../../electron/mcp/tool-schemas';
import { openMcpSession } from '../fixtures/mcp-http-server';

// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const SENTENCE = 'My manager is \u001b]0;pwned\u0007Ann\u009b2J\r\u202Eevil\u007f.';

let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ client, close } = await openMcpSession({ name: 'controls', timeZone: 'UTC' }));
});

afterAll(() => close?.());

const texts = (result: { content?: unknown }) => (result.content as { type: string; text: string }[]).map((c) => c.text);

describe('control characters in what the tools say', () => {
  it('are escaped in every text block and kept as stored in the structured content', async () => {
    const remembered = await client.callTool({
      name: 'remember_facts',
      arguments: { facts: [{ subject: 'me', predicate: 'manager', object: 'Ann', fact: SENTENCE }], reference_time: '2026-09-01T00:00:00Z' },
    });
    expect(remembered.isError, JSON.stringify(remembered.content)).toBeFalsy();
    const added = toolOutputs.remember_facts.parse(remembered.structuredContent).added[0]!;
    expect(added.fact).toBe(SENTENCE);
    const calls = [
      remembered,
      await client.callTool({ name: 'list_facts', arguments: { subject: 'me' } }),
      await client.callTool({ name: 'search_memory', arguments: { query: 'manager Ann' } }),
      await client.callTool({ name: 'fact_history', arguments: { id: added.id } }),
      await client.callTool({ name: 'close_fact', arguments: { id: added.id, at: '2026-10-01' } }),
    ];
    for (const result of calls) {
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      for (const text of texts(result)) expect(text).not.toMatch(RAW);
    }
    const listed = texts(calls[1]!);
    expect(listed[0]).toContain('My manager is \\x1b]0;pwned\\x07Ann\\u009b2J\\x0d\\u202eevil\\x7f.');
    // The JSON beside the words still reads back as the stored text.
    expect(toolOutputs.list_facts.parse(JSON.parse(listed[1]!)).facts[0]!.fact).toBe(SENTENCE);
    expect(toolOutputs.list_facts.parse(calls[1]!.structuredContent).facts[0]!.fact).toBe(SENTENCE);
  });

  it('are escaped in a tool error that repeats what was sent', async () => {
    const result = await client.callTool({ name: 'list_facts', arguments: { as_of: 'blorp\u009b\u202e' } });
    expect(result.isError).toBe(true);
    for (const text of texts(result)) expect(text).not.toMatch(RAW);
  });
});

describe('the current-facts resource', () => {
  it('is JSON with its control characters escaped, that reads back as stored', async () => {
    const sentence = 'I live in \u009b31mKyoto\u202e.';
    await client.callTool({ name: 'remember_facts', arguments: { facts: [{ subject: 'me', predicate: 'lives in', object: 'Kyoto', fact: sentence }] } });
    const read = await client.readResource({ uri: 'tempora://facts/me/current' });
    const text = (read.contents[0] as { text: string }).text;
    expect(text).not.toMatch(RAW);
    expect((JSON.parse(text) as { facts: { fact: string }[] }).facts.map((f) => f.fact)).toContain(sentence);
  });
});
