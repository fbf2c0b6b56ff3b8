/**
 * `tempora mcp`: the memory as an MCP server over stdio, for agents that start it themselves
 * (Claude Desktop, LM Studio, Cursor …). stdout carries MCP frames only; messages go to stderr.
 *
 * Two processes, one memory: by default it learns nothing itself. remember_message stores the
 * message and its job, and the app or `tempora serve` (or `tempora ingest`) learns it: a second
 * ingestion worker would, on starting, put back the job another process is learning (jobs left
 * "running" look interrupted), and both would learn it. `--learn` runs the worker here, with the
 * models used last time — only for a memory no other Tempora process has open.
 */
import { openMemory } from '../../memory/index';
import type { CommandContext, CommandSpec } from '../command';
import { withEngine } from '../engine-context';
import { InputError, UsageError, type ZoneError } from '../errors';
import { connectClient } from './mcp-connect';

/**
 * Opens (creates, migrates) the memory once, retrying a few times: agents often start several
 * `tempora mcp` at once, and on a new memory their migrations race (the loser fails on a column
 * the winner just added). Once one open has succeeded the schema is current for everyone.
 */
async function openSchema(ctx: CommandContext): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      openMemory({ dataDir: ctx.dataDir }).close();
      return;
    } catch {
      if (attempt >= 4) return; // withEngine reports it, in its words
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200 * (attempt + 1)));
    }
  }
}

/**
 * A bad zone in the client's settings for tempora: exiting before the handshake would show the
 * user only "Connection closed". Instead it serves the error, with how to fix it, as the answer to
 * every call (and on stderr, the client's log), never opening the memory.
 */
async function serveZoneError(ctx: CommandContext, error: ZoneError): Promise<void> {
  const fix =
    error.source === '--tz'
      ? "change the --tz argument in this MCP client's settings for tempora to an IANA zone like Asia/Tokyo, or remove it"
      : "set it to an IANA zone like Asia/Tokyo in this MCP client's settings for tempora, or remove it";
  return serveRefusal(ctx, `${error.message} — ${fix}`);
}

/** Answers every call with `problem` (and says it on stderr, the client's log) until the client closes. */
async function serveRefusal(ctx: CommandContext, problem: string): Promise<void> {
  const { keepStdoutForFrames, serveRefusalOverStdio } = await import('../../mcp/index');
  keepStdoutForFrames();
  ctx.io.stderr(`tempora: ${problem}\ntempora mcp: answering every call with this error until the client closes\n`);
  const served = serveRefusalOverStdio(problem, { onError: (e) => ctx.io.stderr(`tempora mcp: ${e.message}\n`) });
  const stop = () => void served.close();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    await served.closed;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/**
 * An option of the other form of the command is refused, not ignored: `mcp --remove` would otherwise
 * start a server (and make a memory) where the user meant to take Tempora out of an agent's config.
 */
function misplacedOption(ctx: CommandContext): UsageError | undefined {
  if (ctx.positionals[0] === 'connect') {
    return ctx.flag('learn') ? new UsageError('--learn belongs to `tempora mcp` (serving), not to `tempora mcp connect`, which only writes the agent\'s config', 'mcp') : undefined;
  }
  const option = ['remove', 'http'].find((name) => ctx.flag(name));
  return option === undefined ? undefined : new UsageError(`--${option} belongs to \`tempora mcp connect CLIENT\`; \`tempora mcp\` serves the memory over stdio and takes only --learn`, 'mcp');
}

export const mcpCommand: CommandSpec = {
  name: 'mcp',
  summary: 'serve the memory to other agents over MCP (stdio)',
  synopsis: 'mcp [--learn] | mcp connect CLIENT [--http] [--remove]',
  description: [
    'Speaks the Model Context Protocol on stdin/stdout until the client closes stdin. Tools: remember_facts,',
    'remember_message, search_memory, list_facts, fact_history, correct_fact, close_fact, forget_fact; resource',
    'tempora://facts/me/current. Safe beside a running app or `tempora serve` on the same memory: messages it is',
    'given are queued for them to learn. --learn loads the models used last time and learns here instead (only',
    'when nothing else has this memory open).',
    '`mcp connect CLIENT` adds this command to another agent\'s MCP config (claude-desktop, cursor, vscode, lm-studio,',
    'jan): it shows the entry, keeps a backup of the old file, and never touches a file that is not JSON; --remove',
    'takes it out again. --http writes the desktop app\'s MCP over HTTP instead (its kept URL and token; turn it on in',
    'Settings first; not for claude-desktop, whose file starts local servers only). Restart the agent afterwards.',
  ],
  options: {
    learn: { type: 'boolean', help: ['--learn', "learn remembered messages in this process with the last-used models (when no app or serve runs)"] },
    remove: { type: 'boolean', help: ['--remove', 'with connect: take Tempora out of the client\'s config'] },
    http: { type: 'boolean', help: ['--http', 'with connect: the desktop app\'s MCP over HTTP (its kept URL and token) instead of stdio'] },
  },
  positionals: { min: 0, max: 2, name: 'connect CLIENT' },
  zoneRefused(ctx, error) {
    // `mcp connect` is a command line like any other; `mcp` talks to a client that sees only frames
    // (but a command line that is wrong besides is refused as one).
    const misplaced = misplacedOption(ctx);
    if (misplaced) return Promise.reject(misplaced);
    return ctx.positionals.length === 0 ? serveZoneError(ctx, error) : undefined;
  },
  async run(ctx) {
    const [verb, client] = ctx.positionals;
    if (verb !== undefined && verb !== 'connect') throw new UsageError(`mcp: unknown subcommand ${JSON.stringify(verb)} (use: mcp, mcp connect CLIENT)`, 'mcp');
    const misplaced = misplacedOption(ctx);
    if (misplaced) throw misplaced;
    if (verb === 'connect') return connectClient(ctx, client);
    // Loaded on demand, like the engine: the quick commands never load the MCP SDK.
    const { keepStdoutForFrames, serveMcpOverStdio } = await import('../../mcp/index');
    keepStdoutForFrames();
    const learn = ctx.flag('learn');
    const log = (message: string) => ctx.io.stderr(`tempora mcp: ${message}\n`);
    // The schema made once the directory is there, within withEngine: a start refused after it leaves nothing behind.
    let serving = false;
    const opened = withEngine(ctx, { startWorker: learn, autoLoadModels: learn, beforeOpen: () => openSchema(ctx) }, async (engine) => {
      serving = true;
      const served = serveMcpOverStdio(engine, { learnsHere: learn, onError: (error) => log(error.message) });
      const stop = () => void served.close();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      log(`serving ${ctx.dataDir} over stdio${learn ? ' (learning here)' : ''}`);
      try {
        await served.closed;
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
    try {
      await opened;
    } catch (error) {
      // A memory there that cannot be opened (read-only media, another process's lock, a damaged
      // file): exiting before the handshake would show the agent only "Connection closed"; every call
      // answers why instead. A --data path refused as such (too long, not a folder) is said and exits.
      if (serving || !(error instanceof InputError) || !/^cannot (open|write) the memory in /.test(error.message)) throw error;
      return serveRefusal(ctx, `${error.message} — the memory could not be opened`);
    }
  },
};
