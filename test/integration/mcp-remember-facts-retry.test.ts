/**
 * remember_facts declares itself idempotent (idempotentHint): an agent that retries a call — the same
 * facts at the same reference_time — must change nothing more. The facts were already confirmed
 * once; the message behind them must not be stored twice either (two "said 7 Dec, 20:00" sources of
 * one sentence). Driven by the MCP SDK client over Streamable HTTP, for a user in Tokyo.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolOutputs } from '../../electron/mcp/tool-schemas';
import { openMcpSession } from '../fixtures/mcp-http-server';

let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ client, close } = await openMcpSession({ name: 'retry', timeZone: 'Asia/Tokyo' }));
});

afterAll(() => close?.());

const shodo = { subject: 'me', predicate: 'learns', object: '書道', fact: '先月から書道を習っています。', valid_at: '先月', cardinality: 'many' };

async function remember(args: Record<string, unknown>) {
  const result = await client.callTool({ name: 'remember_facts', arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return { ...toolOutputs.remember_facts.parse(result.structuredContent), said: (result.content as { text: string }[])[0]!.text };
}

async function sources(id: string): Promise<string> {
  const result = await client.callTool({ name: 'fact_history', arguments: { id } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return (result.content as { text: string }[])[0]!.text.split('\n')[0]!;
}

describe('remember_facts retried', () => {
  it('the same call at the same reference_time stores no second message', async () => {
    const call = { facts: [shodo], reference_time: '2026-12-07T20:00:00+09:00' };
    const first = await remember(call);
    expect(first.added).toHaveLength(1);
    const again = await remember(call);
    expect({ added: again.added.length, closed: again.closed.length, confirmed: again.confirmed.length }).toEqual({ added: 0, closed: 0, confirmed: 0 });
    expect(again.said).toBe('Already remembered (the same 1 fact, said at the same time); nothing changed.');
    expect(again.episode_ids).toEqual(first.episode_ids);
    expect(await sources(first.added[0]!.id)).toBe('先月から書道を習っています。: 1 version, 1 source message.');
  });

  it('the same sentence said at another time is another message, and a second source', async () => {
    const sado = { ...shodo, object: '茶道', fact: '茶道を習っています。', valid_at: '2026-11-01' };
    const first = await remember({ facts: [sado], reference_time: '2026-12-01T20:00:00+09:00' });
    const later = await remember({ facts: [sado], reference_time: '2026-12-05T20:00:00+09:00' });
    expect(later.episode_ids).not.toEqual(first.episode_ids);
    expect(later.said).toBe('Remembered 1 fact: 0 added, 0 closed, 1 confirmed.');
    expect(await sources(first.added[0]!.id)).toMatch(/: 1 version, 2 source messages\.$/);
  });
});
