/**
 * What the write tools answer. `remember_facts` answers `added` in the order the facts were given: an agent that takes the ids by
 * position must not edit the wrong fact (they came back ordered by valid_at). Driven by the MCP SDK
 * client over Streamable HTTP, for a user in Tokyo.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TemporaEngine } from '../../electron/engine/index';
import { toolOutputs } from '../../electron/mcp/tool-schemas';
import { openMcpSession } from '../fixtures/mcp-http-server';

let engine: TemporaEngine;
let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ engine, client, close } = await openMcpSession({ name: 'order', timeZone: 'Asia/Tokyo' }));
});

afterAll(() => close?.());

describe('remember_facts', () => {
  it('answers the facts added in the order they were given, whatever their dates', async () => {
    const facts = [
      { subject: 'me', predicate: 'lives in', object: '大阪', fact: '大阪に住んでいます。', valid_at: '2026年2月' },
      { subject: 'me', predicate: 'hobby', object: '将棋', fact: '趣味は将棋です。', valid_at: '2020年' },
      { subject: 'me', predicate: 'pet', object: 'Mochi', fact: 'My cat is Mochi.', valid_at: '2024-05-01' },
    ];
    const result = await client.callTool({ name: 'remember_facts', arguments: { facts } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const { added } = toolOutputs.remember_facts.parse(result.structuredContent);
    expect(added.map((f) => f.fact)).toEqual(facts.map((f) => f.fact));
  });

  it('close_fact and correct_fact past the value that closes a one-valued fact say the end is held back', async () => {
    const said = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    };
    const remembered = await client.callTool({
      name: 'remember_facts',
      arguments: {
        facts: [
          { subject: 'me', predicate: 'manager', object: '田中', fact: '上司は田中さん。', valid_at: '2026-04-01', cardinality: 'one' },
          { subject: 'me', predicate: 'manager', object: '佐藤', fact: '上司は佐藤さん。', valid_at: '2026-10-01', cardinality: 'one' },
        ],
      },
    });
    const tanaka = toolOutputs.remember_facts.parse(remembered.structuredContent).added[0]!;
    const closed = await said('close_fact', { id: tanaka.id, at: '2026-11-01' });
    expect(closed).toContain('It still ends where the next value begins (1 Oct 2026); the end given is kept and shows only if that fact goes. To move this end, change when that fact began.');
    const current = () => engine.memory.facts.list({ predicate: 'manager', history: true }).find((f) => f.object === '田中' && f.expired_at === null)!;
    const reopened = await said('correct_fact', { id: current().id, invalid_at: null });
    expect(reopened).toContain('It still ends where the next value begins (1 Oct 2026); the end it had is dropped, so it stays open if that fact goes.');
    expect(await said('correct_fact', { id: current().id, fact: '上司は田中部長。' })).not.toContain('still ends');
  });

  it('remember_message is a duplicate when retried with its reference_time, and not marked idempotent without one', async () => {
    const send = async (args: Record<string, unknown>) => toolOutputs.remember_message.parse((await client.callTool({ name: 'remember_message', arguments: args })).structuredContent);
    const told = { content: '明日は雨です。', reference_time: '2026-12-05T09:00:00+09:00' };
    const first = await send(told);
    expect(await send(told)).toMatchObject({ episode_id: first.episode_id, duplicate: true });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'remember_message')?.annotations?.idempotentHint).toBe(false);
  });

  it('remember_message says a retry was already stored, not "Stored" again', async () => {
    const send = async (args: Record<string, unknown>) => (await client.callTool({ name: 'remember_message', arguments: args })).content as { text: string }[];
    const told = { content: '来週は京都です。', reference_time: '2026-12-06T09:00:00+09:00' };
    expect((await send(told))[0]!.text).toMatch(/^Stored and queued/);
    expect((await send(told))[0]!.text).toMatch(/^Already stored \(the same message, said at the same time\); nothing changed\. It is queued: /);
  });
});

describe('the write tools in words', () => {
  const words = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { error: result.isError === true, text: (result.content as { text: string }[])[0]!.text, structured: result.structuredContent };
  };

  it('count in words: "1 fact", "2 fact versions", never "fact(s)"', async () => {
    const one = await words('remember_facts', { facts: [{ subject: 'me', predicate: 'drinks', object: '緑茶', fact: '緑茶を飲む。' }] });
    expect(one.text).toBe('Remembered 1 fact: 1 added, 0 closed, 0 confirmed.');
    const id = toolOutputs.remember_facts.parse(one.structured).added[0]!.id;
    await words('correct_fact', { id, fact: '毎朝緑茶を飲む。' });
    const forgot = await words('forget_fact', { id, with_sources: true });
    expect(forgot.text).toBe('Forgot 2 fact versions; 1 source message deleted, 0 kept.');
  });

  it('close_fact at the end it already has names `at` and that end, and changes nothing', async () => {
    const added = await words('remember_facts', { facts: [{ subject: 'me', predicate: 'works at', object: 'Acme', fact: 'I work at Acme.', valid_at: '2020-04-01' }] });
    const id = toolOutputs.remember_facts.parse(added.structured).added[0]!.id;
    expect((await words('close_fact', { id, at: '2025年3月' })).error).toBe(false);
    const again = await words('close_fact', { id, at: '2025年3月' });
    expect(again).toMatchObject({ error: true, text: 'at: the fact already ends then (ended March 2025); nothing changed' });
    const history = toolOutputs.fact_history.parse((await words('fact_history', { id })).structured);
    expect(history.versions).toHaveLength(2);
  });

  it('correct_fact moving the start past the end it has says both in the user’s zone, naming valid_at', async () => {
    const added = await words('remember_facts', { facts: [{ subject: 'me', predicate: 'studied at', object: '東大', fact: '東大で学んだ。', valid_at: '2010-04-01', invalid_at: '2014-03-31' }] });
    const id = toolOutputs.remember_facts.parse(added.structured).added[0]!.id;
    const moved = await words('correct_fact', { id, valid_at: '2015-04-01' });
    expect(moved).toMatchObject({
      error: true,
      text: 'valid_at (1 Apr 2015) must be before the end the fact has (31 Mar 2014), times in Asia/Tokyo: give invalid_at too, or invalid_at null to reopen it',
    });
    expect(toolOutputs.fact_history.parse((await words('fact_history', { id })).structured).versions).toHaveLength(1);
  });
});
