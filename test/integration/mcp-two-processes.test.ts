/**
 * Two processes, one memory: two spawned `tempora mcp` on the same data directory (what happens
 * when two agents each start one), beside a running `tempora serve` (the app's engine, with its
 * ingestion worker), plus a `tempora observe` writing at the same time. Every concurrent write lands (none lost, none refused as "database is locked"),
 * each process sees the other's facts, a subscriber in one process hears of a change made in the
 * other, and messages given to either are queued once, for one learner.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemory } from '../../electron/memory/index';
import { listFactsOutput, rememberFactsOutput } from '../../electron/mcp/tool-schemas';
import { connectMcpStdio } from '../fixtures/mcp-stdio-client';

const root = resolve(import.meta.dirname, '../..');
const env = { ...(process.env as Record<string, string>), TEMPORA_TZ: 'UTC' };
let dir: string;
let data: string;
let one: Client;
let two: Client;
let serve: ChildProcess;

async function start(on = data): Promise<Client> {
  return (await connectMcpStdio({ data: on, timeZone: 'UTC', clientName: 'tempora-two-processes' })).client;
}

function observe(file: string): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', 'observe', file, '--data', data], { cwd: root, env }, (error, _stdout, stderr) =>
      done({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

const fact = (who: string, i: number) => ({ subject: `${who} friend ${i}`, predicate: 'knows', object: `${who} colleague ${i}`, fact: `${who} friend ${i} knows ${who} colleague ${i}.` });

/** `tempora serve` on the memory, resolved once it prints its address (its engine and worker are up). */
function startServe(): Promise<ChildProcess> {
  mkdirSync(join(dir, 'renderer'), { recursive: true });
  writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Tempora</title>');
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/cli/main.ts', 'serve', '--json', '--renderer', join(dir, 'renderer'), '--data', data], { cwd: root, env });
  return new Promise((done, fail) => {
    child.stdout?.once('data', () => done(child));
    child.once('exit', (code) => fail(new Error(`serve exited (${code})`)));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-mcp-two-'));
  data = join(dir, 'data');
  serve = await startServe();
  [one, two] = await Promise.all([start(), start()]);
});

afterAll(async () => {
  serve?.kill('SIGTERM');
  await Promise.all([one?.close(), two?.close(), serve && new Promise((done) => (serve.exitCode !== null ? done(null) : serve.once('exit', done)))]);
  rmSync(dir, { recursive: true, force: true });
});

describe('two tempora mcp processes on one memory', () => {
  it('lands every concurrent write from both, and a CLI writer beside them', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ ...fact('cli', i), reference_time: '2026-09-01T00:00:00Z' }));
    writeFileSync(join(dir, 'cli.jsonl'), `${lines.join('\n')}\n`);
    const perProcess = 40;
    const calls = [one, two].flatMap((client, p) =>
      Array.from({ length: perProcess }, (_, i) =>
        client.callTool({ name: 'remember_facts', arguments: { facts: [fact(`p${p}`, i), fact(`p${p}`, i + perProcess)] } }),
      ),
    );
    const messages = [one, two].flatMap((client, p) =>
      Array.from({ length: 10 }, (_, i) => client.callTool({ name: 'remember_message', arguments: { content: `Message ${i} from process ${p}.` } })),
    );
    const [results, cli] = await Promise.all([Promise.all([...calls, ...messages]), observe(join(dir, 'cli.jsonl'))]);

    const errors = results.filter((r) => r.isError).map((r) => JSON.stringify(r.content));
    expect(errors).toEqual([]);
    expect(cli).toEqual({ code: 0, stderr: '' });
    expect(results.slice(0, calls.length).map((r) => { const o = rememberFactsOutput.parse(r.structuredContent); return o.added.length === 2 ? 'ok' : JSON.stringify(o); }).filter((x) => x !== 'ok')).toEqual([]);

    // Each process reads what the other (and the CLI) wrote.
    for (const client of [one, two]) {
      const listed = listFactsOutput.parse((await client.callTool({ name: 'list_facts', arguments: { predicate: 'knows', limit: 1000 } })).structuredContent);
      expect(listed.count).toBe(2 * 2 * perProcess + 40);
    }
    const memory = openMemory({ dataDir: data });
    try {
      expect(memory.facts.list({ predicate: 'knows', limit: 1000 })).toHaveLength(2 * 2 * perProcess + 40);
      // Twenty messages, twenty jobs, each queued once for the one learner (serve's worker, idle
      // without a model); neither mcp process claims or resets them.
      expect(memory.jobs.counts()).toMatchObject({ pending: 20, running: 0, done: 0, parked: 0 });
    } finally {
      memory.close();
    }
  });

  it('starts several at once on a new memory (their first opens race to create it)', async () => {
    const fresh = join(dir, 'fresh');
    const clients = await Promise.all([start(fresh), start(fresh), start(fresh)]);
    try {
      const counts = await Promise.all(clients.map(async (c) => listFactsOutput.parse((await c.callTool({ name: 'list_facts', arguments: {} })).structuredContent).count));
      expect(counts).toEqual([0, 0, 0]);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('tells a subscriber in one process of a change the other made', async () => {
    const updated = new Promise<string>((done) => one.setNotificationHandler('notifications/resources/updated', (n) => done(n.params.uri)));
    await one.subscribeResource({ uri: 'tempora://facts/me/current' });
    const written = await two.callTool({ name: 'remember_facts', arguments: { facts: [{ subject: 'me', predicate: 'works at', object: 'Acme', fact: 'I work at Acme.', cardinality: 'one' }] } });
    expect(written.isError).toBeFalsy();
    expect(await updated).toBe('tempora://facts/me/current');
    const read = await one.readResource({ uri: 'tempora://facts/me/current' });
    expect((read.contents[0] as { text: string }).text).toMatch(/I work at Acme\./);
  });
});
