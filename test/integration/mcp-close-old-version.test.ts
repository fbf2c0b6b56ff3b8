/**
 * close_fact (and correct_fact's end) given the id of an OLD version of a fact, through the MCP SDK
 * client against a spawned `tempora mcp`: the end is checked against the start of the fact's
 * current version — the one the close writes over — never against the start the old version had.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../../electron/mcp/tool-schemas';
import { openMcpStdio } from '../fixtures/mcp-stdio-client';

let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ client, close } = await openMcpStdio({ name: 'close-old', timeZone: 'Asia/Tokyo', clientName: 'tempora-test' }));
});

afterAll(() => close?.());

/** A fact said to start at `from`, then corrected to start at `to`: the ids of the old and the current version. */
async function movedStart(object: string, from: string, to: string): Promise<{ old: string; current: string }> {
  const added = await client.callTool({ name: 'remember_facts', arguments: { facts: [{ subject: 'me', predicate: 'works_at', object, fact: `I work at ${object}.`, valid_at: from }], reference_time: '2026-07-01T00:00:00Z' } });
  const old = s.toolOutputs.remember_facts.parse(added.structuredContent).added[0]!.id;
  const corrected = await client.callTool({ name: 'correct_fact', arguments: { id: old, valid_at: to } });
  return { old, current: s.toolOutputs.correct_fact.parse(corrected.structuredContent).fact.id };
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[]).map((c) => c.text).join('\n');

describe('close_fact with the id of an old version', () => {
  it('closes when the end is after the current start, though before the old one', async () => {
    const { old } = await movedStart('Acme', '2026-06-01', '2026-01-01');
    const closing = await client.callTool({ name: 'close_fact', arguments: { id: old, at: '2026-03-01' } });
    expect(text(closing)).not.toMatch(/must be after/);
    expect(closing.isError).toBeFalsy();
    const closed = s.toolOutputs.close_fact.parse(closing.structuredContent).fact;
    expect(closed).toMatchObject({ object: 'Acme', valid_at: '2025-12-31T15:00:00.000Z', invalid_at: '2026-02-28T15:00:00.000Z' });
  });

  it('refuses an end before the current start, naming that start in the user’s zone, and changes nothing', async () => {
    const { old, current } = await movedStart('Globex', '2026-01-01', '2026-06-01');
    const closing = await client.callTool({ name: 'close_fact', arguments: { id: old, at: '2026-03-01' } });
    expect(closing.isError).toBe(true);
    expect(text(closing)).toBe('at (1 Mar 2026) must be after valid_at (1 Jun 2026), times in Asia/Tokyo');
    const history = s.toolOutputs.fact_history.parse((await client.callTool({ name: 'fact_history', arguments: { id: current } })).structuredContent);
    expect(history.fact).toMatchObject({ id: current, invalid_at: null });
  });

  it('checks correct_fact’s end against the current start too', async () => {
    const { old } = await movedStart('Initech', '2026-01-01', '2026-06-01');
    const correcting = await client.callTool({ name: 'correct_fact', arguments: { id: old, invalid_at: '2026-03-01' } });
    expect(correcting.isError).toBe(true);
    expect(text(correcting)).toBe('invalid_at (1 Mar 2026) must be after valid_at (1 Jun 2026), times in Asia/Tokyo');
  });
});
