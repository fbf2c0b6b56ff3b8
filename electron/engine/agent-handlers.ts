/**
 * The API calls of Settings → Connect an agent: the agents found on this system with Tempora's entry
 * in each config, Connect (stdio, or HTTP with the app's kept URL and token) and Remove, each saying
 * the file and the backup of the old one. The files are read and written by agent-configs.ts, as
 * `tempora mcp connect` does. Part of createApiHandlers.
 */
import type { z } from 'zod';
import type { AgentChange, ApiResponse, apiCalls, McpClientId, McpStatus } from '../../shared/api-contract';
import { mcpClientId } from '../../shared/api-contract';
import { ApiError } from '../../shared/api-error';
import { AgentConfigError, clientTitle, connectAgent, describeClient, disconnectAgent, type AgentSystem, type AgentWays, type StdioLaunch } from './agent-configs';

type AgentCalls = 'agentClients' | 'connectAgent' | 'disconnectAgent' | 'putCommandOnPath';
type AgentHandlers = { [N in AgentCalls]: (request: z.output<(typeof apiCalls)[N]['request']>) => Promise<ApiResponse<N>> };

export interface AgentHandlerOptions {
  /** How an agent starts this face's `tempora mcp` (the app: its launcher, or its binary as Node; the bridge: its own command). */
  launch?: () => StdioLaunch;
  /** The desktop app's MCP over HTTP (absent on the bridge). */
  mcp?: { status(): McpStatus };
  /** "Put tempora on the PATH" (the app on macOS and Windows: electron/main/command-on-path.ts); it throws its refusals in words. */
  commandOnPath?: { dir: string; put(): { file: string; onPath: boolean; message: string } };
  /** Where the agents' files are looked for (default: this process's environment, at each call). */
  system?: () => AgentSystem;
}

/** The command on the PATH, where the face says nothing better. */
const ON_PATH: StdioLaunch = { command: 'tempora', args: ['mcp'] };
const NO_HTTP_HERE = 'The HTTP entry is the desktop app’s (its address and token stay across restarts); here, use the stdio entry.';
const NOT_ON_PATH_HERE = 'Here the tempora command is the one you started; the desktop app on macOS and Windows puts it on the PATH.';
const HTTP_OFF = 'Turn on “Let other local agents use this memory (MCP)” above to offer the HTTP entry, with its address and token.';

export function agentHandlers(options: AgentHandlerOptions = {}): AgentHandlers {
  const system = () => options.system?.() ?? { env: process.env, platform: process.platform };
  const ways = (): AgentWays => {
    const status = options.mcp?.status();
    const http = !status ? NO_HTTP_HERE : status.enabled && status.url && status.token ? { url: status.url, token: status.token } : HTTP_OFF;
    return { stdio: options.launch?.() ?? ON_PATH, http };
  };
  const refused = (error: unknown): never => {
    if (error instanceof AgentConfigError) throw new ApiError('invalid_input', error.sentence);
    throw error;
  };
  const changed = (id: McpClientId, backup: string | null, message: string, didChange: boolean): AgentChange => ({
    client: describeClient(id, ways(), system()),
    changed: didChange,
    backup,
    message: backup ? `${message} The old file is kept as ${backup}.` : message,
  });
  return {
    agentClients: async () => {
      const [found, where] = [ways(), system()];
      const onPath = options.commandOnPath ? { dir: options.commandOnPath.dir } : null;
      return { clients: mcpClientId.options.map((id) => describeClient(id, found, where)), commandOnPath: onPath };
    },
    connectAgent: async ({ client, way }) => {
      const title = clientTitle(client);
      try {
        const change = connectAgent(client, way, ways(), system());
        if (change.outcome === 'unchanged') return changed(client, null, `${title} already has this entry; nothing changed.`, false);
        const verb = change.outcome === 'added' ? 'Added Tempora to' : 'Replaced the Tempora entry in';
        return changed(client, change.backup, `${verb} ${title} (${change.file}). Restart ${title} to use it.`, true);
      } catch (error) {
        return refused(error);
      }
    },
    putCommandOnPath: async () => {
      if (!options.commandOnPath) throw new ApiError('invalid_input', NOT_ON_PATH_HERE);
      try {
        return options.commandOnPath.put();
      } catch (error) {
        throw new ApiError('invalid_input', (error as Error).message);
      }
    },
    disconnectAgent: async ({ client }) => {
      const title = clientTitle(client);
      try {
        const change = disconnectAgent(client, system());
        if (change.outcome === 'absent') return changed(client, null, `${title} (${change.file}) has no Tempora entry; nothing changed.`, false);
        return changed(client, change.backup, `Removed Tempora from ${title} (${change.file}). Restart ${title} to stop using it.`, true);
      } catch (error) {
        return refused(error);
      }
    },
  };
}
