/**
 * A date named in a question ranks, never filters (issue 28 item 3), through the real door: `tempora
 * mcp` spawned with TEMPORA_TZ=Asia/Tokyo, driven by the SDK client over stdio. An outing told the
 * day after the named day comes first, above the twelve things said before it; "in May" is the
 * memory's last May (2023), not this year's; "on Saturday" in a habit names no date.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchMemoryOutput } from '../../electron/mcp/tool-schemas';
import { openMcpStdio } from '../fixtures/mcp-stdio-client';

let client: Client;
let close: (() => Promise<void>) | undefined;

async function search(query: string) {
  const result = await client.callTool({ name: 'search_memory', arguments: { query } });
  if (result.isError) throw new Error(`search_memory failed: ${JSON.stringify(result.content)}`);
  return { ...searchMemoryOutput.parse(result.structuredContent), words: (result.content as { text: string }[])[0]!.text };
}

/** One message on `day` (Tokyo), its fact dated by it. */
async function tell(day: string, predicate: string, object: string, fact: string) {
  const result = await client.callTool({ name: 'remember_facts', arguments: { facts: [{ subject: 'me', predicate, object, fact }], reference_time: `${day}T10:00:00+09:00` } });
  if (result.isError) throw new Error(`remember_facts failed: ${JSON.stringify(result.content)}`);
}

beforeAll(async () => {
  ({ client, close } = await openMcpStdio({ name: 'dates', timeZone: 'Asia/Tokyo' }));
  await tell('2023-05-20', 'trip', 'Kyoto', 'I took a trip to Kyoto.');
  await tell('2023-06-03', 'plays', 'tennis', 'I play tennis on Saturdays.');
  for (let i = 1; i <= 12; i++) await tell(`2023-08-${String(i + 9).padStart(2, '0')}`, 'chatted', `thing ${i}`, `I chatted with Mia about thing ${i}.`);
  await tell('2023-08-25', 'trip', 'Hokkaido', 'I took a trip to Hokkaido.');
  await tell('2023-09-11', 'went', 'hiking', 'I went hiking with Mia.');
}, 60_000);

afterAll(() => close?.());

describe('search_memory: a date in the question ranks (Asia/Tokyo)', () => {
  it('the outing told the day after 10 September comes first', async () => {
    const found = await search('What did I do with Mia on 10 September 2023?');
    expect(found.time).toMatchObject({ kind: 'point', unit: 'day', at: '2023-09-09T15:00:00.000Z' });
    expect(found.hits[0]!.fact.object).toBe('hiking');
    // The words say it was told soon after, not that it is simply true now.
    expect(found.words).toMatch(/Said soon after \(it may be about that time\):\n- I went hiking with Mia\. \(since 11 Sept 2023; id fct_\w+\)/);
    expect(found.hits.slice(1).every((h) => h.fact.object.startsWith('thing'))).toBe(true);
  });

  it('"in May" is the memory\'s last May, three years back', async () => {
    const found = await search('Where did I take a trip in May?');
    expect(found.time).toMatchObject({ kind: 'period', unit: 'month', at: '2023-04-30T15:00:00.000Z', until: '2023-05-31T15:00:00.000Z' });
    expect(found.hits[0]!.fact.object).toBe('Kyoto');
  });

  it('"what sport do I play on Saturday?" names no date: the habit, as it is now', async () => {
    const found = await search('what sport do I play on Saturday?');
    expect(found.time).toBeNull();
    expect(found.history).toBe(false);
    expect(found.hits[0]!.fact.object).toBe('tennis');
  });
});
