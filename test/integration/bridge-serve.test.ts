/**
 * `tempora serve` as a process: prints the address with its token, serves the UI and the API,
 * takes a model catalogue from a file, and stops gracefully on SIGTERM (exit status 0). Bad
 * options are refused with a one-line message.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TITLE, openClient, rawRequest, writeFixtureRenderer } from './bridge-helpers';

const root = resolve(import.meta.dirname, '../..');
let dir: string;

const catalogue = [
  {
    id: 'tiny-chat',
    name: 'Tiny chat (mirror)',
    role: 'chat',
    uri: 'http://127.0.0.1:9/tiny.gguf',
    fileName: 'tiny.gguf',
    sizeBytes: 1234,
    sizeIsExact: true,
    sha256: 'A'.repeat(64),
    ramBytes: 1_000_000,
    contextLength: 2048,
    notes: 'for tests',
  },
  {
    id: 'huge-embedding',
    name: 'Huge embedding (mirror)',
    role: 'embedding',
    uri: 'hf:example/huge.gguf',
    fileName: 'huge.gguf',
    sizeBytes: 10,
    sizeIsExact: false,
    sha256: null,
    ramBytes: 1e15,
    contextLength: 512,
    dimensions: 8,
    notes: '',
  },
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tempora-serve-'));
  writeFileSync(join(dir, 'secret.txt'), 'secret');
  writeFixtureRenderer(join(dir, 'renderer'), join(dir, 'secret.txt'));
  writeFileSync(join(dir, 'catalogue.json'), JSON.stringify(catalogue));
  writeFileSync(join(dir, 'bad-catalogue.json'), JSON.stringify([{ ...catalogue[0], fileName: '../../escape.gguf' }]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The serve command, on the test's memory unless the test names another (an option is given once). */
const args = (...rest: string[]) => ['--import', 'tsx', 'electron/cli/main.ts', 'serve', ...(rest.includes('--data') ? [] : ['--data', join(dir, 'data')]), ...rest];

function runToEnd(...rest: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, args(...rest), { cwd: root }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** Starts serve and resolves with the process and the first line it prints (the --json address). */
function startServe(...rest: string[]): Promise<{ child: ChildProcessWithoutNullStreams; info: { url: string; port: number; token: string }; stderr: () => string }> {
  const child = spawn(process.execPath, args(...rest), { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const end = stdout.indexOf('\n}');
      if (end >= 0) resolve({ child, info: JSON.parse(stdout.slice(0, end + 2)), stderr: () => stderr });
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before printing its address: ${stderr}`)));
  });
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

describe('tempora serve', () => {
  it('serves the UI and the API at the address it prints, then stops gracefully on SIGTERM', async () => {
    const { child, info, stderr } = await startServe('--renderer', join(dir, 'renderer'), '--catalogue', join(dir, 'catalogue.json'), '--json');
    try {
      expect(info.url).toBe(`http://127.0.0.1:${info.port}/?token=${info.token}`);
      const exchange = await rawRequest(info.port, `/?token=${info.token}`);
      expect(exchange.status).toBe(303);
      const cookie = String(([] as string[]).concat(exchange.headers['set-cookie'] ?? [])[0]).split(';')[0]!;
      expect(cookie).toMatch(new RegExp(`^tempora_${info.port}=`));
      const page = await rawRequest(info.port, '/', { Cookie: cookie });
      expect(page.status).toBe(200);
      expect(page.body).toContain(FIXTURE_TITLE);
      expect((await rawRequest(info.port, '/')).status).toBe(401);

      const client = await openClient(info.port, info.token);
      expect((await client.call('listFacts', {})).ok).toBe(true);
      const entries = await client.value<Array<{ id: string; fit: string; path: string | null }>>('listCatalogue', {});
      expect(entries.map((e) => [e.id, e.fit, e.path])).toEqual([
        ['tiny-chat', 'fits', null],
        ['huge-embedding', 'wont_fit', null],
      ]);
      const closed = client.closed;
      child.kill('SIGTERM');
      expect((await closed).code).toBe(1001);
      expect(await exitOf(child)).toBe(0);
      expect(stderr()).toMatch(/SIGTERM: stopping/);
      expect(stderr()).toMatch(/stopped\.\n$/);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('serves MCP at /mcp on the same port, behind its own bearer token', async () => {
    const { child, info } = await startServe('--renderer', join(dir, 'renderer'), '--catalogue', join(dir, 'catalogue.json'), '--json');
    try {
      const mcp = info as unknown as { mcpUrl: string; mcpToken: string };
      expect(mcp.mcpUrl).toBe(`http://127.0.0.1:${info.port}/mcp`);
      expect(mcp.mcpToken).not.toBe(info.token);
      expect((await rawRequest(info.port, '/mcp')).status).toBe(401);
      const client = new Client({ name: 'serve-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(mcp.mcpUrl), { requestInit: { headers: { authorization: `Bearer ${mcp.mcpToken}` } } }));
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name).sort();
        expect(tools).toEqual(['close_fact', 'correct_fact', 'fact_history', 'forget_fact', 'list_facts', 'remember_facts', 'remember_message', 'search_memory']);
      } finally {
        await client.close();
      }
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('prints the address for people', async () => {
    const child = spawn(process.execPath, args('--renderer', join(dir, 'renderer')), { cwd: root });
    let stdout = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('Ctrl-C')) resolve();
      }),
    );
    expect(stdout).toMatch(/^ {2}http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/m);
    child.kill('SIGINT');
    expect(await exitOf(child)).toBe(0);
  });

  it.each([
    [['--port', 'eighty'], /--port: must be a whole number from 0 to 65535/],
    [['--port', '70000'], /--port: must be a whole number/],
    [['--renderer', '/nonexistent-renderer'], /--renderer: no index\.html in \/nonexistent-renderer/],
    [['--catalogue', 'CATALOGUE'], /bad-catalogue\.json: 0\.fileName: must be a plain file name/],
    [['--catalogue', '/nonexistent.json'], /cannot read \/nonexistent\.json/],
  ])('refuses %j with one line', async (options, message) => {
    const rest = options.includes('--renderer') ? [] : ['--renderer', join(dir, 'renderer')];
    const result = await runToEnd(...options.map((o) => o.replace('CATALOGUE', join(dir, 'bad-catalogue.json'))), ...rest);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('says when the port is taken', async () => {
    const first = await startServe('--renderer', join(dir, 'renderer'), '--json', '--data', join(dir, 'data-2'));
    try {
      const result = await runToEnd('--renderer', join(dir, 'renderer'), '--port', String(first.info.port));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`port ${first.info.port} on 127\\.0\\.0\\.1 is in use`));
    } finally {
      first.child.kill('SIGTERM');
      await exitOf(first.child);
    }
  });
});
