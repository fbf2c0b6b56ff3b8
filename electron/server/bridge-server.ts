/**
 * The loopback bridge: serves the built renderer and the whole API of shared/api-contract.ts to a
 * browser on this machine, for machines without an Electron binary and for the UI tests.
 *
 * - HTTP on 127.0.0.1 only, never a wildcard address.
 * - A random token per start: `GET /?token=T` serves the page (401 without it), and the WebSocket
 *   at `/api?token=T` carries the API (see bridge-protocol.ts for the messages).
 * - Every request and upgrade must name the bridge itself in Host (127.0.0.1:PORT or
 *   localhost:PORT): DNS rebinding gets 421 and nothing else. A request with a foreign Origin, or
 *   one a browser marks as coming from another site (Sec-Fetch-Site), gets 403. The WebSocket
 *   requires the bridge's own Origin; with the right Origin but a wrong token it is closed at once
 *   with code 4401 (so a stale page can tell the user to reopen the printed address) before any
 *   message is exchanged.
 * - Static files are confined to the renderer directory; responses carry a strict CSP whose
 *   connect-src is this bridge's WebSocket only.
 * - Every call goes through dispatchCall(): request validated, handler, response validated.
 *   Malformed messages get an error result and never reach the engine; nothing a client sends can
 *   crash the server.
 */
import { createReadStream } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { ApiEventEnvelope } from '../../shared/api-contract';
import { createApiHandlers, dispatchCall } from '../engine/api-handlers';
import type { TemporaEngine } from '../engine/engine';
import { API_PATH, CLOSE, MAX_CALLS_IN_FLIGHT, MAX_MESSAGE_BYTES, checkedEvent, parseClientMessage, type EventMessage, type ResultMessage } from './bridge-protocol';
import { BRIDGE_HOST, isAllowedHost, isAllowedOrigin, newToken, tokenMatches } from './bridge-security';
import { bridgeCsp, metaCsp } from './csp';
import { serveableFile } from './static-files';

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

/** A client that leaves this much unread is dropped rather than allowed to fill the memory. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
/** How long close() lets WebSocket clients take their leave before cutting them off. */
const CLOSE_GRACE_MS = 1_000;

