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
 * A client counts as installed when the folder of its file exists (it makes it at first start). The
 * old file is copied beside itself first (NAME.TIME.bak), the new text is checked to parse back to
 * what was meant, then written whole (a temporary file renamed over it) in the old file's way: its
 * indentation (tabs, four spaces), line endings, byte-order mark and permissions (a 0600 file holding
 * another server's key stays 0600). A file that is not JSON, or is read-only, is never touched.
 * Claude Desktop's file starts local servers only, so it gets no HTTP entry.
 */
import { chmodSync, copyFileSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentClient, McpClientId, McpWay } from '../../shared/api-contract';
import { mcpClientId } from '../../shared/api-contract';

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

/**
 * A refusal in words; nothing was changed. `kind` lets a face choose its exit code. `message` may
 * carry the JSON parser's own words, for the command line; `sentence` is the same without them, for
 * the screen (one plain sentence).
 */
export class AgentConfigError extends Error {
  readonly sentence: string;
  constructor(
    message: string,
    readonly kind: 'unknown_client' | 'not_installed' | 'not_json' | 'no_http' | 'read_only',
    sentence?: string,
  ) {
    super(message);
    this.sentence = sentence ?? message;
  }
}

interface McpClient {
  title: string;
  /** The folder the client makes at first start, and its config file's name in it. */
  folder(system: AgentSystem): string;
  file: string;
  /** The key of the servers' object. */
  key: 'mcpServers' | 'servers';
  stdio(launch: StdioLaunch): Record<string, unknown>;
  /** The HTTP entry, or why this client takes none. */
  http(address: HttpAddress): Record<string, unknown> | string;
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
    http: () => 'Claude Desktop’s config file starts local servers only: use the stdio entry (or the Tempora MCP Bundle).',
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

/** The entry a way writes for a client, or why it writes none (in words). */
export function entryFor(id: McpClientId, way: McpWay, ways: AgentWays): Record<string, unknown> | string {
  const client = MCP_CLIENTS[id];
  if (way === 'stdio') return client.stdio(ways.stdio);
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
  const { config, style } = readConfigFile(file, client);
  const servers = serversOf(config, client);
  if (sameJson(servers[ENTRY_NAME], entry)) return { file, backup: null, outcome: 'unchanged', entry };
  const backup = writeConfig(file, { ...config, [client.key]: { ...servers, [ENTRY_NAME]: entry } }, style);
  return { file, backup, outcome: servers[ENTRY_NAME] === undefined ? 'added' : 'replaced', entry };
}

/** Takes Tempora's entry out of the client's config (nothing when there is none). */
export function disconnectAgent(id: McpClientId, system: AgentSystem): AgentConfigChange {
  const client = MCP_CLIENTS[id];
  const file = installedFile(client, system);
  const { config, style } = readConfigFile(file, client);
  const servers = serversOf(config, client);
  if (!Object.hasOwn(servers, ENTRY_NAME)) return { file, backup: null, outcome: 'absent', entry: null };
  const { [ENTRY_NAME]: _removed, ...rest } = servers;
  return { file, backup: writeConfig(file, { ...config, [client.key]: rest }, style), outcome: 'removed', entry: null };
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const leftAlone = 'it was left as it is: fix it or move it away, then try again.';

/** How a config file is written: as the user's file was, or as the clients write a new one. */
interface ConfigStyle {
  indent: string;
  newline: '\n' | '\r\n';
  bom: boolean;
  finalNewline: boolean;
  /** The permission bits of the old file (undefined for a new one: the umask's). */
  mode: number | undefined;
}

const NEW_FILE_STYLE: ConfigStyle = { indent: '  ', newline: '\n', bom: false, finalNewline: true, mode: undefined };

interface ConfigFile {
  config: Record<string, unknown>;
  style: ConfigStyle;
}

/** The first indentation in the text (a tab, four spaces …), or two spaces when it has none. */
function styleOf(text: string, mode: number): ConfigStyle {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return { indent, newline: text.includes('\r\n') ? '\r\n' : '\n', bom: text.startsWith('\uFEFF'), finalNewline: /\n\s*$/.test(text), mode };
}

/**
 * The config as an object ({} when there is no file, or an empty one) and the way it is written;
 * anything else is refused untouched, as is a file its owner may not write (read-only).
 */
function readConfigFile(file: string, client: McpClient): ConfigFile {
  if (!existsSync(file)) return { config: {}, style: NEW_FILE_STYLE };
  const mode = statSync(file).mode & 0o777;
  const raw = readFileSync(file, 'utf8');
  const style = styleOf(raw, mode);
  // A byte-order mark (Notepad writes one) is not part of the JSON: read without it, written back with it.
  const text = style.bom ? raw.slice(1) : raw;
  if (text.trim() === '') return { config: {}, style: { ...NEW_FILE_STYLE, mode } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new AgentConfigError(`${file} is not JSON (${(error as Error).message}); ${leftAlone}`, 'not_json', `${file} is not JSON; ${leftAlone}`);
  }
  if (!isObject(parsed)) throw new AgentConfigError(`${file} is JSON but not an object; ${leftAlone}`, 'not_json');
  const servers = parsed[client.key];
  if (servers !== undefined && !isObject(servers)) throw new AgentConfigError(`${file}: "${client.key}" is not an object; ${leftAlone}`, 'not_json');
  return { config: parsed, style };
}

const readConfig = (file: string, client: McpClient) => readConfigFile(file, client).config;

const serversOf = (config: Record<string, unknown>, client: McpClient) => (config[client.key] ?? {}) as Record<string, unknown>;

/** Refuses, before anything is written, a file whose owner may not write it: the user made it read-only. */
function refuseReadOnly(file: string, style: ConfigStyle): void {
  if (style.mode !== undefined && (style.mode & 0o200) === 0) {
    throw new AgentConfigError(`${file} is read-only; it was left as it is: make it writable, then try again.`, 'read_only');
  }
}

/**
 * Writes the config whole, in the old file's style, after a backup of the old file (returned) and a
 * check that the text parses back.
 */
function writeConfig(file: string, config: Record<string, unknown>, style: ConfigStyle): string | null {
  refuseReadOnly(file, style);
  const json = JSON.stringify(config, null, style.indent);
  if (!sameJson(JSON.parse(json), config)) throw new AgentConfigError(`the new ${file} would not read back as written; nothing was changed.`, 'not_json');
  const text = `${style.bom ? '\uFEFF' : ''}${json.replace(/\n/g, style.newline)}${style.finalNewline ? style.newline : ''}`;
  let backup: string | null = null;
  if (existsSync(file)) {
    backup = `${file}.${new Date().toISOString().replace(/[:.]/g, '-')}.bak`;
    copyFileSync(file, backup);
  }
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, text, style.mode === undefined ? {} : { mode: style.mode });
  // The umask may have taken bits away: the new file is exactly as open as the old one, no more.
  if (style.mode !== undefined) chmodSync(partial, style.mode);
  renameSync(partial, file);
  return backup;
}
