/**
 * `tempora serve`: the app in a browser. Opens the engine on the data directory, serves the built
 * UI and the whole API over the loopback bridge (electron/server), prints the address with its
 * per-start token, and runs until SIGINT/SIGTERM, when it closes the bridge and then the engine
 * gracefully (the message being learned finishes or goes back to the queue).
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { describeZodError } from '../../../shared/memory-schema';
import { fitLabel, type CatalogueModel } from '../../engine/catalogue';
import type { CommandContext, CommandSpec } from '../command';
import { MODEL_OPTIONS, withEngine } from '../engine-context';
import { InputError, RefusedBeforeStoring } from '../errors';
import { readJsonFile } from '../files';
import { printJson, printLines } from '../output';
import { stdioCommand } from './mcp-connect';

const REPO_ROOT = resolve(import.meta.dirname, '../../..');
/** electron-vite's output for the renderer in a checkout. */
export const DEFAULT_RENDERER_DIR = join(REPO_ROOT, 'out', 'renderer');

const catalogueFileEntry = z.strictObject({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(500),
  role: z.enum(['chat', 'embedding']),
  uri: z
    .string()
    .min(1)
    .max(4096)
    .refine((uri) => /^(https?:\/\/|hf:)/.test(uri), 'must be an http(s) URL or an hf: URI'),
  fileName: z
    .string()
    .min(1)
    .max(255)
    .refine((name) => !/[\\/\0]/.test(name) && name !== '.' && name !== '..', 'must be a plain file name, without a directory'),
  sizeBytes: z.number().int().min(0),
  sizeIsExact: z.boolean(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/i, 'must be 64 hexadecimal digits').nullable(),
  ramBytes: z.number().min(0),
  contextLength: z.number().int().min(1),
  dimensions: z.number().int().min(1).optional(),
  prefixes: z.strictObject({ query: z.string(), document: z.string() }).optional(),
  notes: z.string().max(4000),
});
const catalogueFile = z.array(catalogueFileEntry).refine((entries) => new Set(entries.map((e) => e.id)).size === entries.length, 'ids must be unique');

/** A catalogue file (offline mirrors, tests) as the engine's CatalogueModel objects. */
export function parseCatalogue(document: unknown, file: string): CatalogueModel[] {
  const parsed = catalogueFile.safeParse(document);
  if (!parsed.success) throw new InputError(`${file}: ${describeZodError(parsed.error)}`);
  return parsed.data.map((entry) => {
    const { dimensions, prefixes, ...rest } = entry;
    return Object.freeze({
      ...rest,
      sha256: entry.sha256 === null ? null : entry.sha256.toLowerCase(),
      ...(dimensions !== undefined ? { dimensions } : {}),
      ...(prefixes !== undefined ? { prefixes } : {}),
      fitFor: (totalRamBytes: number) => fitLabel(entry.ramBytes, totalRamBytes),
    });
  });
}

export function parsePort(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InputError(`--port: must be a whole number from 0 to 65535 (0: any free port), got ${JSON.stringify(value)}`);
  }
  return port;
}

/**
 * The renderer to serve: --renderer DIR as given, else out/renderer, which is built first (with
 * electron-vite) when a checkout has not built it yet.
 */
