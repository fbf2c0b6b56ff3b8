/**
 * The desktop app's MCP over Streamable HTTP, behind a setting that is off by default. When on, a
 * node:http server on 127.0.0.1 serves electron/mcp's handler at /mcp (404 elsewhere); the URL and
 * bearer token are what the user pastes into another agent, so both stay the same across restarts:
 * the token is made once and kept in the data directory, owner-only (mcp-token.ts), until the user
 * rotates it (the old one is refused at once); the port is kept in the memory's settings (mcpPort)
 * and asked for again — when another program holds it, another is taken and kept, and the status
 * says so in words (notice). Whether it is on is kept too (mcpEnabled) and applied at start().
 * No electron import: unit-tested in plain Node.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpStatus } from '../../shared/api-contract';
import type { TemporaEngine } from '../engine/engine';
import { createMcpHttpHandler, MCP_PATH, type McpHttpRequestHandler } from '../mcp/index';
import { readOrMakeToken, writeNewToken } from '../engine/mcp-token';

export { MCP_TOKEN_FILE } from '../engine/mcp-token';

interface Running {
  server: Server;
  handler: McpHttpRequestHandler;
  port: number;
  /** Said once, for the start it concerns (the kept port was taken). */
  notice?: string;
}

export class McpService {
  private running: Running | null = null;
  /** The token in use (read from its file at the first start, replaced by rotateToken). */
  private token: string | null = null;
  /** Starts and stops one after another, never overlapping. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly engine: TemporaEngine,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  status(): McpStatus {
    const running = this.running;
    if (!running) return { enabled: false, url: null, token: null };
    const status: McpStatus = { enabled: true, url: `http://127.0.0.1:${running.port}${MCP_PATH}`, token: this.currentToken() };
    return running.notice ? { ...status, notice: running.notice } : status;
  }

  /** A new token, kept for the next starts; from now on requests with the old one get 401. */
  async rotateToken(): Promise<McpStatus> {
    return this.serialised(async () => {
      this.token = writeNewToken(this.engine.options.dataDir);
      return this.status();
    });
  }

  /** At app start: serves MCP when the stored setting says so. */
  async start(): Promise<McpStatus> {
    if (!this.engine.memory.settings.read().mcpEnabled) return this.status();
    return this.serialised(() => this.listen());
  }

  /** Turns MCP over HTTP on or off, and remembers the choice for the next start. */
  async setEnabled(on: boolean): Promise<McpStatus> {
    return this.serialised(async () => {
      if (on) await this.listen();
      else await this.stop();
      this.engine.memory.settings.update({ mcpEnabled: on });
      return this.status();
    });
  }

  /** Stops serving (at quit); the stored setting is kept. */
  async close(): Promise<void> {
    await this.serialised(() => this.stop());
  }

  private serialised<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private currentToken(): string {
    this.token ??= readOrMakeToken(this.engine.options.dataDir);
    return this.token;
  }

  private async listen(): Promise<McpStatus> {
    if (this.running) return this.status();
    this.currentToken();
    let port = 0;
    const handler = createMcpHttpHandler(this.engine, {
      token: () => this.currentToken(),
      allowedHosts: () => [`127.0.0.1:${port}`, `localhost:${port}`],
      learnsHere: true, // the app runs the ingestion worker
      onError: this.onError,
    });
    const server = createServer((req, res) => {
      handler(req, res)
        .then((answered) => {
          if (!answered) res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: MCP is at ${MCP_PATH}\n`);
        })
        .catch((error: unknown) => {
          this.onError(error instanceof Error ? error : new Error(String(error)));
          if (!res.headersSent) res.writeHead(500).end();
          else res.destroy();
        });
    });
    const kept = this.engine.memory.settings.read().mcpPort;
    let notice: string | undefined;
    try {
      port = await listenOn(server, kept ?? 0).catch((error: NodeJS.ErrnoException) => {
        if (kept === null || error.code !== 'EADDRINUSE') throw error;
        return listenOn(server, 0);
      });
    } catch (error) {
      await handler.close();
      throw error;
    }
    const url = `http://127.0.0.1:${port}${MCP_PATH}`;
    if (kept !== null && port !== kept) notice = `Port ${kept} is taken by another program, so MCP is now at ${url}; agents set up with the old address need this one.`;
    if (port !== kept) this.engine.memory.settings.update({ mcpPort: port });
    this.running = { server, handler, port, ...(notice ? { notice } : {}) };
    return this.status();
  }

  private async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = null;
    await running.handler.close();
    await new Promise<void>((resolve) => {
      running.server.close(() => resolve());
      running.server.closeAllConnections();
    });
  }
}

function listenOn(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      server.off('listening', listening);
      reject(error);
    };
    const listening = () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(port, '127.0.0.1');
  });
}
