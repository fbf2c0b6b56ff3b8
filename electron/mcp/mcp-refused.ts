/**
 * A server for a `tempora mcp` that cannot serve the memory as it was started (a bad $TEMPORA_TZ or
 * --tz in the client's settings): it still completes the handshake — else the client shows only
 * "Connection closed" — and lists the same tools, the current-facts resource and the guide, but
 * answers every tool call with a tool error and every read of the facts with an error, each saying
 * what is wrong and how to fix it. It never opens the memory, so nothing is written to it.
 */
import { McpServer, type McpServerFactory, type StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { CURRENT_FACTS_URI } from './facts-resource';
import { SERVER_INFO } from './mcp-server';
import { registerTimeAxesGuide } from './time-axes-guide';
import { TOOLS } from './tool-declarations';
import { anyArguments } from './tool-input';
import { escapeControls } from '../../shared/escape-controls';

/** A tool as declared, its schemas taken whole (the answer is the same error whatever they say). */
type Declared = Omit<(typeof TOOLS)[keyof typeof TOOLS], 'inputSchema' | 'outputSchema'> & {
  inputSchema: StandardSchemaWithJSON<unknown, unknown>;
  outputSchema: StandardSchemaWithJSON<unknown, unknown>;
};

/** The factory of servers that answer every call with `problem` (what is wrong and how to fix it). */
export function refusingFactory(problem: string): McpServerFactory {
  const said = escapeControls(problem, { lines: true });
  return () => {
    const server = new McpServer(SERVER_INFO, {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: `Tempora cannot serve the memory as it was started: ${said}`,
    });
    for (const [name, declared] of Object.entries(TOOLS) as [string, Declared][]) {
      server.registerTool(name, { ...declared, inputSchema: anyArguments(declared.inputSchema) }, () => ({
        content: [{ type: 'text', text: said }],
        isError: true,
      }));
    }
    server.registerResource(
      'current-facts-about-me',
      CURRENT_FACTS_URI,
      { title: 'Current facts about the user', description: `Unavailable: ${said}`, mimeType: 'application/json' },
      () => {
        throw new Error(said);
      },
    );
    registerTimeAxesGuide(server);
    return server;
  };
}
