/**
 * `tempora mcp connect CLIENT [--remove]`: adds Tempora (stdio, through this very command) to
 * another agent's MCP config file, or takes it out. Where each client keeps that file, per system:
 *
 *   claude-desktop  macOS ~/Library/Application Support/Claude/claude_desktop_config.json
 *                   Windows %APPDATA%\Claude\claude_desktop_config.json
 *                   Linux $XDG_CONFIG_HOME/Claude/claude_desktop_config.json (~/.config; unofficial builds)
 *   cursor          ~/.cursor/mcp.json (every system)
 *   vscode          macOS ~/Library/Application Support/Code/User/mcp.json, Windows %APPDATA%\Code\User\mcp.json,
 *                   Linux $XDG_CONFIG_HOME/Code/User/mcp.json — under "servers", with "type": "stdio"
 *   lm-studio       ~/.lmstudio/mcp.json (every system)
 *   jan             macOS ~/Library/Application Support/Jan/data/mcp_config.json, Windows %APPDATA%\Jan\data\…,
 *                   Linux $XDG_DATA_HOME/Jan/data/mcp_config.json (~/.local/share) — with "active": true
 *
 * A client counts as installed when the folder of its file exists (it makes it at first start). The
 * old file is copied beside itself first (NAME.TIME.bak), the new text is checked to parse back to
 * what was meant, then written whole (a temporary file renamed over it). A file that is not JSON is
 * never touched.
 */
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { CommandContext } from '../command';
import { InputError, UsageError } from '../errors';

