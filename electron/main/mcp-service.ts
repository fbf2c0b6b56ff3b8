/**
 * The desktop app's MCP over Streamable HTTP, behind a setting that is off by default. When on, a
 * node:http server on 127.0.0.1 serves electron/mcp's handler at /mcp (404 elsewhere), with a new
 * bearer token at every start; the URL and token are what the user pastes into another agent.
 * Whether it is on is kept in the memory's settings (mcpEnabled) and applied at start (start()).
 * No electron import: unit-tested in plain Node.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpStatus } from '../../shared/api-contract';
import type { TemporaEngine } from '../engine/engine';
import { createMcpHttpHandler, MCP_PATH, type McpHttpRequestHandler } from '../mcp/index';

interface Running {
  server: Server;
  handler: McpHttpRequestHandler;
  port: number;
  token: string;
}

export class McpService {
  private running: Running | null = null;
  /** The port of the last start, asked for again so a toggled-off-and-on URL stays the same when it can. */
  private lastPort = 0;
  /** Starts and stops one after another, never overlapping. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly engine: TemporaEngine,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  status(): McpStatus {
    const running = this.running;
    if (!running) return { enabled: false, url: null, token: null };
    return { enabled: true, url: `http://127.0.0.1:${running.port}${MCP_PATH}`, token: running.token };
  }

  /** At app start: serves MCP when the stored setting says so. */
  async start(): Promise<McpStatus> {
    if (!this.engine.memory.settings().mcpEnabled) return this.status();
    return this.serialised(() => this.listen());
  }

  /** Turns MCP over HTTP on or off, and remembers the choice for the next start. */
  async setEnabled(on: boolean): Promise<McpStatus> {
    return this.serialised(async () => {
      if (on) await this.listen();
      else await this.stop();
      this.engine.memory.updateSettings({ mcpEnabled: on });
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

  private async listen(): Promise<McpStatus> {
    if (this.running) return this.status();
    const token = randomBytes(32).toString('base64url');
    let port = 0;
    const handler = createMcpHttpHandler(this.engine, {
      token,
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
    try {
      port = await listenOn(server, this.lastPort).catch((error: NodeJS.ErrnoException) => {
        if (this.lastPort !== 0 && error.code === 'EADDRINUSE') return listenOn(server, 0);
        throw error;
      });
    } catch (error) {
      await handler.close();
      throw error;
    }
    this.lastPort = port;
    this.running = { server, handler, port, token };
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
