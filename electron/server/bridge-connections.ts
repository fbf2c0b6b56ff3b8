/**
 * The bridge's WebSocket side: who may upgrade (the bridge's own Host and Origin, at API_PATH
 * after decoding and normalising; without the session cookie or the token it is let in only to
 * be closed at once with CLOSE.badToken, so a stale page can say why), each
 * accepted connection's frames (text only, parsed by shared/bridge-protocol.ts, calls handed to
 * its CallDispatcher), the set of clients for event fan-out, and goodbyes at shutdown.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { API_PATH, CLOSE, MAX_MESSAGE_BYTES, parseCallMessage } from '../../shared/bridge-protocol';
import type { ApiHandlers } from '../engine/api-handlers';
import { presentedCredential, type BridgeCredentials } from './bridge-credentials';
import { isAllowedHost, isAllowedOrigin } from './bridge-security';
import { CallDispatcher } from './call-dispatch';
import { readRequestTarget } from './request-target';
import { rawText, sendMessage, sendRaw } from './socket-send';
import type { EventTargets } from './event-fan-out';

export interface ConnectionOptions {
  handlers: ApiHandlers;
  credentials: BridgeCredentials;
}

export class BridgeConnections implements EventTargets {
  private readonly clients = new Set<WebSocket>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false, clientTracking: false });

  constructor(private readonly options: ConnectionOptions) {}

  get size(): number {
    return this.clients.size;
  }

  broadcast(text: string): void {
    for (const ws of this.clients) sendRaw(ws, text);
  }

  /** The server's 'upgrade' listener. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const { credentials } = this.options;
    const { port } = credentials;
    socket.on('error', () => socket.destroy());
    if (!isAllowedHost(req.headers.host, port)) return refuseUpgrade(socket, 421, 'Misdirected Request');
    const target = readRequestTarget(req.url);
    if (!target.ok) return refuseUpgrade(socket, 400, 'Bad Request');
    if (target.path !== API_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    if (!isAllowedOrigin(req.headers.origin, port)) return refuseUpgrade(socket, 403, 'Forbidden');
    const presented = presentedCredential(target.query, req.headers.cookie, credentials);
    const authorised = presented === 'token' || presented === 'cookie';
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => undefined); // ws closes the socket itself (e.g. a frame over maxPayload: 1009)
      if (!authorised) {
        ws.close(CLOSE.badToken, 'no valid token or session cookie: open the address that tempora serve printed');
        return;
      }
      this.accept(ws);
    });
  }

  /** Says goodbye to every client, waits up to graceMs for them to go, then cuts off the rest. */
  async closeAll(graceMs: number): Promise<void> {
    const goodbyes = [...this.clients].map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          ws.once('close', () => resolve());
          ws.close(CLOSE.goingAway, 'Tempora is shutting down');
        }),
    );
    await Promise.race([Promise.all(goodbyes), delay(graceMs)]);
    for (const ws of this.clients) ws.terminate();
    this.clients.clear();
    this.wss.close();
  }

  private accept(ws: WebSocket): void {
    this.clients.add(ws);
    const calls = new CallDispatcher(this.options.handlers, (message) => sendMessage(ws, message));
    ws.on('close', () => this.clients.delete(ws));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        ws.close(CLOSE.unsupportedData, 'binary frames are not supported; send JSON text');
        return;
      }
      const parsed = parseCallMessage(rawText(data));
      if (parsed.ok) calls.dispatch(parsed.call);
      else sendMessage(ws, parsed.reply);
    });
  }
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
