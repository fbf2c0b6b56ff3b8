/**
 * MCP over Streamable HTTP at /mcp, for a node:http server that already listens on 127.0.0.1 (the
 * bridge of `tempora serve` and the app). Before anything else each request must come to a
 * loopback Host (DNS rebinding), from no Origin, its own or an allowed one (not other web pages), and carry
 * `Authorization: Bearer TOKEN` (its token); otherwise it gets 403 or 401 in words.
 * Then the SDK's createMcpHandler serves it: the 2026-07-28 protocol (resource changes on its
 * subscriptions/listen streams); a 2025-era client that opens with initialize gets a session
 * (mcp-sessions.ts) whose GET stream tells it what it subscribed to; other 2025-era requests are
 * served statelessly (each request its own server instance over the same engine).
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, isLegacyRequest } from '@modelcontextprotocol/server';
import type { TemporaEngine } from '../engine/index';
import { McpFace } from './mcp-server';
import { LegacySessions } from './mcp-sessions';

export const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface McpHttpOptions {
  /** The secret clients send as `Authorization: Bearer TOKEN` — or a function giving it, read at each request (a rotated token counts at once). */
  token: string | (() => string);
  /**
   * Host header values accepted, e.g. ["127.0.0.1:5173", "localhost:5173"] — or a function giving
   * them, for a port known only once the server listens; default: any loopback name, any port.
   */
  allowedHosts?: readonly string[] | (() => readonly string[]);
  /** Origins accepted when a request has one (a browser page) besides this server's own (http://HOST); default none. */
  allowedOrigins?: readonly string[];
  /** Whether this process runs the ingestion worker (remember_message learns now rather than queues). Default true. */
  learnsHere?: boolean;
  /** Out-of-band errors (reporting only), e.g. to the log. */
  onError?: (error: Error) => void;
}

/** A request handler: true when it answered the request (its path is /mcp), false to let others. */
export type McpHttpRequestHandler = ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & {
  /** Ends open streams and stops watching the memory; the engine stays open. */
  close(): Promise<void>;
};

export function createMcpHttpHandler(engine: TemporaEngine, options: McpHttpOptions): McpHttpRequestHandler {
  const currentToken = typeof options.token === 'function' ? options.token : () => options.token as string;
  if (currentToken().length < 16) throw new Error('createMcpHttpHandler: the token must be at least 16 characters');
  const face = new McpFace(engine, { learnsHere: options.learnsHere ?? true });
  const mcp = createMcpHandler(face.httpFactory, { onerror: options.onError, maxRequestBodySize: MAX_BODY_BYTES });
  face.onResourceUpdated((uri) => mcp.notify.resourceUpdated(uri));
  const sessions = new LegacySessions(face, options.onError);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== MCP_PATH) return false;
    const refusal = refuse(req, options, Buffer.from(`Bearer ${currentToken()}`));
    if (refusal) {
      const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };
      if (refusal.status === 401) headers['www-authenticate'] = 'Bearer realm="tempora"';
      res.writeHead(refusal.status, headers).end(`${refusal.message}\n`);
      return true;
    }
    try {
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      const request = await toWebRequest(req, url, abort.signal);
      if (request === 'too large') {
        res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8' }).end(`request body over ${MAX_BODY_BYTES} bytes\n`);
        return true;
      }
      const legacy = await isLegacyRequest(request, undefined, { maxRequestBodySize: MAX_BODY_BYTES });
      const inSession = legacy ? await sessions.handle(request) : null;
      await writeWebResponse(inSession ?? (await mcp.fetch(request)), res);
    } catch (error) {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('the MCP request failed\n');
      else res.destroy();
    }
    return true;
  };
  return Object.assign(handle, {
    close: async () => {
      face.close();
      await sessions.close();
      await mcp.close();
    },
  });
}

/** Why a request is refused before it reaches MCP, or null. */
function refuse(req: IncomingMessage, options: McpHttpOptions, expected: Buffer): { status: 401 | 403; message: string } | null {
  const host = req.headers.host ?? '';
  const allowed = typeof options.allowedHosts === 'function' ? options.allowedHosts() : options.allowedHosts;
  const hostOk = allowed ? allowed.includes(host) : LOOPBACK_HOSTS.has(hostName(host));
  if (!hostOk) return { status: 403, message: `forbidden: Host ${JSON.stringify(host)} is not this server's loopback address` };
  const origin = req.headers.origin;
  // A page of this very server (same origin as the loopback Host) is no foreign page.
  const sameOrigin = origin === `http://${host}`;
  if (origin !== undefined && !sameOrigin && !(options.allowedOrigins ?? []).includes(origin)) {
    return { status: 403, message: `forbidden: requests from the web page ${JSON.stringify(origin)} are not accepted` };
  }
  const given = Buffer.from(req.headers.authorization ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { status: 401, message: 'unauthorized: send the MCP token (`tempora serve` prints it; the app shows it in Settings), as "Authorization: Bearer TOKEN"' };
  }
  return null;
}

/** "127.0.0.1:5173" → "127.0.0.1", "[::1]:80" → "[::1]". */
function hostName(host: string): string {
  const match = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(host.trim().toLowerCase());
  return match?.[1] ?? '';
}

async function toWebRequest(req: IncomingMessage, url: URL, signal: AbortSignal): Promise<Request | 'too large'> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const method = req.method ?? 'GET';
  let body: Buffer<ArrayBuffer> | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) return 'too large';
      chunks.push(chunk);
    }
    body = Buffer.concat(chunks);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${url.pathname}${url.search}`, { method, headers, body, signal });
}

/** Writes a fetch Response (JSON, or an SSE stream written as it comes) to a node response. */
async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  // An event stream's headers go now: a client waits for them before it reads any event.
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away, or the stream was closed: nothing more to write
  }
  res.end();
}
