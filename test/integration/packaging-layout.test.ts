/**
 * The packaged app's layout: electron-builder (`--dir`, electron-builder.yml as it is) run against a
 * stand-in Electron distribution (a small file carrying Electron's fuse wire, since the real binary
 * cannot be downloaded here), for this machine's Linux architecture. Checks what is inside app.asar
 * and what is unpacked, that better-sqlite3 for Electron's ABI is where native-binding.ts looks, that
 * the bulk-load worker is where bulk-load-helper.ts looks and starts from there, that no other
 * platform's or architecture's binaries (nor CUDA builds) are shipped; prints the sizes. And the
 * `tempora` command inside the package (issue #30, item 1): bin/tempora, the Linux launcher that
 * /usr/bin/tempora points to, runs `--help`, `mcp` (an SDK client lists the tools over stdio) and
 * `facts --json` through the app's binary as Node, with no tsx; with no arguments it opens the app.
 * In ELECTRON_RUN_AS_NODE mode the stand-in does what Electron does: it refuses when the RunAsNode
 * fuse is off, and runs the script with Node, reading app.asar as a folder (an extracted view of it,
 * as Electron's fs shows it).
 *
 * The stand-in addon under <resources>/native is this machine's Node build of better-sqlite3 (the
 * layout and its architecture are what is checked, not its ABI). Slow (~30 s): it copies the
 * production node_modules.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { electronNativeBindingPath, NATIVE_BINDING_FILE } from '../../electron/main/native-binding';
import { unpackedPath } from '../../electron/memory/store/worker-thread';
import { READY, FAILED, STATE } from '../../electron/memory/transfer/bulk-load-protocol';
import { SHARED_SLOTS as SEGMENT_CHECK_SLOTS } from '../../electron/sync/segment-check-protocol';
import { fileArch } from '../../scripts/packaging-arch.mjs';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(join(root, 'package.json'));
const electronVersion = (require('electron/package.json') as { version: string }).version;
const arch = process.arch;
/** The fuse sentinel of @electron/fuses: electron-builder flips the fuses after this marker. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const NODE_BINDING = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', NATIVE_BINDING_FILE);

function whyNot(): string | null {
  if (process.platform !== 'linux') return `the stand-in Electron is a Linux distribution; this is ${process.platform}`;
  if (!['x64', 'arm64'].includes(arch)) return `no packaging check for ${arch}`;
  try {
    require.resolve('electron-builder');
  } catch {
    return 'electron-builder is not installed (npm ci)';
  }
  if (!existsSync(NODE_BINDING)) return 'better-sqlite3 is not built for Node (npm ci)';
  return null;
}
const skipReason = whyNot();
if (skipReason) console.warn(`packaging-layout: skipped: ${skipReason}`);

interface Builder {
  build(options: Record<string, unknown>): Promise<string[]>;
  Platform: { LINUX: { createTarget(type: string, ...archs: number[]): unknown } };
  Arch: Record<string, number>;
}
interface Asar {
  listPackage(archive: string, options: { isPack: boolean }): string[];
  statFile(archive: string, filename: string, followLinks?: boolean): { unpacked?: boolean };
  extractAll(archive: string, dest: string): void;
}

/**
 * An Electron distribution folder as electron-builder expects one, with a fake executable. With
 * ELECTRON_RUN_AS_NODE=1 it runs its first argument with this Node when its RunAsNode fuse (the first
 * of the wire, the file's last 9 bytes) is on, a path inside app.asar read from `asarView`.
 */
function standInElectron(dir: string, asarView: string): void {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const asNode = [
    'if [ "$ELECTRON_RUN_AS_NODE" = 1 ]; then',
    '  if [ "$(tail -c 9 "$0" | head -c 1)" != 1 ]; then echo "stand-in Electron: the RunAsNode fuse is off" >&2; exit 90; fi',
    '  script="$1"; shift',
    `  case "$script" in */resources/app.asar/*) script="${asarView}/\${script#*/resources/app.asar/}";; esac`,
    `  exec "${process.execPath}" "$script" "$@"`,
    'fi',
  ].join('\n');
  // A shell script that carries the fuse wire: version 1, 8 fuses, as Electron 41 ships them.
  const wire = Buffer.concat([Buffer.from(`#!/bin/sh\n${asNode}\necho "stand-in Electron ${electronVersion}"\nexit 0\n# `), Buffer.from(FUSE_SENTINEL), Buffer.from([1, 8]), Buffer.from('10011010'), Buffer.from('\n')]);
  writeFileSync(join(dir, 'electron'), wire);
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'chrome-sandbox'), '');
  writeFileSync(join(dir, 'LICENSE'), 'MIT');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<html></html>');
  writeFileSync(join(dir, 'version'), electronVersion);
}