interface McpClient {
  title: string;
  /** The folder the client makes at first start, and its config file's name in it. */
  folder(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string;
  file: string;
  /** The key of the servers' object. */
  key: 'mcpServers' | 'servers';
  /** What this client wants beside command and args. */
  extra?: Record<string, unknown>;
}

const home = (env: NodeJS.ProcessEnv) => env.HOME || env.USERPROFILE || homedir();
const appData = (env: NodeJS.ProcessEnv) => env.APPDATA || join(home(env), 'AppData', 'Roaming');
const macSupport = (env: NodeJS.ProcessEnv) => join(home(env), 'Library', 'Application Support');
const xdgConfig = (env: NodeJS.ProcessEnv) => env.XDG_CONFIG_HOME || join(home(env), '.config');
const xdgData = (env: NodeJS.ProcessEnv) => env.XDG_DATA_HOME || join(home(env), '.local', 'share');
const perSystem = (name: string, linux: (env: NodeJS.ProcessEnv) => string) => (env: NodeJS.ProcessEnv, platform: NodeJS.Platform) =>
  platform === 'win32' ? join(appData(env), name) : platform === 'darwin' ? join(macSupport(env), name) : join(linux(env), name);

export const MCP_CLIENTS: Record<string, McpClient> = {
  'claude-desktop': { title: 'Claude Desktop', folder: perSystem('Claude', xdgConfig), file: 'claude_desktop_config.json', key: 'mcpServers' },
  cursor: { title: 'Cursor', folder: (env) => join(home(env), '.cursor'), file: 'mcp.json', key: 'mcpServers' },
  vscode: { title: 'VS Code', folder: (env, platform) => join(perSystem('Code', xdgConfig)(env, platform), 'User'), file: 'mcp.json', key: 'servers', extra: { type: 'stdio' } },
  'lm-studio': { title: 'LM Studio', folder: (env) => join(home(env), '.lmstudio'), file: 'mcp.json', key: 'mcpServers' },
  jan: { title: 'Jan', folder: (env, platform) => join(perSystem('Jan', xdgData)(env, platform), 'data'), file: 'mcp_config.json', key: 'mcpServers', extra: { active: true } },
};
const NAMES = Object.keys(MCP_CLIENTS).join(', ');
const ENTRY_NAME = 'tempora';

/**
 * How a client starts this command: the installed launcher (bin/tempora sets $TEMPORA_COMMAND), else
 * this Node with the built bundle, else (a checkout) this Node with tsx's loader and the source.
 */
export function stdioCommand(ctx: CommandContext): { command: string; args: string[] } {
  const data = ctx.string('data') !== undefined || ctx.io.env.TEMPORA_DATA_DIR ? ['--data', ctx.dataDir] : [];
  const launcher = ctx.io.env.TEMPORA_COMMAND;
  if (launcher) return { command: launcher, args: ['mcp', ...data] };
  const script = resolve(ctx.io.cwd, process.argv[1] ?? '');
  if (!script.endsWith('.ts')) return { command: process.execPath, args: [script, 'mcp', ...data] };
  const tsx = join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist', 'loader.mjs');
  return { command: process.execPath, args: ['--import', tsx, script, 'mcp', ...data] };
}

export function connectClient(ctx: CommandContext, name: string | undefined): void {
  if (name === undefined) throw new UsageError(`mcp connect needs CLIENT (one of: ${NAMES})`, 'mcp');
  const client = Object.hasOwn(MCP_CLIENTS, name) ? MCP_CLIENTS[name]! : undefined;
  if (!client) throw new UsageError(`mcp connect: unknown client ${JSON.stringify(name)} (one of: ${NAMES})`, 'mcp');
  const folder = client.folder(ctx.io.env, process.platform);
  if (!existsSync(folder)) throw new InputError(`${client.title} does not seem to be installed: there is no ${folder}. Install it and open it once, then run this again.`);
  const file = join(folder, client.file);
  const config = readConfig(file, client);
  const servers = (config[client.key] ?? {}) as Record<string, unknown>;
  const say = (line: string) => ctx.io.stdout(`${line}\n`);

  if (ctx.flag('remove')) {
    if (!Object.hasOwn(servers, ENTRY_NAME)) return say(`${client.title} (${file}) has no Tempora entry; nothing changed.`);
    const { [ENTRY_NAME]: _removed, ...rest } = servers;
    const backup = write(file, { ...config, [client.key]: rest });
    say(`Removed Tempora from ${client.title} (${file}).`);
    if (backup) say(`The old file is kept as ${backup}.`);
    return say(`Restart ${client.title} to stop using it.`);
  }

  const entry = { ...client.extra, ...stdioCommand(ctx) };
  say(`${client.title}: ${file}`);
  say(JSON.stringify({ [ENTRY_NAME]: entry }, null, 2));
  if (JSON.stringify(servers[ENTRY_NAME]) === JSON.stringify(entry)) return say(`${client.title} already has this entry; nothing changed.`);
  const backup = write(file, { ...config, [client.key]: { ...servers, [ENTRY_NAME]: entry } });
  say(`${servers[ENTRY_NAME] === undefined ? 'Added' : 'Replaced'} the Tempora entry.`);
  if (backup) say(`The old file is kept as ${backup}.`);
  say(`Restart ${client.title} to use it.`);
}

/** The config as an object ({} when there is no file, or an empty one); anything else is refused untouched. */
function readConfig(file: string, client: McpClient): Record<string, unknown> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, 'utf8');
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${file} is not JSON (${(error as Error).message}); it was left as it is: fix it or move it away, then run this again.`);
  }
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(parsed)) throw new InputError(`${file} is JSON but not an object; it was left as it is: fix it or move it away, then run this again.`);
  const servers = (parsed as Record<string, unknown>)[client.key];
  if (servers !== undefined && !isObject(servers)) {
    throw new InputError(`${file}: "${client.key}" is not an object; it was left as it is: fix it or move it away, then run this again.`);
  }
  return parsed as Record<string, unknown>;
}

/** Writes the config whole, after a backup of the old file (returned) and a check that the text parses back. */
function write(file: string, config: Record<string, unknown>): string | null {
  const text = `${JSON.stringify(config, null, 2)}\n`;
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(config)) throw new InputError(`the new ${file} would not read back as written; nothing was changed.`);
  let backup: string | null = null;
  if (existsSync(file)) {
    backup = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
    copyFileSync(file, backup);
  }
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, text);
  renameSync(partial, file);
  return backup;
}
