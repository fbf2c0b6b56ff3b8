/**
 * Time arguments read by one reader at every door (issue 27, item 7): an impossible date, an
 * impossible UTC offset or an ambiguous numeric date is a tool error naming the argument — never 0
 * facts, never "Tempora failed" — and changes nothing; a numeric date whose day is over 12 (or equals
 * its month) has one reading and is answered. Driven by the MCP SDK client over Streamable HTTP, for
 * a user in Tokyo; the API's readTime (the app and the bridge) gives the same sentences.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHandlers, type TemporaEngine } from '../../electron/engine/index';
import { toolOutputs } from '../../electron/mcp/tool-schemas';
import { openMcpSession } from '../fixtures/mcp-http-server';

let engine: TemporaEngine;
let client: Client;
let close: (() => Promise<void>) | undefined;

beforeAll(async () => {
  ({ engine, client, close } = await openMcpSession({
    name: 'times',
    timeZone: 'Asia/Tokyo',
    seed: (engine) => {
      engine.memory.facts.observe([
        { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T00:00:00+09:00', cardinality: 'one' },
        { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager is B.', reference_time: '2026-09-15T00:00:00+09:00', cardinality: 'one' },
      ]);
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
  expect(result.isError).toBe(true);
  expect(snapshot()).toBe(before);
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
}

async function managerAsOf(asOf: string): Promise<string[]> {
  const result = await client.callTool({ name: 'list_facts', arguments: { predicate: 'manager', as_of: asOf } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return toolOutputs.list_facts.parse(result.structuredContent).facts.map((f) => f.object);
}

const AMBIGUOUS = 'as_of: 10/09/2026 is ambiguous: 10 Sep 2026 (day first) or 9 Oct 2026 (month first)? Write 2026-09-10 or 2026-10-09 (or "10 Sep 2026"); a numeric date is read only when its day is over 12 or equals its month';

describe('MCP time arguments', () => {
  it('an impossible date is an error naming the argument, not 0 facts', async () => {
    expect(await refused('list_facts', { as_of: '2026-13-01' })).toBe('as_of: 2026-13-01 is not a date: there is no month 13');
    expect(await refused('search_memory', { query: 'manager', known_at: '2026-02-29' })).toBe('known_at: 2026-02-29 is not a date: February 2026 has 28 days');
    expect(await refused('close_fact', { id: engine.memory.facts.list({})[0]!.id, at: '2026/09/31' })).toBe('at: 2026/09/31 is not a date: September 2026 has 30 days');
    expect(await refused('remember_message', { content: 'hello', reference_time: '2026-09-01T24:00' })).toBe('reference_time: 2026-09-01T24:00 is not a time: there is no hour 24');
    // A fact's own times, checked where observe reads them, in the same words.
    const fact = { subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.' };
    expect(await refused('remember_facts', { facts: [{ ...fact, valid_at: '2026-13-01' }] })).toBe('facts[0].valid_at: 2026-13-01 is not a date: there is no month 13');
    expect(await refused('remember_facts', { facts: [{ ...fact, invalid_at: '2026-09-30T10:00+25:00' }] })).toBe('facts[0].invalid_at: 2026-09-30T10:00+25:00 is not a time: there is no UTC offset +25:00');
  });

  it("an end before the start names the user's zone by its name, as every other time error does", async () => {
    const fact = { subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.' };
    expect(await refused('remember_facts', { facts: [{ ...fact, valid_at: '2021-01-01', invalid_at: '2020-06-01' }] })).toBe('facts[0].invalid_at: must be after valid_at (1 Jan 2021, in Asia/Tokyo)');
    expect(await refused('remember_facts', { facts: [{ ...fact, valid_at: '2021-01-01', invalid_at: '2020-06-01' }], reference_time: '2026-09-01T10:00' })).toBe(
      'facts[0].invalid_at: must be after valid_at (1 Jan 2021, in Asia/Tokyo)',
    );
  });

  it('an impossible UTC offset is an error naming the argument, not "Tempora failed"', async () => {
    expect(await refused('search_memory', { query: 'manager', as_of: '2026-09-10T09:00+25:00' })).toBe('as_of: 2026-09-10T09:00+25:00 is not a time: there is no UTC offset +25:00');
    expect(await refused('list_facts', { known_at: '2026-09-10T09:00:00-03:60' })).toBe('known_at: 2026-09-10T09:00:00-03:60 is not a time: there is no UTC offset -03:60');
    expect(await managerAsOf('2026-09-15T00:00+23:59')).toEqual(['A']);
  });

  it('an ambiguous numeric date names both readings and asks for an unambiguous one', async () => {
    expect(await refused('list_facts', { as_of: '10/09/2026' })).toBe(AMBIGUOUS);
    expect(await refused('list_facts', { as_of: '12.09.2026' })).toMatch(/^as_of: 12\.09\.2026 is ambiguous: 12 Sep 2026 \(day first\) or 9 Dec 2026 \(month first\)\?/);
    const fact = { subject: 'me', predicate: 'lives_in', object: 'Kyoto', fact: 'I live in Kyoto.' };
    expect(await refused('remember_facts', { facts: [{ ...fact, valid_at: '10/09/2026' }] })).toMatch(/^facts\[0\]\.valid_at: 10\/09\/2026 is ambiguous: 10 Sep 2026 \(day first\) or 9 Oct 2026 \(month first\)\?/);
    expect(await refused('list_facts', { as_of: '10/09/26' })).toBe('as_of: 10/09/26 is not a date: write the year in full, like 2026-09-10 or "10 Sep 2026"');
  });

  it('a numeric date with one reading is answered: the day is over 12, or equals the month', async () => {
    expect(await managerAsOf('13/09/2026')).toEqual(['A']);
    expect(await managerAsOf('09/13/2026')).toEqual(['A']);
    expect(await managerAsOf('15/09/2026')).toEqual(['B']);
    expect(await managerAsOf('09/09/2026')).toEqual(['A']);
    expect(await managerAsOf('2026-09-15')).toEqual(['B']);
    expect(await refused('list_facts', { as_of: '31/09/2026' })).toBe('as_of: 31/09/2026 is not a date: September 2026 has 30 days');
  });

  it('the app and the bridge read a typed time with the same reader and the same words', async () => {
    const api = createApiHandlers(engine);
    await expect(api.readTime({ text: '2026-13-01', field: 'asOf' })).rejects.toThrow('asOf: 2026-13-01 is not a date: there is no month 13');
    await expect(api.readTime({ text: '10/09/2026', field: 'asOf' })).rejects.toThrow(AMBIGUOUS.replace(/^as_of/, 'asOf'));
    expect(await api.readTime({ text: '25/09/2026' })).toEqual({ at: '2026-09-25T14:59:59.998Z', precision: 'day', now: false });
    // A day that holds now is now, following the clock (the Facts list's as-of then follows it).
    for (const text of ['today', '今日', 'now']) expect((await api.readTime({ text })).now, text).toBe(true);
  });
});
