/**
 * A moment asked about, said as a day, month or year, means what was true by the end of it — and now
 * while it lasts. A fact remembered without a date starts at the call's instant and reads "since
 * <today>"; "as of 今日" must find it, and "known at 今日" must hold what was recorded today. Driven
 * by the MCP SDK client over Streamable HTTP, for a user in Tokyo.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolOutputs } from '../../electron/mcp/tool-schemas';
import { openMcpSession } from '../fixtures/mcp-http-server';

let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ client, close } = await openMcpSession({ name: 'moments', timeZone: 'Asia/Tokyo' }));
  const remembered = await client.callTool({
    name: 'remember_facts',
    arguments: {
      facts: [
        { subject: 'me', predicate: 'lives in', object: '大阪', fact: '大阪に住んでいます。', cardinality: 'one' },
        { subject: 'me', predicate: 'manager', object: '田中', fact: '上司は田中さん。', valid_at: '2026-03-01', cardinality: 'one' },
        { subject: 'me', predicate: 'manager', object: '佐藤', fact: '上司は佐藤さん。', valid_at: '2026-03-10T15:00', cardinality: 'one' },
      ],
    },
  });
  expect(remembered.isError, JSON.stringify(remembered.content)).toBeFalsy();
});

afterAll(() => close?.());

async function listed(args: Record<string, unknown>): Promise<string[]> {
  const result = await client.callTool({ name: 'list_facts', arguments: { subject: 'me', ...args } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return toolOutputs.list_facts.parse(result.structuredContent).facts.map((f) => f.fact).sort();
}

const todayInTokyo = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());

describe('as_of and known_at said as a day', () => {
  it('finds a fact remembered today without a date as of 今日, today and today’s date, not as of yesterday', async () => {
    for (const asOf of ['今日', 'today', todayInTokyo()]) expect(await listed({ as_of: asOf, predicate: 'lives in' }), asOf).toEqual(['大阪に住んでいます。']);
    expect(await listed({ as_of: '昨日', predicate: 'lives in' })).toEqual([]);
  });

  it('a past day means what was true by its end; the day before, what was true then', async () => {
    expect(await listed({ as_of: '2026-03-10', predicate: 'manager' })).toEqual(['上司は佐藤さん。']);
    expect(await listed({ as_of: '2026-03-09', predicate: 'manager' })).toEqual(['上司は田中さん。']);
    expect(await listed({ as_of: '2026-03-10T14:59', predicate: 'manager' })).toEqual(['上司は田中さん。']);
    expect(await listed({ as_of: '2026年3月', predicate: 'manager' })).toEqual(['上司は佐藤さん。']);
    expect(await listed({ as_of: '2026年2月', predicate: 'manager' })).toEqual([]);
  });

  it('known at 今日 holds what was recorded today; known at 昨日 held nothing', async () => {
    expect(await listed({ known_at: '今日' })).toHaveLength(2);
    expect(await listed({ known_at: '昨日' })).toEqual([]);
  });

  it('says the day asked about, not the instant it was read as', async () => {
    const result = await client.callTool({ name: 'list_facts', arguments: { subject: 'me', predicate: 'manager', as_of: '2026-03-10' } });
    const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    expect(text).toMatch(/^As of 10 Mar 2026: 1 fact\./);
  });
});
