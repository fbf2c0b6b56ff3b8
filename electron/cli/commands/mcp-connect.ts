/**
 * `tempora mcp connect CLIENT [--http] [--remove]`: adds Tempora to another agent's MCP config file,
 * or takes it out — stdio through this very command, or with --http the desktop app's MCP over HTTP
 * (its kept URL and token). Where each client keeps its file, and how it is written, is
 * electron/engine/agent-configs.ts, which Settings → Connect an agent uses too.
 */
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { McpWay } from '../../../shared/api-contract';
import { AgentConfigError, clientNamed, clientTitle, connectAgent, disconnectAgent, ENTRY_NAME, httpRefusal, MCP_CLIENT_NAMES, type AgentSystem, type StdioLaunch } from '../../engine/agent-configs';
import { keptMcpAddress } from '../../engine/mcp-token';
import type { CommandContext } from '../command';
import { InputError, UsageError } from '../errors';

/**
 * How a client starts this command: the installed launcher (bin/tempora sets $TEMPORA_COMMAND), else
 * this Node with the built bundle, else (a checkout) this Node with tsx's loader and the source. The
 * memory (--data or $TEMPORA_DATA_DIR) and the zone (--tz or $TEMPORA_TZ) given here are passed on
 * as arguments: the client does not start it in this shell.
 */
export function stdioCommand(ctx: CommandContext): StdioLaunch {
  const data = ctx.string('data') !== undefined || ctx.io.env.TEMPORA_DATA_DIR ? ['--data', ctx.dataDir] : [];
  const zone = ctx.string('tz') !== undefined || ctx.io.env.TEMPORA_TZ?.trim() ? ['--tz', ctx.timeZone] : [];
  const mcp = ['mcp', ...data, ...zone];
  const launcher = ctx.io.env.TEMPORA_COMMAND;
  if (launcher) return { command: launcher, args: mcp };
  const script = resolve(ctx.io.cwd, process.argv[1] ?? '');
  if (!script.endsWith('.ts')) return { command: process.execPath, args: [script, ...mcp] };
  const tsx = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs');
  return { command: process.execPath, args: ['--import', tsx, script, ...mcp] };
}

export function connectClient(ctx: CommandContext, name: string | undefined): void {
  if (name === undefined) throw new UsageError(`mcp connect needs CLIENT (one of: ${MCP_CLIENT_NAMES})`, 'mcp');
  const system: AgentSystem = { env: ctx.io.env, platform: process.platform };
  const say = (line: string) => ctx.io.stdout(`${line}\n`);
  try {
    const id = clientNamed(name);
    const title = clientTitle(id);
    if (ctx.flag('remove')) {
      if (ctx.flag('http')) throw new UsageError('mcp connect: --remove takes out whichever Tempora entry is there; leave out --http', 'mcp');
      const change = disconnectAgent(id, system);
      if (change.outcome === 'absent') return say(`${title} (${change.file}) has no Tempora entry; nothing changed.`);
      say(`Removed Tempora from ${title} (${change.file}).`);
      if (change.backup) say(`The old file is kept as ${change.backup}.`);
      return say(`Restart ${title} to stop using it.`);
    }
    const way: McpWay = ctx.flag('http') ? 'http' : 'stdio';
    // A client that takes no HTTP entry is told so before the memory (and the app's address in it) is looked for.
    const refusal = way === 'http' ? httpRefusal(id) : null;
    if (refusal !== null) throw new AgentConfigError(refusal, 'no_http');
    const http = way === 'http' ? ctx.readMemory((memory) => keptMcpAddress(ctx.dataDir, memory.settings.read())) : 'not asked';
    const change = connectAgent(id, way, { stdio: stdioCommand(ctx), http }, system);
    say(`${title}: ${change.file}`);
    say(JSON.stringify({ [ENTRY_NAME]: change.entry }, null, 2));
    if (change.outcome === 'unchanged') return say(`${title} already has this entry; nothing changed.`);
    say(`${change.outcome === 'added' ? 'Added' : 'Replaced'} the Tempora entry.`);
    if (change.backup) say(`The old file is kept as ${change.backup}.`);
    say(`Restart ${title} to use it.`);
  } catch (error) {
    if (!(error instanceof AgentConfigError)) throw error;
    if (error.kind === 'unknown_client') throw new UsageError(`mcp connect: ${error.message}`, 'mcp');
    throw new InputError(error.message.replace(/then try again\.$/, 'then run this again.'));
  }
}
