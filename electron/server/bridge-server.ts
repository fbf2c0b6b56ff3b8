/**
 * The loopback bridge: serves the built renderer and the whole API of shared/api-contract.ts to a
 * browser on this machine, for machines without an Electron binary and for the UI tests.
 *
 * - HTTP on 127.0.0.1 only, never a wildcard address.
 * - A random token per start: `GET /?token=T` is answered 303 to `/` with a session cookie
 *   (HttpOnly, SameSite=Strict, named after the port: bridge-credentials.ts); the page, its
 *   assets and the WebSocket at `/api` need that cookie (or the token), 401 without. Every path is
 *   checked once decoded and normalised (request-target.ts). The WebSocket carries the API (see
 *   shared/bridge-protocol.ts for the messages).
 * - Every request and upgrade must name the bridge itself in Host (127.0.0.1:PORT or
 *   localhost:PORT): DNS rebinding gets 421 and nothing else. A request with a foreign Origin, or
 *   one a browser marks as coming from another site (Sec-Fetch-Site), gets 403. The WebSocket
 *   requires the bridge's own Origin; with the right Origin but no valid cookie or token it is
 *   closed at once with code 4401 (so a stale page can tell the user to reopen the printed
 *   address) before any message is exchanged.
 * - Static files are confined to the renderer directory and streamed so that their descriptor is
 *   always closed (static-file-stream.ts); responses carry a strict CSP whose connect-src is this
 *   bridge's WebSocket only.
 * - Every call goes through dispatchCall(): request validated, handler, response validated; its
 *   error reaches the client with its code and field. Malformed messages get an error result and
 *   never reach the engine; nothing a client sends can crash the server.
 *
 * The parts: static-http.ts (the page and its files), bridge-credentials.ts (token and cookie),
 * request-target.ts (the path a request names), bridge-connections.ts (upgrades and each
 * connection's frames), call-dispatch.ts (calls, with the in-flight limit), event-fan-out.ts
 * (engine events to every client). This file puts them together and owns listening and closing.
 */
import { access } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApiHandlers, type HandlerOptions } from '../engine/api-handlers';
import type { TemporaEngine } from '../engine/engine';
import { BridgeConnections } from './bridge-connections';
import { newCredentials } from './bridge-credentials';
import { BRIDGE_HOST } from './bridge-security';
import { fanOutEvents } from './event-fan-out';
import { createRequestListener } from './static-http';

export interface BridgeOptions {
  engine: TemporaEngine;
  /** The built renderer (electron-vite's out/renderer), with index.html. */
  rendererDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** No file dialog in a browser: pickModelFile answers null and the page asks for a path. */
  pickModelFile?: never;
  /** Where to report problems that concern no client (an event that breaks the contract, say). */
  log?: (message: string) => void;
  /**
   * Answers first, before the static files; resolves true when it handled the request. The face
   * that composes the bridge passes MCP's handler here (`/mcp`, with its own bearer token): the
   * bridge cannot import another face.
   */
  handleRequest?: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  /** The desktop app's MCP switch, where a composer has one (tests of the Settings screen); the bridge itself has none. */
  mcp?: HandlerOptions['mcp'];
  /** How another agent starts the composer's `tempora mcp` (Settings → Connect an agent). */
  agentLaunch?: HandlerOptions['agentLaunch'];
  /** "Put tempora on the PATH", where a composer has it (tests of the Settings screen); the bridge itself has none. */
  commandOnPath?: HandlerOptions['commandOnPath'];
}

export interface Bridge {
  /** http://127.0.0.1:PORT/?token=T: the address to open. */
  url: string;
  port: number;
  token: string;
  /** Closes every connection and stops listening; the engine is left open. Idempotent. */
  close(): Promise<void>;
}

/** How long close() lets WebSocket clients take their leave before cutting them off. */
const CLOSE_GRACE_MS = 1_000;

export async function startBridge(options: BridgeOptions): Promise<Bridge> {
  const { engine, rendererDir } = options;
  const log = options.log ?? (() => undefined);
  const indexFile = join(rendererDir, 'index.html');
  try {
    await access(indexFile);
  } catch {
    throw new Error(`no built renderer in ${rendererDir} (index.html is missing): run \`npm run build\` first`);
  }

  const server = createServer();
  // Listening first: every part below is given the port. Nothing can arrive before they are
  // attached, since connections are only read on a later turn of the event loop.
  const port = await listen(server, options.port ?? 0);
  const credentials = newCredentials(port);
  const { token } = credentials;
  const handlerOptions = {
    ...(options.mcp ? { mcp: options.mcp } : {}),
    ...(options.agentLaunch ? { agentLaunch: options.agentLaunch } : {}),
    ...(options.commandOnPath ? { commandOnPath: options.commandOnPath } : {}),
  };
  const connections = new BridgeConnections({ handlers: createApiHandlers(engine, handlerOptions), credentials });
  const staticListener = createRequestListener({ rendererDir, indexFile, credentials, log });
  const handleRequest = options.handleRequest;
  server.on('request', (req, res) => {
    if (!handleRequest) return staticListener(req, res);
    handleRequest(req, res).then(
      (handled) => {
        if (!handled) staticListener(req, res);
      },
      (error: Error) => {
        log(`bridge: ${error.message}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('internal error\n');
      },
    );
  });
  server.on('upgrade', (req, socket, head) => connections.handleUpgrade(req, socket, head));
  server.on('error', (error) => log(`bridge: ${error.message}`));
  const unsubscribe = fanOutEvents(engine, connections, log);

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      unsubscribe();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await connections.closeAll(CLOSE_GRACE_MS);
      await stopped;
    })();
    return closing;
  };

  return { url: `http://${BRIDGE_HOST}:${port}/?token=${token}`, port, token, close };
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} on ${BRIDGE_HOST} is in use: choose another with --port N, or --port 0 for any free port`)
          : error.code === 'EACCES'
            ? new Error(`not allowed to listen on port ${port} (ports below 1024 need privileges)`)
            : error,
      );
    };
    server.once('error', onError);
    server.listen({ port, host: BRIDGE_HOST, exclusive: true }, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
