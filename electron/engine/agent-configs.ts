/**
 * Other agents' MCP config files: where each client keeps its file on this system, the Tempora entry
 * each way writes (stdio through the installed command, or HTTP with the app's stable URL and token),
 * and writing or removing it. One implementation for `tempora mcp connect` and Settings → Connect an
 * agent. Where each client keeps its file:
 *
 *   claude-desktop  macOS ~/Library/Application Support/Claude/claude_desktop_config.json
 *                   Windows %APPDATA%\Claude\claude_desktop_config.json
 *                   Linux $XDG_CONFIG_HOME/Claude/claude_desktop_config.json (~/.config; unofficial builds)
 *   cursor          ~/.cursor/mcp.json (every system)
 *   vscode          macOS ~/Library/Application Support/Code/User/mcp.json, Windows %APPDATA%\Code\User\mcp.json,
 *                   Linux $XDG_CONFIG_HOME/Code/User/mcp.json — under "servers", with "type"
 *   lm-studio       ~/.lmstudio/mcp.json (every system)
 *   jan             macOS ~/Library/Application Support/Jan/data/mcp_config.json, Windows %APPDATA%\Jan\data\…,
 *                   Linux $XDG_DATA_HOME/Jan/data/mcp_config.json (~/.local/share) — with "active": true
 *
 * A client counts as installed when the folder of its file exists (it makes it at first start). How
 * the file is read and written — JSON with comments, a minimal edit that keeps everything else, a
 * backup, the old file's indentation, line endings, byte-order mark and permissions; a broken or
 * read-only file never touched — is agent-config-file.ts. Claude Desktop's file starts local servers
 * only, so it gets no HTTP entry.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentClient, McpClientId, McpWay } from '../../shared/api-contract';
import { mcpClientId } from '../../shared/api-contract';
import { AgentConfigError, readConfigFile, writeServerEntry } from './agent-config-file';

export { AgentConfigError };

/** How an agent starts the `tempora mcp` command. */
export interface StdioLaunch {
  command: string;
  args: string[];
  env?: Record<string, string>;
}
/** The desktop app's MCP over HTTP, as it stays across restarts (null where it is off). */
export interface HttpAddress {
  url: string;
  token: string;
}
/** What the entries are made of: the face that asks knows how its command is started, and the app's address. */
export interface AgentWays {
  stdio: StdioLaunch;
  /** The address, or why there is none (in words). */
  http: HttpAddress | string;
}
export interface AgentSystem {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

interface McpClient {
  title: string;
  /** The folder the client makes at first start, and its config file's name in it. */
  folder(system: AgentSystem): string;
  file: string;
  /** The key of the servers' object. */
  key: 'mcpServers' | 'servers';
  stdio(launch: StdioLaunch): Record<string, unknown>;
  /** The HTTP entry, or why this client takes none (whatever the address). */
  http: ((address: HttpAddress) => Record<string, unknown>) | string;
}

const home = (env: NodeJS.ProcessEnv) => env.HOME || env.USERPROFILE || homedir();
const appData = (env: NodeJS.ProcessEnv) => env.APPDATA || join(home(env), 'AppData', 'Roaming');
const macSupport = (env: NodeJS.ProcessEnv) => join(home(env), 'Library', 'Application Support');
const xdgConfig = (env: NodeJS.ProcessEnv) => env.XDG_CONFIG_HOME || join(home(env), '.config');
const xdgData = (env: NodeJS.ProcessEnv) => env.XDG_DATA_HOME || join(home(env), '.local', 'share');
const perSystem =
  (name: string, linux: (env: NodeJS.ProcessEnv) => string) =>
  ({ env, platform }: AgentSystem) =>
    platform === 'win32' ? join(appData(env), name) : platform === 'darwin' ? join(macSupport(env), name) : join(linux(env), name);

const bearer = ({ token }: HttpAddress) => ({ Authorization: `Bearer ${token}` });
const plain = (launch: StdioLaunch) => ({ ...launch });

export const MCP_CLIENTS: Record<McpClientId, McpClient> = {
  'claude-desktop': {
    title: 'Claude Desktop',
    folder: perSystem('Claude', xdgConfig),
    file: 'claude_desktop_config.json',
    key: 'mcpServers',
    stdio: plain,
    http: 'Claude Desktop’s config file starts local servers only: use the stdio entry (or the Tempora MCP Bundle).',
  },
  cursor: { title: 'Cursor', folder: ({ env }) => join(home(env), '.cursor'), file: 'mcp.json', key: 'mcpServers', stdio: plain, http: (a) => ({ url: a.url, headers: bearer(a) }) },
  vscode: {
    title: 'VS Code',
    folder: (system) => join(perSystem('Code', xdgConfig)(system), 'User'),
    file: 'mcp.json',
    key: 'servers',
    stdio: (launch) => ({ type: 'stdio', ...launch }),
    http: (a) => ({ type: 'http', url: a.url, headers: bearer(a) }),
  },
  'lm-studio': { title: 'LM Studio', folder: ({ env }) => join(home(env), '.lmstudio'), file: 'mcp.json', key: 'mcpServers', stdio: plain, http: (a) => ({ url: a.url, headers: bearer(a) }) },
  jan: {
    title: 'Jan',
    folder: (system) => join(perSystem('Jan', xdgData)(system), 'data'),
    file: 'mcp_config.json',
    key: 'mcpServers',
    stdio: (launch) => ({ ...launch, active: true }),
    http: (a) => ({ type: 'http', url: a.url, headers: bearer(a), active: true }),
  },
};
export const MCP_CLIENT_NAMES = mcpClientId.options.join(', ');
export const ENTRY_NAME = 'tempora';

/** The client by its name, or a sentence naming the names there are. */
export function clientNamed(name: string): McpClientId {
  const parsed = mcpClientId.safeParse(name);
  if (!parsed.success) throw new AgentConfigError(`unknown client ${JSON.stringify(name)} (one of: ${MCP_CLIENT_NAMES})`, 'unknown_client');
  return parsed.data;
}

/** Why a client takes no HTTP entry whatever the app's address (in words), or null when it takes one: asked before the address is looked for. */
export function httpRefusal(id: McpClientId): string | null {
  const http = MCP_CLIENTS[id].http;
  return typeof http === 'string' ? http : null;
}

/** The entry a way writes for a client, or why it writes none (in words). */
export function entryFor(id: McpClientId, way: McpWay, ways: AgentWays): Record<string, unknown> | string {
  const client = MCP_CLIENTS[id];
  if (way === 'stdio') return client.stdio(ways.stdio);
  if (typeof client.http === 'string') return client.http;
  return typeof ways.http === 'string' ? ways.http : client.http(ways.http);
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const pretty = (entry: Record<string, unknown>) => JSON.stringify({ [ENTRY_NAME]: entry }, null, 2);

/** One client as found on this system, for Settings: its file, what it holds of Tempora, the entry each way writes. */
export function describeClient(id: McpClientId, ways: AgentWays, system: AgentSystem): AgentClient {
  const client = MCP_CLIENTS[id];
  const folder = client.folder(system);
  const file = join(folder, client.file);
  const installed = existsSync(folder);
  const stdio = entryFor(id, 'stdio', ways) as Record<string, unknown>;
  const http = entryFor(id, 'http', ways);
  let problem: string | null = installed ? null : notInstalled(client, folder);
  let current: AgentClient['current'] = 'none';
  if (installed) {
    try {
      const held = serversOf(readConfig(file, client), client)[ENTRY_NAME];
      if (held !== undefined) current = sameJson(held, stdio) ? 'stdio' : typeof http !== 'string' && sameJson(held, http) ? 'http' : 'other';
    } catch (error) {
      if (!(error instanceof AgentConfigError)) throw error;
      problem = error.sentence;
    }
  }
  return {
    client: id,
    title: client.title,
    file,
    installed,
    problem,
    current,
    entries: { stdio: pretty(stdio), http: typeof http === 'string' ? null : pretty(http) },
    httpNote: typeof http === 'string' ? http : null,
  };
}

export interface AgentConfigChange {
  file: string;
  /** The copy of the old file, when there was one and it changed. */
  backup: string | null;
  /** What happened, in words (the face adds "Restart …"). */
  outcome: 'added' | 'replaced' | 'unchanged' | 'removed' | 'absent';
  entry: Record<string, unknown> | null;
}

/** Writes Tempora's entry for the way into the client's config (nothing when it is already there). */
export function connectAgent(id: McpClientId, way: McpWay, ways: AgentWays, system: AgentSystem): AgentConfigChange {
  const client = MCP_CLIENTS[id];
  const entry = entryFor(id, way, ways);
  if (typeof entry === 'string') throw new AgentConfigError(entry, 'no_http');
  const file = installedFile(client, system);
  const read = readConfigFile(file, client.key, ENTRY_NAME);
  const servers = serversOf(read.config, client);
  if (sameJson(servers[ENTRY_NAME], entry)) return { file, backup: null, outcome: 'unchanged', entry };
  const backup = writeServerEntry(read, client.key, ENTRY_NAME, entry);
  return { file, backup, outcome: servers[ENTRY_NAME] === undefined ? 'added' : 'replaced', entry };
}

/** Takes Tempora's entry out of the client's config (nothing when there is none). */
export function disconnectAgent(id: McpClientId, system: AgentSystem): AgentConfigChange {
  const client = MCP_CLIENTS[id];
  const file = installedFile(client, system);
  const read = readConfigFile(file, client.key, ENTRY_NAME);
  if (!Object.hasOwn(serversOf(read.config, client), ENTRY_NAME)) return { file, backup: null, outcome: 'absent', entry: null };
  return { file, backup: writeServerEntry(read, client.key, ENTRY_NAME, undefined), outcome: 'removed', entry: null };
}

export const clientTitle = (id: McpClientId) => MCP_CLIENTS[id].title;

function notInstalled(client: McpClient, folder: string): string {
  return `${client.title} does not seem to be installed: there is no ${folder}. Install it and open it once, then try again.`;
}

function installedFile(client: McpClient, system: AgentSystem): string {
  const folder = client.folder(system);
  if (!existsSync(folder)) throw new AgentConfigError(notInstalled(client, folder), 'not_installed');
  return join(folder, client.file);
}

const readConfig = (file: string, client: McpClient) => readConfigFile(file, client.key, ENTRY_NAME).config;

const serversOf = (config: Record<string, unknown>, client: McpClient) => (config[client.key] ?? {}) as Record<string, unknown>;
