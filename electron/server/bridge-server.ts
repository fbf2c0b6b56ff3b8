/**
 * The loopback bridge: serves the built renderer and the whole API of shared/api-contract.ts to a
 * browser on this machine, for machines without an Electron binary and for the UI tests.
 *
 * - HTTP on 127.0.0.1 only, never a wildcard address.
 * - A random token per start: `GET /?token=T` serves the page (401 without it), and the WebSocket
 *   at `/api?token=T` carries the API (see shared/bridge-protocol.ts for the messages).
 * - Every request and upgrade must name the bridge itself in Host (127.0.0.1:PORT or
 *   localhost:PORT): DNS rebinding gets 421 and nothing else. A request with a foreign Origin, or
 *   one a browser marks as coming from another site (Sec-Fetch-Site), gets 403. The WebSocket
 *   requires the bridge's own Origin; with the right Origin but a wrong token it is closed at once
 *   with code 4401 (so a stale page can tell the user to reopen the printed address) before any
 *   message is exchanged.
 * - Static files are confined to the renderer directory; responses carry a strict CSP whose
 *   connect-src is this bridge's WebSocket only.
 * - Every call goes through dispatchCall(): request validated, handler, response validated; its
 *   error reaches the client with its code and field. Malformed messages get an error result and
 *   never reach the engine; nothing a client sends can crash the server.
 *
 * The parts: static-http.ts (the page and its files), bridge-connections.ts (upgrades and each
 * connection's frames), call-dispatch.ts (calls, with the in-flight limit), event-fan-out.ts
 * (engine events to every client). This file puts them together and owns listening and closing.
 */
import { access } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createApiHandlers } from '../engine/api-handlers';
import type { TemporaEngine } from '../engine/engine';
import { BridgeConnections } from './bridge-connections';
import { BRIDGE_HOST, newToken } from './bridge-security';
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

  const token = newToken();
  const server = createServer();
  // Listening first: every part below is given the port. Nothing can arrive before they are
  // attached, since connections are only read on a later turn of the event loop.
  const port = await listen(server, options.port ?? 0);
  const connections = new BridgeConnections({ handlers: createApiHandlers(engine), token, port });
  server.on('request', createRequestListener({ rendererDir, indexFile, token, port, log }));
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
