/**
 * The bridge's HTTP side: the page (index.html, only with the token, its CSP meta tag rewritten
 * for this bridge) and the renderer's static files, to requests that name the bridge itself and
 * come from its own page. Every response carries the bridge's strict headers.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { API_PATH } from '../../shared/bridge-protocol';
import { bridgeCsp, metaCsp } from '../../shared/csp';
import { serveableFile } from '../engine/static-files';
import { isAllowedHost, isOwnRequest, requestUrl, tokenMatches } from './bridge-security';

export interface StaticHttpOptions {
  /** The built renderer, with index.html. */
  rendererDir: string;
  indexFile: string;
  token: string;
  port: number;
  log: (message: string) => void;
}

const CSP_META = /<meta\s+http-equiv=["']Content-Security-Policy["'][^>]*>/gi;

/** The server's 'request' listener; a failure is logged and answered 500, never thrown. */
export function createRequestListener(options: StaticHttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handleRequest(options, req, res).catch((error: unknown) => {
      options.log(`bridge: ${req.method} ${req.url}: ${(error as Error).message}`);
      if (!res.headersSent) sendText(res, 500, 'Internal error\n', baseHeaders(options.port));
      else res.destroy();
    });
  };
}

async function handleRequest(options: StaticHttpOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { port } = options;
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
    await servePage(options, req, res, url, headers);
    return;
  }
  if (url.pathname === API_PATH) {
    sendText(res, 426, 'The API is a WebSocket.\n', { ...headers, Upgrade: 'websocket', Connection: 'Upgrade' });
    return;
  }
  await serveFile(options.rendererDir, req, res, url, headers);
}

/** index.html, with the token only, its CSP meta tag set to this bridge's policy. */
async function servePage(options: StaticHttpOptions, req: IncomingMessage, res: ServerResponse, url: URL, headers: OutgoingHttpHeaders): Promise<void> {
  if (!tokenMatches(url.searchParams.get('token'), options.token)) {
    sendText(res, 401, 'Unauthorized: open the address that `tempora serve` printed; it carries the access token.\n', headers);
    return;
  }
  const policy = escapeAttribute(metaCsp(bridgeCsp(options.port)));
  const html = (await readFile(options.indexFile, 'utf8')).replace(CSP_META, () => `<meta http-equiv="Content-Security-Policy" content="${policy}">`);
  const body = Buffer.from(html, 'utf8');
  res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A file of the renderer directory (see electron/engine/static-files.ts for what is refused). */
async function serveFile(rendererDir: string, req: IncomingMessage, res: ServerResponse, url: URL, headers: OutgoingHttpHeaders): Promise<void> {
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

/** The headers of every response: the bridge's CSP and no framing, sniffing, referrers or caching. */
export function baseHeaders(port: number): OutgoingHttpHeaders {
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

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
