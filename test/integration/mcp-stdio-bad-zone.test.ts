/**
 * `tempora mcp` started by a client with a bad $TEMPORA_TZ (or --tz): it still completes the
 * handshake — else the client shows only "Connection closed" — and answers every tool call and the
 * current-facts resource with an error in words saying what is wrong and how to fix it, as it also
 * writes on stderr. It never opens the memory, so nothing is written to it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpStdio } from '../fixtures/mcp-stdio-client';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-mcp-bad-zone-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** `tempora mcp` on `data` with $TEMPORA_TZ = `timeZone` (and `args` after it), a client connected. */
const connect = (data: string, timeZone: string, args: string[] = []) => connectMcpStdio({ data, timeZone, args, clientName: 'bad-zone-test' });

const textOf = (result: { content?: unknown }) => (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');

describe('tempora mcp with a bad time zone', () => {
  it('completes the handshake and answers every tool call with the error in words, writing nothing', async () => {
    const data = join(dir, 'env');
    const { client, stderr } = await connect(data, 'Bogus/Zone');
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(8);
      const wanted = '$TEMPORA_TZ: unknown time zone "Bogus/Zone" (use an IANA name like Asia/Tokyo, or an offset like +09:00)';
      for (const tool of tools) {
        const args = tool.name === 'remember_facts' ? { facts: [{ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.' }] } : {};
        const result = await client.callTool({ name: tool.name, arguments: args });
        expect(result.isError, tool.name).toBe(true);
        expect(textOf(result)).toContain(wanted);
        expect(textOf(result)).toMatch(/in this MCP client's settings for tempora, or remove it/);
      }
      await expect(client.readResource({ uri: 'tempora://facts/me/current' })).rejects.toThrow(/unknown time zone "Bogus\/Zone"/);
      expect(stderr()).toContain(wanted);
      expect(existsSync(data)).toBe(false);
    } finally {
      await client.close();
    }
  }, 30_000);

  it('says which to change when the zone came from --tz', async () => {
    const data = join(dir, 'flag');
    const { client } = await connect(data, 'Asia/Tokyo', ['--tz', 'Mars/Base']);
    try {
      const result = await client.callTool({ name: 'search_memory', arguments: { query: 'tea' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^--tz: unknown time zone "Mars\/Base" .*the --tz argument/s);
      expect(existsSync(data)).toBe(false);
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('tempora mcp on a memory it cannot open', () => {
  it('completes the handshake and answers every call with why, leaving the file as it was', async () => {
    const data = join(dir, 'damaged');
    mkdirSync(data);
    const file = join(data, 'memory.sqlite');
    writeFileSync(file, 'this is not a database, but it is where one should be'.repeat(100));
    const before = readFileSync(file);
    const { client, stderr } = await connect(data, 'Asia/Tokyo');
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(8);
      for (const name of ['search_memory', 'list_facts']) {
        const result = await client.callTool({ name, arguments: name === 'search_memory' ? { query: 'tea' } : {} });
        expect(result.isError, name).toBe(true);
        expect(textOf(result)).toMatch(new RegExp(`^cannot open the memory in ${data.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .+ — the memory could not be opened$`));
      }
      expect(stderr()).toContain(`cannot open the memory in ${data}`);
      expect(readFileSync(file).equals(before)).toBe(true);
    } finally {
      await client.close();
    }
  }, 30_000);
});