function rendererDir(ctx: CommandContext): string {
  const given = ctx.string('renderer');
  if (given !== undefined) {
    const dir = ctx.resolvePath(given);
    if (!existsSync(join(dir, 'index.html'))) throw new InputError(`--renderer: no index.html in ${dir} (it should be a built renderer, like out/renderer)`);
    return dir;
  }
  if (existsSync(join(DEFAULT_RENDERER_DIR, 'index.html'))) return DEFAULT_RENDERER_DIR;
  const electronVite = join(REPO_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const hint = 'run `npm run build` (it writes out/renderer), or pass --renderer DIR';
  if (!existsSync(electronVite)) throw new InputError(`the UI is not built (no ${DEFAULT_RENDERER_DIR}/index.html): ${hint}`);
  ctx.io.stderr('tempora serve: the UI is not built yet; building it (electron-vite build) ...\n');
  const built = spawnSync(process.execPath, [electronVite, 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (built.status !== 0 || !existsSync(join(DEFAULT_RENDERER_DIR, 'index.html'))) {
    const detail = (built.stderr ?? '').trim().split('\n').slice(-5).join('\n  ');
    throw new InputError(`building the UI failed${detail ? `:\n  ${detail}\n` : ''}; ${hint}`);
  }
  return DEFAULT_RENDERER_DIR;
}

/**
 * Resolves with the first SIGINT or SIGTERM; a second one while stopping ends the process at once.
 * The listeners stay until cancel(): some libraries (signal-exit) kill the process themselves when
 * theirs are the only listeners left, which would cut the graceful stop short.
 */
function untilStopSignal(onForce: (signal: NodeJS.Signals) => void): { stopped: Promise<NodeJS.Signals>; cancel(): void } {
  let received = 0;
  let resolveStopped!: (signal: NodeJS.Signals) => void;
  const stopped = new Promise<NodeJS.Signals>((resolve) => (resolveStopped = resolve));
  const on = (signal: NodeJS.Signals) => {
    received++;
    if (received === 1) resolveStopped(signal);
    else {
      onForce(signal);
      process.exit(128 + (constants.signals[signal] ?? 0));
    }
  };
  process.on('SIGINT', on);
  process.on('SIGTERM', on);
  return {
    stopped,
    cancel: () => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
    },
  };
}

export const serveCommand: CommandSpec = {
  name: 'serve',
  summary: 'serve the app to a browser on this machine (127.0.0.1 only)',
  synopsis: 'serve [--port N] [--renderer DIR] [--model PATH] [--embedding-model PATH] [--catalogue FILE.json]',
  description: [
    'Prints an address like http://127.0.0.1:PORT/?token=T: open it in a browser on this machine.',
    'The token is new at every start; the server answers only on 127.0.0.1, only to its own address',
    '(127.0.0.1:PORT or localhost:PORT) and only to its own page, so other sites and local pages get nothing.',
    'Without --model, the models used last time are loaded. Ctrl-C (or SIGTERM) stops it gracefully:',
    'the message being learned finishes or goes back to the queue. MCP is served at /mcp on the same',
    'port with its own token (printed). --json prints {"url","port","token","mcpUrl","mcpToken"}.',
  ],
  options: {
    port: { type: 'string', help: ['--port N', 'port on 127.0.0.1 (default 0: any free port)'] },
    renderer: { type: 'string', help: ['--renderer DIR', 'the built UI to serve (default: out/renderer, built if missing)'] },
    catalogue: { type: 'string', help: ['--catalogue FILE.json', 'replace the model catalogue (offline mirrors): [{id,name,role,uri,fileName,…}]'] },
    ...MODEL_OPTIONS,
  },
  positionals: { min: 0, max: 0, name: '' },
  async run(ctx) {
    const port = parsePort(ctx.string('port'));
    const catalogueOption = ctx.string('catalogue');
    const catalogue = catalogueOption === undefined ? undefined : parseCatalogue(readJsonFile(catalogueOption, ctx.io.cwd), catalogueOption);
    const dir = rendererDir(ctx);
    const modelGiven = ctx.string('model') !== undefined || ctx.string('embedding-model') !== undefined;
    const signal = untilStopSignal((received) => ctx.io.stderr(`tempora serve: ${received} again: stopping at once.\n`));
    try {
      await withEngine(ctx, { startWorker: true, autoLoadModels: !modelGiven, ...(catalogue ? { catalogue } : {}) }, async (engine) => {
        // Loaded on demand, like the engine: the quick commands never load ws.
        const { startBridge } = await import('../../server/bridge-server');
        const { createMcpHttpHandler } = await import('../../mcp/index');
        // MCP over Streamable HTTP at /mcp on the same port, with its own per-start bearer token.
        const mcpToken = randomBytes(32).toString('base64url');
        let mcpPort = 0;
        const mcp = createMcpHttpHandler(engine, {
          token: mcpToken,
          allowedHosts: () => [`127.0.0.1:${mcpPort}`, `localhost:${mcpPort}`],
          learnsHere: true, // serve runs the ingestion worker
          onError: (error) => ctx.io.stderr(`tempora serve: mcp: ${error.message}\n`),
        });
        let bridge;
        try {
          const agentLaunch = () => stdioCommand(ctx);
          bridge = await startBridge({ engine, rendererDir: dir, port, log: (message) => ctx.io.stderr(`${message}\n`), handleRequest: mcp, agentLaunch });
        } catch (error) {
          await mcp.close();
          // Nothing was served, so nothing stored: a memory this start made is taken back.
          throw new RefusedBeforeStoring(`serve: ${(error as Error).message}`);
        }
        mcpPort = bridge.port;
        const mcpUrl = `http://127.0.0.1:${bridge.port}/mcp`;
        if (ctx.json) printJson(ctx.io, { url: bridge.url, port: bridge.port, token: bridge.token, mcpUrl, mcpToken });
        else {
          printLines(ctx.io, [
            `Tempora is serving the memory in ${ctx.dataDir}`,
            'Open this address in a browser on this machine (the token changes at every start):',
            '',
            `  ${bridge.url}`,
            '',
            'Other local agents can use the memory over MCP (Streamable HTTP):',
            `  ${mcpUrl}   with the header  Authorization: Bearer ${mcpToken}`,
            '',
            'Ctrl-C stops.',
          ]);
        }
        const received = await signal.stopped;
        ctx.io.stderr(`tempora serve: ${received}: stopping (the message being learned finishes first; a second Ctrl-C forces) ...\n`);
        await mcp.close();
        await bridge.close();
      });
    } finally {
      signal.cancel();
    }
    ctx.io.stderr('tempora serve: stopped.\n');
  },
};
