/**
 * When the storage refuses (#27 item 9): a full disk is said as such — "the disk is full; nothing
 * was stored" — at the memory, over MCP (a real client) and nothing of the write is kept; a memory
 * on read-only media lists, searches and exports through the CLI, and a write there is refused in
 * words before SQLite's. The full disk is a database that may not grow (max_page_count); the
 * read-only media a read-only bind mount (needs root and mount; skipped where it cannot be made).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAsync } from '../../electron/cli/run';
import { TemporaEngine } from '../../electron/engine/index';
import { MemoryStorageError, openMemory, steppingClock } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { serveMcpHttp, type McpHttpServer } from '../fixtures/mcp-http-server';

const root = mkdtempSync(join(tmpdir(), 'tempora-storage-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const line = (i: number) => ({ subject: `person ${i}`, predicate: 'knows', object: `friend ${i}`, fact: `Person ${i} knows friend ${i}. ${'x'.repeat(2000)}`, reference_time: '2026-09-01T00:00:00Z' });

/** Lets the database grow by `pages` pages at most from now on: a disk that is (nearly) full. */
function fillDisk(db: ReturnType<typeof databaseOf>, pages = 2): void {
  const used = db.pragma('page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${used + pages}`);
}

describe('a full disk', () => {
  it('is said in words at the memory, and nothing of the write is stored', () => {
    const memory = openMemory({ dataDir: join(root, 'full'), clock: steppingClock('2026-11-01T00:00:00.000Z') });
    try {
      memory.facts.observe([line(0)]);
      fillDisk(databaseOf(memory));
      const write = () => memory.facts.observe(Array.from({ length: 50 }, (_, i) => line(i + 1)));
      expect(write).toThrow(MemoryStorageError);
      expect(write).toThrow('the disk is full; nothing was stored (free some space and try again)');
      expect(memory.facts.list().map((f) => f.subject)).toEqual(['person 0']);
      expect(memory.facts.search('friend').length).toBe(1);
    } finally {
      memory.close();
    }
  });

  describe('over MCP', () => {
    let engine: TemporaEngine;
    let mcp: McpHttpServer;
    beforeAll(async () => {
      engine = await TemporaEngine.open({ dataDir: join(root, 'mcp'), autoLoadModels: false, startWorker: false, timeZone: 'UTC' });
      mcp = await serveMcpHttp(engine);
    });
    afterAll(async () => {
      await mcp?.close();
      await engine?.close();
    });

    it('answers remember_facts with the words, not "Tempora failed", and stores nothing', async () => {
      const client = await mcp.connect('tempora-storage-test');
      try {
        fillDisk(databaseOf(engine.memory));
        const facts = Array.from({ length: 50 }, (_, i) => {
          const { reference_time: _time, ...fact } = line(i);
          return fact;
        });
        const result = await client.callTool({ name: 'remember_facts', arguments: { facts } });
        expect(result.isError).toBe(true);
        expect((result.content as { text: string }[])[0]!.text).toBe('the disk is full; nothing was stored (free some space and try again)');
        expect(engine.memory.facts.list()).toEqual([]);
      } finally {
        await client.close();
      }
    });
  });
});

/** Whether this machine lets the test make a read-only bind mount (root with CAP_SYS_ADMIN). */
function canMountReadOnly(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(root, 'probe-'));
  const target = `${probe}-ro`;
  mkdirSync(target);
  const mounted = spawnSync('mount', ['--bind', '-o', 'ro', probe, target]).status === 0;
  if (mounted) spawnSync('umount', [target]);
  return mounted;
}

describe.skipIf(!canMountReadOnly())('a memory on read-only media', () => {
  const source = join(root, 'media');
  const mount = join(root, 'media-ro');
  beforeAll(async () => {
    const file = join(root, 'seed.jsonl');
    writeFileSync(file, `${JSON.stringify({ subject: 'me', predicate: 'likes', object: 'tea', fact: 'I like tea.', reference_time: '2026-09-01T00:00:00Z' })}\n`);
    expect((await tempora(join(source, 'data'), ['observe', file])).code).toBe(0);
    mkdirSync(mount);
    execFileSync('mount', ['--bind', '-o', 'ro', source, mount]);
  });
  afterAll(() => {
    spawnSync('umount', [mount]);
  });

  async function tempora(data: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const code = await runAsync([...argv, '--data', data], { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: root, env: { TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error' }, clock: steppingClock('2026-11-01T00:00:00.000Z') });
    return { code, out, err };
  }

  it('lists, searches and exports', async () => {
    const data = join(mount, 'data');
    for (const argv of [['facts'], ['search', 'tea'], ['export']]) {
      const run = await tempora(data, argv);
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      expect(run.out).toContain('I like tea.');
    }
  });

  it('refuses a write in words, and nothing changes', async () => {
    const file = join(root, 'more.jsonl');
    writeFileSync(file, `${JSON.stringify({ subject: 'me', predicate: 'likes', object: 'rain', fact: 'I like rain.', reference_time: '2026-09-01T00:00:00Z' })}\n`);
    const run = await tempora(join(mount, 'data'), ['observe', file]);
    expect(run.code).toBe(1);
    expect(run.err).toBe(`tempora: cannot write the memory in ${join(mount, 'data')}: it is on read-only media, or you have no permission to write there; nothing was stored — commands that only read (facts, search, show, export) still work\n`);
    expect((await tempora(join(mount, 'data'), ['facts'])).out).not.toContain('I like rain.');
  });

  it('a new memory there is refused in the same words, not as a missing file', async () => {
    const file = join(root, 'new.jsonl');
    writeFileSync(file, `${JSON.stringify({ subject: 'me', predicate: 'likes', object: 'snow', fact: 'I like snow.', reference_time: '2026-09-01T00:00:00Z' })}\n`);
    const data = join(mount, 'elsewhere', 'data');
    const run = await tempora(data, ['observe', file]);
    expect(run.code).toBe(1);
    expect(run.err).toBe(`tempora: --data: cannot create ${data}: it is on read-only media; nothing was stored\n`);
  });
});