function walk(dir: string, visit: (file: string, size: number) => void): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, visit);
    else if (entry.isFile()) visit(path, statSync(path).size);
  }
}

function sizeOf(path: string): number {
  if (!existsSync(path)) return 0;
  if (statSync(path).isFile()) return statSync(path).size;
  let total = 0;
  walk(path, (_file, size) => (total += size));
  return total;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

let work: string;
let appOutDir: string;
let resources: string;
let asar: Asar;

describe.skipIf(skipReason !== null)(`the packaged app (linux ${arch}, stand-in Electron)`, () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'tempora-packaging-'));
    const built = spawnSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], { cwd: root, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`electron-vite build failed:\n${built.stdout}\n${built.stderr}`);
    const electronDist = join(work, 'electron-dist');
    standInElectron(electronDist, join(work, 'asar-view'));
    const native = join(work, 'native');
    mkdirSync(join(native, `electron-${electronVersion}`), { recursive: true });
    copyFileSync(NODE_BINDING, join(native, `electron-${electronVersion}`, NATIVE_BINDING_FILE));

    const builder = require('electron-builder') as Builder;
    asar = require(require.resolve('@electron/asar', { paths: [require.resolve('app-builder-lib')] })) as Asar;
    await builder.build({
      projectDir: root,
      targets: builder.Platform.LINUX.createTarget('dir', builder.Arch[arch]!),
      publish: 'never',
      // Merged over electron-builder.yml: extraResources gains the stand-in addon's folder.
      config: {
        electronDist,
        electronVersion,
        directories: { output: join(work, 'dist') },
        extraResources: [{ from: native, to: 'native', filter: [`electron-*/${NATIVE_BINDING_FILE}`] }],
      },
    });
    appOutDir = join(work, 'dist', arch === 'x64' ? 'linux-unpacked' : `linux-${arch}-unpacked`);
    resources = join(appOutDir, 'resources');
    asar.extractAll(join(resources, 'app.asar'), join(work, 'asar-view'));
  }, 170_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs electron-vite’s output into app.asar and names the executable', () => {
    const archive = join(resources, 'app.asar');
    const files = asar.listPackage(archive, { isPack: false }).map((f) => f.split(sep).join('/').replace(/^\//, ''));
    for (const file of ['package.json', 'out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html', 'node_modules/zod/package.json', 'resources/lexicon/edict-common.tsv']) expect(files, file).toContain(file);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(asar.statFile(archive, 'out/main/index.js').unpacked).toBeFalsy();
    expect(asar.statFile(archive, 'node_modules/zod/package.json').unpacked).toBeFalsy();
    // Sources and build trees that have no business in the package.
    expect(files.some((f) => f.startsWith('node_modules/better-sqlite3/deps/') || f.startsWith('node_modules/better-sqlite3/build/'))).toBe(false);
    expect(files.some((f) => f.endsWith('gitRelease.bundle'))).toBe(false);
    expect(existsSync(join(appOutDir, 'tempora'))).toBe(true);
  });

  it('unpacks the native addons and the JavaScript that loads them', () => {
    const unpacked = join(resources, 'app.asar.unpacked');
    for (const file of [
      'node_modules/better-sqlite3/lib/index.js',
      'node_modules/node-llama-cpp/dist/index.js',
      `node_modules/@node-llama-cpp/linux-${arch}/bins/linux-${arch}/llama-addon.node`,
      'node_modules/@lancedb/lancedb/dist/index.js',
    ]) {
      expect(existsSync(join(unpacked, file)), file).toBe(true);
    }
    const lance: string[] = [];
    walk(join(unpacked, 'node_modules', '@lancedb'), (file) => file.endsWith('.node') && lance.push(file));
    expect(lance.length).toBeGreaterThan(0);
  });

  it('ships better-sqlite3 for Electron where native-binding.ts looks, for this architecture', () => {
    const binding = electronNativeBindingPath({ isPackaged: true, appPath: join(resources, 'app.asar'), resourcesPath: resources, electronVersion });
    expect(existsSync(binding), binding).toBe(true);
    expect(fileArch(binding)).toEqual({ format: 'elf', arch });
  });

  it('unpacks the bulk-load worker where bulk-load-helper.ts looks, and it starts from there', async () => {
    // In the app, import.meta.url of the bundle is <resources>/app.asar/out/main/index.js.
    const worker = unpackedPath(join(resources, 'app.asar', 'out', 'main', 'bulk-load-worker.js'));
    expect(worker).toBe(join(resources, 'app.asar.unpacked', 'out', 'main', 'bulk-load-worker.js'));
    expect(existsSync(worker)).toBe(true);
    // Everything it imports resolves inside app.asar.unpacked (plain Node here; the addon is Node's).
    const state = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const thread = new Worker(worker, { workerData: { start: { scratchPath: join(work, 'scratch.db'), nativeBinding: NODE_BINDING, state } } });
    const errors: string[] = [];
    thread.on('error', (error) => errors.push(error.message));
    const view = new Int32Array(state);
    const deadline = Date.now() + 20_000;
    while (Atomics.load(view, STATE) !== READY && Atomics.load(view, STATE) !== FAILED && errors.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await thread.terminate();
    expect(errors).toEqual([]);
    expect(Atomics.load(view, STATE)).toBe(READY);
  });

  it('unpacks the segment-check worker where worker-thread.ts looks, and it starts and ends from there', async () => {
    const worker = unpackedPath(join(resources, 'app.asar', 'out', 'main', 'segment-check-worker.js'));
    expect(existsSync(worker)).toBe(true);
    // Told at once that no segment will come, it ends; one that cannot load its chunks fails instead.
    const state = new SharedArrayBuffer(SEGMENT_CHECK_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const [segments, results] = [new MessageChannel(), new MessageChannel()];
    segments.port1.postMessage(null);
    const thread = new Worker(worker, { workerData: { check: { state, segments: segments.port2, results: results.port2 } }, transferList: [segments.port2, results.port2] });
    const errors: string[] = [];
    thread.on('error', (error) => errors.push(error.message));
    const code = await new Promise<number>((done) => thread.once('exit', done));
    segments.port1.close();
    results.port1.close();
    expect(errors).toEqual([]);
    expect(code).toBe(0);
  });

  describe('the tempora command in the package', () => {
    const launcher = () => join(appOutDir, 'bin', 'tempora');
    /** The launcher as /usr/bin/tempora runs it: no tsx, no checkout, HOME and data in the test's folder. */
    const env = () => ({ PATH: '/usr/bin:/bin', HOME: join(work, 'home'), TEMPORA_DATA_DIR: join(work, 'data'), TEMPORA_TZ: 'UTC', LANCEDB_LOG: 'error' });
    const tempora = (...args: string[]) => spawnSync(launcher(), args, { cwd: work, env: env(), encoding: 'utf8', timeout: 60_000 });

    it('is an executable launcher next to the app; the app runs as Node only because the fuse allows it', () => {
      expect(statSync(launcher()).mode & 0o111).toBe(0o111);
      expect(existsSync(join(resources, 'app.asar.unpacked', 'node_modules', 'tsx'))).toBe(false);
      const files = asar.listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) => f.split(sep).join('/').replace(/^\//, ''));
      expect(files).toContain('out/main/cli.js');
      expect(files.some((f) => f.startsWith('node_modules/tsx/'))).toBe(false);
    });

    it('opens the app when given no arguments', () => {
      const opened = tempora();
      expect(opened.stdout).toBe(`stand-in Electron ${electronVersion}\n`);
      expect(opened.status).toBe(0);
    });

    it('runs `tempora --help` and `tempora facts --json` as the command', () => {
      const help = tempora('--help');
      expect(help.stderr).toBe('');
      expect(help.stdout).toMatch(/^Usage: tempora /m);
      expect(help.status).toBe(0);
      const seed = join(work, 'seed.jsonl');
      writeFileSync(seed, JSON.stringify({ subject: 'me', predicate: 'lives_in', object: 'Lisbon', fact: 'I live in Lisbon.', reference_time: '2026-09-01T10:00:00Z', cardinality: 'one' }) + '\n');
      const observed = tempora('observe', seed);
      expect(observed.stderr).toBe('');
      expect(observed.status).toBe(0);
      const facts = tempora('facts', '--json');
      expect(facts.stderr).toBe('');
      expect(facts.status).toBe(0);
      expect((JSON.parse(facts.stdout) as { fact: string }[]).map((f) => f.fact)).toEqual(['I live in Lisbon.']);
      // The export reads through a second connection, which must load the same build.
      const exported = tempora('export');
      expect(exported.stderr).toBe('');
      expect(exported.status).toBe(0);
      expect(exported.stdout).toContain('I live in Lisbon.');
    });

    it('connects an agent to the installed command: `tempora mcp connect cursor` writes bin/tempora', () => {
      mkdirSync(join(work, 'home', '.cursor'), { recursive: true });
      const connected = tempora('mcp', 'connect', 'cursor');
      expect(connected.stderr).toBe('');
      expect(connected.status).toBe(0);
      const config = JSON.parse(readFileSync(join(work, 'home', '.cursor', 'mcp.json'), 'utf8')) as { mcpServers: { tempora: { command: string; args: string[] } } };
      expect(config.mcpServers.tempora).toEqual({ command: launcher(), args: ['mcp', '--data', join(work, 'data'), '--tz', 'UTC'] });
    });

    it('serves `tempora mcp` over stdio to an SDK client', async () => {
      const client = new Client({ name: 'packaged-tempora', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: launcher(), args: ['mcp'], cwd: work, env: env() }));
      try {
        const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
        expect(tools).toEqual(['close_fact', 'correct_fact', 'fact_history', 'forget_fact', 'list_facts', 'remember_facts', 'remember_message', 'search_memory']);
      } finally {
        await client.close();
      }
    }, 60_000);
  });

  it('carries no other platform’s or architecture’s binaries, and no CUDA build', () => {
    const foreign: string[] = [];
    walk(resources, (file) => {
      const found = fileArch(file);
      if (found && (found.format !== 'elf' || found.arch !== arch)) foreign.push(`${relative(resources, file)} (${found.format} ${found.arch})`);
      if (/[\\/]@node-llama-cpp[\\/][^\\/]*cuda/.test(file)) foreign.push(`${relative(resources, file)} (CUDA)`);
    });
    expect(foreign).toEqual([]);
    const llama = readdirSync(join(resources, 'app.asar.unpacked', 'node_modules', '@node-llama-cpp')).filter((name) => sizeOf(join(resources, 'app.asar.unpacked', 'node_modules', '@node-llama-cpp', name)) > 0);
    expect(llama.every((name) => name === `linux-${arch}` || name.startsWith(`linux-${arch}-`)), llama.join(', ')).toBe(true);
  });

  it('fits the size goal, and says what takes the space', () => {
    const unpacked = join(resources, 'app.asar.unpacked');
    const modules = join(unpacked, 'node_modules');
    const parts = readdirSync(modules).flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((sub) => `${name}/${sub}`) : [name]));
    const rows = parts.map((name) => [name, sizeOf(join(modules, name))] as const).sort((a, b) => b[1] - a[1]);
    const app = sizeOf(join(resources, 'app.asar')) + sizeOf(unpacked) + sizeOf(join(resources, 'native'));
    console.log(
      [
        `packaging-layout: linux ${arch} (stand-in Electron: add Electron's own ~250-300 MB for the real package)`,
        `  app.asar            ${mb(sizeOf(join(resources, 'app.asar')))}`,
        `  app.asar.unpacked   ${mb(sizeOf(unpacked))}`,
        ...rows.map(([name, size]) => `    ${name.padEnd(32)} ${mb(size)}`),
        `  native (sqlite)     ${mb(sizeOf(join(resources, 'native')))}`,
        `  the app, all told   ${mb(app)}`,
        `  whole folder        ${mb(sizeOf(appOutDir))}`,
      ].join('\n'),
    );
    // The goal for the standard Linux x64 package (was 916 MB unpacked).
    expect(app).toBeLessThan(400 * 1024 * 1024);
  });
});
