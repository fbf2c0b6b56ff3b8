/**
 * Any text searches (issue 27 item 7, the query half): a NUL, a control character, FTS5's own
 * syntax — quotes, parentheses, AND / OR / NOT / NEAR, '*', '-', '^', ':' — never reaches the
 * full-text index as syntax. Through the doors it was found at: MCP search_memory (the SDK client
 * over HTTP) and `tempora search` (in-process for what argv cannot carry, a NUL; spawned for the rest);
 * and the screens' text filters (the Facts list, names suggested as one types, the timeline's filter)
 * through the API handlers the bridge and IPC call.
 */
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTemporaIn, temporaCommand } from './cli-helpers';
import { createApiHandlers, type TemporaEngine } from '../../electron/engine/index';
import { searchMemoryOutput } from '../../electron/mcp/tool-schemas';
import { steppingClock } from '../../electron/memory/index';
import { openMcpSession } from '../fixtures/mcp-http-server';

let dir: string;
let engine: TemporaEngine;
let client: Client;
let close: (() => Promise<void>) | undefined;

/** Hostile query texts, each with a word that should still find the seeded facts, or none. */
const HOSTILE: [text: string, finds: string | null][] = [
  ['\u0000', null],
  ['manager\u0000', 'manager'],
  ['\u0000manager\u0000 hobby', 'manager'],
  ['man\u0000ager', null],
  ['"', null],
  ['""', null],
  ['"manager', 'manager'],
  ['manager"', 'manager'],
  ['"unterminated string', null],
  ["'", null],
  ["manager's", 'manager'],
  ['(', null],
  [')', null],
  ['(manager', 'manager'],
  ['manager)', 'manager'],
  ['((manager) OR (hobby))', 'manager'],
  ['AND', null],
  ['OR', null],
  ['NOT', null],
  ['manager AND', 'manager'],
  ['OR manager', 'manager'],
  ['manager NOT hobby', 'manager'],
  ['NEAR(manager hobby)', 'manager'],
  ['NEAR(manager hobby, 2)', 'manager'],
  ['NEAR/2', null],
  ['*', null],
  ['manag*', null],
  ['manager*', 'manager'],
  ['-', null],
  ['-manager', 'manager'],
  ['^manager', 'manager'],
  ['fact:manager', 'manager'],
  ['{fact predicate}: manager', 'manager'],
  ['+manager', 'manager'],
  ['manager\u0001\u0002\u001f', 'manager'],
  ['\u007f\u0085\u2028\u2029', null],
  ['manager\ufffd', 'manager'],
  ['\ud800manager', 'manager'],
  ['manager\t\r\n', 'manager'],
  ['\\', null],
  ['%_', null],
  ['"manager" "hobby"', 'manager'],
  ['"(manager) AND" NEAR(*', 'manager'],
  ['上司"', null],
  ['"上司(', null],
];

const seeded = ['My manager is Aoki (since "spring").', 'My hobby is bouldering - mostly indoors.'];

async function search(query: string): Promise<{ isError: boolean; text: string; facts: string[] }> {
  const result = await client.callTool({ name: 'search_memory', arguments: { query } });
  const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
  if (result.isError) return { isError: true, text, facts: [] };
  return { isError: false, text, facts: searchMemoryOutput.parse(result.structuredContent).hits.map((h) => h.fact.fact) };
}

beforeAll(async () => {
  ({ dir, engine, client, close } = await openMcpSession({
    name: 'search-any-text',
    timeZone: 'UTC',
    seed: (engine) => {
      engine.memory.facts.observe([
        { subject: 'me', predicate: 'manager', object: 'Aoki', fact: seeded[0]!, reference_time: '2026-09-01T10:00:00Z', cardinality: 'one' },
        { subject: 'me', predicate: 'hobby', object: 'bouldering', fact: seeded[1]!, reference_time: '2026-09-01T10:00:00Z' },
      ]);
    },
  }));
});

afterAll(() => close?.());

describe('search_memory takes any text', () => {
  it.each(HOSTILE)('%j searches', async (text, finds) => {
    const answer = await search(text);
    expect(answer.text).not.toMatch(/Tempora failed|fts5|syntax error|unterminated/i);
    expect(answer.isError).toBe(false);
    if (finds === 'manager') expect(answer.facts).toContain(seeded[0]);
  });

  it('property: any string, FTS5 syntax mixed in, is a search, never an error', async () => {
    const syntax = fc.constantFrom('"', "'", '(', ')', '*', '-', '^', ':', '+', '{', '}', ' AND ', ' OR ', ' NOT ', 'NEAR(', ',', '\u0000', '\u0001', '\\', 'manager', '上司', ' ');
    const text = fc.array(fc.oneof(syntax, fc.string({ unit: 'binary', maxLength: 6 })), { maxLength: 12 }).map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(text, async (query) => {
        if (query.trim() === '' || query.length > 2000) return; // the schema's own refusal, in words
        const answer = await search(query);
        expect(answer.text).not.toMatch(/Tempora failed/);
        expect(answer.isError).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('tempora search takes any text', () => {
  it.each(HOSTILE)('%j searches (in process: argv cannot carry a NUL)', (text, finds) => {
    // "--" ends the options: "-manager" is a word of the query, not an option.
    const argv = ['search', '--json', '--data', join(dir, 'data'), '--', text];
    const { code, out, err } = runTemporaIn(dir, steppingClock('2026-12-01T00:00:00.000Z'), argv, { TEMPORA_TZ: 'UTC' });
    expect(err).toBe('');
    expect(code).toBe(0);
    const facts = (JSON.parse(out) as { fact: { fact: string } }[]).map((h) => h.fact.fact);
    if (finds === 'manager') expect(facts).toContain(seeded[0]);
  });

  it('a spawned tempora searches FTS5 syntax as words', async () => {
    const words = ['"(manager)', 'AND', 'NEAR(', '*', '^', 'fact:', "'", '--', '-x'];
    const exit = await temporaCommand(['search', '--data', join(dir, 'data'), ...words], { env: { TEMPORA_TZ: 'UTC' } });
    expect(exit.stderr).toBe('');
    expect(exit.code).toBe(0);
    expect(exit.stdout).toContain('My manager is Aoki');
  });
});

describe("the screens' text filters take any text", () => {
  // A filter keeps what contains its text: these find nothing here, and must say so, not fail.
  const FILTERS = ['Aoki', 'Aoki\u0000', '\u0000', 'Ao\u0000ki', '"Aoki', 'Aoki"(', 'NEAR(Aoki', 'Aoki*', '-Aoki', 'Aoki OR', '"'];
  it.each(FILTERS)('%j filters the Facts list, the name suggestions and the timeline', async (text) => {
    const api = createApiHandlers(engine);
    const listed = await api.listFacts({ text });
    const names = await api.suggestNames({ kind: 'entity', text });
    const window = await api.timelineWindow({ from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z', filter: text });
    if (text === 'Aoki') {
      expect(listed.facts.map((f) => f.object)).toContain('Aoki');
      expect(names.map((n) => n.name)).toContain('Aoki');
      expect(window.rows.length).toBeGreaterThan(0);
    }
  });
});
