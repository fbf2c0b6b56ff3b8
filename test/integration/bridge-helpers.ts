/**
 * Helpers for the bridge tests (not a test file itself): a minimal built renderer on disk, raw HTTP requests with any Host
 * and Origin, and a WebSocket client speaking the bridge protocol.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import WebSocket from 'ws';

export const FIXTURE_TITLE = 'Tempora bridge fixture';

/** A renderer like electron-vite's output: index.html with a CSP meta tag, a script and a style. */
export function writeFixtureRenderer(dir: string, outsideSecret: string): void {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;self&#39;; connect-src &#39;self&#39;">
    <meta charset="UTF-8" />
    <title>${FIXTURE_TITLE}</title>
    <script type="module" crossorigin src="./assets/app.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/app.css">
  </head>
  <body><div id="root">fixture</div></body>
</html>
`,
  );
  writeFileSync(join(dir, 'assets', 'app.js'), `document.getElementById('root').dataset.loaded = 'yes';\n`);
  writeFileSync(join(dir, 'assets', 'app.css'), 'body { margin: 0 }\n');
  writeFileSync(join(dir, 'assets', 'notes.unknownext'), 'not a renderer file type\n');
  symlinkSync(outsideSecret, join(dir, 'assets', 'link-to-secret.txt'));
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** GET (or another method) with exactly the given path and headers; Host defaults to 127.0.0.1:port. */
export function rawRequest(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', address = '127.0.0.1'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers }, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

export type ServerMessage =
  | { type: 'result'; id: number | null; ok: true; value: unknown }
  | { type: 'result'; id: number | null; ok: false; error: string }
  | { type: 'event'; event: { name: string; payload: Record<string, unknown> } };

export interface OpenOptions {
  token?: string | null;
  origin?: string | null;
  host?: string;
}

/** An open client, or the HTTP status with which the server refused the upgrade. */
export type Connection = { kind: 'open'; client: BridgeTestClient } | { kind: 'refused'; status: number };

export class BridgeTestClient {
  readonly messages: ServerMessage[] = [];
  private nextId = 1;
  private readonly waiters: Array<{ test: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }> = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString('utf8')) as ServerMessage;
      this.messages.push(message);
      for (const waiter of [...this.waiters]) {
        if (waiter.test(message)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** The next message (already received or still to come) that passes `test`. */
  next(test: (m: ServerMessage) => boolean, timeoutMs = 5_000): Promise<ServerMessage> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no such message arrived')), timeoutMs);
      this.waiters.push({ test, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  sendRaw(data: string | Buffer, binary = false): void {
    this.socket.send(data, { binary });
  }

  /** Sends a call and waits for its result. */
  async call(name: string, request?: unknown): Promise<Extract<ServerMessage, { type: 'result' }>> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ type: 'call', id, name, request }));
    return (await this.next((m) => m.type === 'result' && m.id === id)) as Extract<ServerMessage, { type: 'result' }>;
  }

  /** Like call(), but returns the value and throws the error of a failed call. */
  async value<T>(name: string, request?: unknown): Promise<T> {
    const result = await this.call(name, request);
    if (!result.ok) throw new Error(result.error);
    return result.value as T;
  }

  close(): void {
    this.socket.close();
  }
}

export function openSocket(port: number, token: string, options: OpenOptions = {}): Promise<Connection> {
  const query = options.token === null ? '' : `?token=${encodeURIComponent(options.token ?? token)}`;
  const origin = options.origin === undefined ? `http://127.0.0.1:${port}` : options.origin;
  const headers: Record<string, string> = {};
  if (options.host) headers.Host = options.host;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api${query}`, { ...(origin !== null ? { origin } : {}), headers });
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_req, res) => {
      res.resume();
      resolve({ kind: 'refused', status: res.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('error', (error) => reject(error));
    // The client listens from the start, so nothing sent right after the handshake is missed.
    const client = new BridgeTestClient(socket);
    socket.once('open', () => resolve({ kind: 'open', client }));
  });
}

export async function openClient(port: number, token: string): Promise<BridgeTestClient> {
  const connection = await openSocket(port, token);
  if (connection.kind !== 'open') throw new Error(`the bridge refused a good client: ${JSON.stringify(connection)}`);
  return connection.client;
}