const CSP_META = /<meta\s+http-equiv=["']Content-Security-Policy["'][^>]*>/gi;

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
  const handlers = createApiHandlers(engine);
  const clients = new Set<WebSocket>();
  const server = createServer();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false, clientTracking: false });
  let port = 0;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handleRequest(req, res).catch((error: unknown) => {
      log(`bridge: ${req.method} ${req.url}: ${(error as Error).message}`);
      if (!res.headersSent) sendText(res, 500, 'Internal error\n', baseHeaders(port));
      else res.destroy();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => handleUpgrade(req, socket, head));

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = baseHeaders(port);
    if (!isAllowedHost(req.headers.host, port)) {
      sendText(res, 421, `Misdirected request: this server answers only to 127.0.0.1:${port} and localhost:${port}.\n`, headers);
      return;
    }
    if (!isOwnRequest(req, port)) {
      sendText(res, 403, 'Forbidden: requests from other sites are refused.\n', headers);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'Method not allowed\n', { ...headers, Allow: 'GET, HEAD' });
      return;
    }
    const url = requestUrl(req);
    if (!url) {
      sendText(res, 400, 'Bad request\n', headers);
      return;
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      if (!tokenMatches(url.searchParams.get('token'), token)) {
        sendText(res, 401, 'Unauthorized: open the address that `tempora serve` printed; it carries the access token.\n', headers);
        return;
      }
      const html = (await readFile(indexFile, 'utf8')).replace(CSP_META, () => `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(metaCsp(bridgeCsp(port)))}">`);
      const body = Buffer.from(html, 'utf8');
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (url.pathname === API_PATH) {
      sendText(res, 426, 'The API is a WebSocket.\n', { ...headers, Upgrade: 'websocket', Connection: 'Upgrade' });
      return;
    }
    const found = await serveableFile(rendererDir, url.pathname);
    if (!found) {
      sendText(res, 404, 'Not found\n', headers);
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': found.type, 'Content-Length': found.size });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(found.file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  }

  function handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    if (!isAllowedHost(req.headers.host, port)) return refuseUpgrade(socket, 421, 'Misdirected Request');
    const url = requestUrl(req);
    if (!url || url.pathname !== API_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    if (!isAllowedOrigin(req.headers.origin, port)) return refuseUpgrade(socket, 403, 'Forbidden');
    const authorised = tokenMatches(url.searchParams.get('token'), token);
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => undefined); // ws closes the socket itself (e.g. a frame over maxPayload: 1009)
      if (!authorised) {
        ws.close(CLOSE.badToken, 'invalid token: open the address that tempora serve printed');
        return;
      }
      accept(ws);
    });
  }

  function accept(ws: WebSocket): void {
    clients.add(ws);
    let inFlight = 0;
    ws.on('close', () => clients.delete(ws));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        ws.close(CLOSE.unsupportedData, 'binary frames are not supported; send JSON text');
        return;
      }
      const parsed = parseClientMessage(rawText(data));
      if (!parsed.ok) {
        sendMessage(ws, { type: 'result', id: parsed.id, ok: false, error: parsed.error });
        return;
      }
      const { id, name, request } = parsed.call;
      if (inFlight >= MAX_CALLS_IN_FLIGHT) {
        sendMessage(ws, { type: 'result', id, ok: false, error: `too many calls at once (at most ${MAX_CALLS_IN_FLIGHT})` });
        return;
      }
      inFlight++;
      void dispatchCall(handlers, name, request).then(
        (value) => sendMessage(ws, { type: 'result', id, ok: true, value }),
        (error: unknown) => sendMessage(ws, { type: 'result', id, ok: false, error: errorText(error) }),
      ).finally(() => {
        inFlight--;
      });
    });
  }

  const unsubscribe = engine.onEvent((event: ApiEventEnvelope) => {
    if (clients.size === 0) return;
    const checked = checkedEvent(event);
    if (!checked) {
      log(`bridge: dropped a ${event.name} event that does not match the contract`);
      return;
    }
    const text = JSON.stringify({ type: 'event', event: checked } satisfies EventMessage);
    for (const ws of clients) sendRaw(ws, text);
  });

  try {
    port = await listen(server, options.port ?? 0);
  } catch (error) {
    unsubscribe();
    wss.close();
    throw error;
  }
  server.on('error', (error) => log(`bridge: ${error.message}`));

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      unsubscribe();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      const goodbyes = [...clients].map((ws) => new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close(CLOSE.goingAway, 'Tempora is shutting down');
      }));
      await Promise.race([Promise.all(goodbyes), delay(CLOSE_GRACE_MS)]);
      for (const ws of clients) ws.terminate();
      clients.clear();
      wss.close();
      await stopped;
    })();
    return closing;
  };

  return { url: `http://${BRIDGE_HOST}:${port}/?token=${token}`, port, token, close };
}

function sendMessage(ws: WebSocket, message: ResultMessage): void {
  let text: string;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    text = JSON.stringify({ type: 'result', id: message.id, ok: false, error: `the answer could not be encoded: ${errorText(error)}` } satisfies ResultMessage);
  }
  sendRaw(ws, text);
}

function sendRaw(ws: WebSocket, text: string): void {
  if (ws.readyState !== WebSocket.OPEN) return;
  if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
    ws.close(CLOSE.tooSlow, 'too much unread data');
    return;
  }
  ws.send(text);
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text || 'the call failed';
}

/** A browser's request from this bridge's own page (or typed in), not from another site. */
function isOwnRequest(req: IncomingMessage, port: number): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && !isAllowedOrigin(origin, port)) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

function requestUrl(req: IncomingMessage): URL | null {
  try {
    const url = new URL(req.url ?? '/', 'http://bridge.invalid');
    return url.host === 'bridge.invalid' ? url : null; // an absolute-form target naming another host is not ours
  } catch {
    return null;
  }
}

function baseHeaders(port: number): OutgoingHttpHeaders {
  return {
    'Content-Security-Policy': bridgeCsp(port),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}

function sendText(res: ServerResponse, status: number, text: string, headers: OutgoingHttpHeaders): void {
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
