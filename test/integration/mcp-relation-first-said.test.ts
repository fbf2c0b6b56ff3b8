/**
 * A relation said for the first time is asked about at once (issue 28, second round, item 5):
 * `tempora mcp` spawned, driven by the SDK client over stdio. The predicates in use are kept
 * between searches; a write that brings a new one (works_at, never said before) must count in the
 * very next question — "Where does Zoe work?" ranks "works at" above Zoe's newer sentences that only
 * hold the word "work", as it would after a restart; and so when another process wrote it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaCommand } from './cli-helpers';
import { searchMemoryOutput } from '../../electron/mcp/tool-schemas';
import { openMcpStdio, type McpStdioSession } from '../fixtures/mcp-stdio-client';

let session: McpStdioSession | undefined;
let client: Client;

async function search(query: string) {
  const result = await client.callTool({ name: 'search_memory', arguments: { query } });
  if (result.isError) throw new Error(`search_memory failed: ${JSON.stringify(result.content)}`);
  return searchMemoryOutput.parse(result.structuredContent);
}

async function tell(at: string, predicate: string, object: string, fact: string) {
  const result = await client.callTool({ name: 'remember_facts', arguments: { facts: [{ subject: 'Zoe', predicate, object, fact }], reference_time: at } });
  if (result.isError) throw new Error(`remember_facts failed: ${JSON.stringify(result.content)}`);
}

beforeAll(async () => {
  session = await openMcpStdio({ name: 'relation', timeZone: 'Europe/Lisbon' });
  client = session.client;
  for (let week = 1; week <= 3; week++) await tell(`2026-03-0${week}T10:00:00Z`, 'said', `remark ${week}`, `Zoe said work was tiring in week ${week}.`);
}, 60_000);

afterAll(() => session?.close());

describe('search_memory: a relation said for the first time', () => {
  it('counts in the next question, with no wait', async () => {
    // Asked before anyone works anywhere: the predicates in use are read (and kept).
    const before = await search('Where does Zoe work?');
    expect(before.hits.map((h) => h.fact.predicate)).toEqual(['said', 'said', 'said']);
    // Told now, about February: older than the remarks, and the first works_at of this memory.
    await tell('2026-02-01T10:00:00Z', 'works_at', 'Acme', 'Zoe works at Acme.');
    const after = await search('Where does Zoe work?');
    expect(after.hits[0]!.fact.fact).toBe('Zoe works at Acme.');
  });

  it('counts when another process said it (`tempora observe` beside the server)', async () => {
    for (let week = 4; week <= 6; week++) await tell(`2026-03-0${week}T10:00:00Z`, 'said', `home remark ${week}`, `Zoe said home was cold in week ${week}.`);
    expect((await search('Where does Zoe live?')).hits[0]!.fact.predicate).toBe('said');
    const file = join(session!.dir, 'home.jsonl');
    writeFileSync(file, `${JSON.stringify({ subject: 'Zoe', predicate: 'lives_in', object: 'Porto', fact: 'Zoe lives in Porto.', reference_time: '2026-02-02T10:00:00Z', cardinality: 'one' })}\n`);
    const { code } = await temporaCommand(['observe', '--data', session!.data, file], { env: { TEMPORA_TZ: 'Europe/Lisbon', LANCEDB_LOG: 'error' } });
    expect(code).toBe(0);
    expect((await search('Where does Zoe live?')).hits[0]!.fact.fact).toBe('Zoe lives in Porto.');
  });
});
