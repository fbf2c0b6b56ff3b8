/**
 * What MCP tools say in text is in the user's words (issue 27 item 6): each fact's interval in the
 * user's zone at the precision it was said, by the one formatter ("1 Sep – 15 Sep 2026", "since
 * March 2026"), never a UTC instant an agent would repeat as the wrong day; a question about a date
 * is framed ("As of 10 Sep 2026: … Now: …"). The structured content stays ISO. Through `tempora mcp`
 * spawned with TEMPORA_TZ=Asia/Tokyo, driven by the SDK client over stdio.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFactsOutput, searchMemoryOutput } from '../../electron/mcp/tool-schemas';
import { openMcpStdio } from '../fixtures/mcp-stdio-client';

let client: Client;
let close: (() => Promise<void>) | undefined;

/** An instant as ISO writes it: what no text an agent reads should carry. */
const ISO_INSTANT = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

async function call(name: string, args: Record<string, unknown>): Promise<{ words: string; json: string; structured: unknown }> {
  const result = await client.callTool({ name, arguments: args });
  const blocks = (result.content as { type: string; text: string }[]).map((c) => c.text);
  if (result.isError) throw new Error(`${name} failed: ${blocks.join('\n')}`);
  return { words: blocks[0]!, json: blocks.slice(1).join('\n'), structured: result.structuredContent };
}

beforeAll(async () => {
  ({ client, close } = await openMcpStdio({ name: 'words', timeZone: 'Asia/Tokyo' }));
  const manager = (object: string, valid_at: string) => ({ subject: 'me', predicate: 'manager', object, fact: `My manager is ${object}.`, cardinality: 'one', valid_at });
  await call('remember_facts', { facts: [manager('A', '2026-09-01')], reference_time: '2026-09-01T10:00:00+09:00' });
  await call('remember_facts', { facts: [manager('B', '2026-09-15')], reference_time: '2026-09-15T10:00:00+09:00' });
  await call('remember_facts', { facts: [{ subject: 'me', predicate: 'hobby', object: 'bouldering', fact: 'My hobby is bouldering.', valid_at: 'March 2026' }], reference_time: '2026-04-02T10:00:00+09:00' });
});

afterAll(() => close?.());

describe('MCP text in the user’s words (Asia/Tokyo)', () => {
  it('list_facts says each interval in days of Tokyo, at the precision said; the structure stays ISO', async () => {
    const listed = await call('list_facts', { subject: 'me', include_history: true });
    expect(listed.words).not.toMatch(ISO_INSTANT);
    expect(listed.words).toContain('My manager is A. (1 Sept – 15 Sept 2026;');
    expect(listed.words).toContain('My manager is B. (since 15 Sept 2026;');
    expect(listed.words).toContain('My hobby is bouldering. (since March 2026;');
    const a = listFactsOutput.parse(listed.structured).facts.find((f) => f.object === 'A' && f.expired_at === null)!;
    expect(a.valid_at).toBe('2026-08-31T15:00:00.000Z'); // 1 Sept in Tokyo
    expect(a.invalid_at).toBe('2026-09-14T15:00:00.000Z');
    expect(listed.json).toContain('"valid_at":"2026-08-31T15:00:00.000Z"'); // the serialized JSON, beside the words
  });

  it('list_facts as of a day says which day it answers for', async () => {
    const listed = await call('list_facts', { predicate: 'manager', as_of: '2026-09-10' });
    expect(listed.words).toMatch(/^As of 10 Sept 2026: 1 fact\./);
    expect(listed.words).toContain('My manager is A. (1 Sept – 15 Sept 2026;');
    expect(listed.words).not.toMatch(ISO_INSTANT);
    // The last day of A, and the first of B, in Tokyo.
    expect((await call('list_facts', { predicate: 'manager', as_of: '2026-09-14' })).words).toContain('My manager is A.');
    expect((await call('list_facts', { predicate: 'manager', as_of: '2026-09-15' })).words).toContain('My manager is B.');
  });

  it('search_memory with as_of: "As of 10 Sep 2026: A. Now: B."', async () => {
    const found = await call('search_memory', { query: 'manager', as_of: '2026-09-10' });
    expect(found.words).not.toMatch(ISO_INSTANT);
    expect(found.words).toMatch(/As of 10 Sept 2026:\n- My manager is A\. \(1 Sept – 15 Sept 2026; id fct_\w+\)\nNow:\n- My manager is B\. \(since 15 Sept 2026; id fct_\w+\)/);
    expect(searchMemoryOutput.parse(found.structured).hits.map((h) => h.fact.object)).toEqual(['A']);
  });

  it('search_memory for a question that names a day frames the answer the same way', async () => {
    const found = await call('search_memory', { query: 'who was my manager on 10 Sep 2026?' });
    expect(found.words).not.toMatch(ISO_INSTANT);
    expect(found.words).toMatch(/As of 10 Sept 2026:\n- My manager is A\. \(1 Sept – 15 Sept 2026; id fct_\w+\)\nNow:\n- My manager is B\. \(since 15 Sept 2026; id fct_\w+\)/);
    const structured = searchMemoryOutput.parse(found.structured);
    expect(structured.time?.asOf).toMatch(ISO_INSTANT);
  });

  it('search_memory without a time lists what is true, in words', async () => {
    const found = await call('search_memory', { query: 'hobby' });
    expect(found.words).toMatch(/^1 fact found\.\n- My hobby is bouldering\. \(since March 2026; id fct_\w+\)\nTimes in Asia\/Tokyo\.$/);
  });

  it('fact_history and correct_fact say each version in words', async () => {
    const hobby = listFactsOutput.parse((await call('list_facts', { predicate: 'hobby' })).structured).facts[0]!;
    const corrected = await call('correct_fact', { id: hobby.id, valid_at: '2026-02-14' });
    expect(corrected.words).toMatch(/^Corrected; the new version:\n- My hobby is bouldering\. \(since 14 Feb 2026; id fct_\w+\)\nTimes in Asia\/Tokyo\.$/);
    const history = await call('fact_history', { id: hobby.id });
    expect(history.words).not.toMatch(ISO_INSTANT);
    expect(history.words).toMatch(/^My hobby is bouldering\.: 2 versions, 1 source message\./);
    expect(history.words).toContain('(since March 2026; a version since replaced; id');
    expect(history.words).toContain('(since 14 Feb 2026; id');
  });

  it('every text that says a time names the zone it is in, as the command line does', async () => {
    // An agent passing an offset of its own reads 12:30 back: it must be told whose 12:30.
    const listed = await call('list_facts', { predicate: 'manager', as_of: '2026-09-10T09:00+05:30' });
    expect(listed.words).toMatch(/^As of 10 Sept 2026, 12:30: 1 fact\.\n- My manager is A\. .*\nTimes in Asia\/Tokyo\.$/);
    expect((await call('list_facts', { subject: 'me' })).words).toMatch(/\nTimes in Asia\/Tokyo\.$/);
    expect((await call('search_memory', { query: 'manager', as_of: '2026-09-10' })).words).toMatch(/\nTimes in Asia\/Tokyo\.$/);
    const a = listFactsOutput.parse(listed.structured).facts[0]!;
    expect((await call('fact_history', { id: a.id })).words).toMatch(/\nTimes in Asia\/Tokyo\.$/);
    // Nothing said, no zone to name.
    expect((await call('list_facts', { subject: 'nobody' })).words).toBe('0 facts.');
  });
});
