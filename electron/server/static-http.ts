/**
 * The bridge's HTTP side: the page (index.html, its CSP meta tag rewritten for this bridge) and the
 * renderer's static files, to requests that name the bridge itself, come from its own page and show
 * its credential (bridge-credentials.ts). Every response carries the bridge's strict headers, and
 * every refusal says why in words.
 *
 * In order: Host (421), Origin and Sec-Fetch-Site (403), method (405), the request target read
 * once by request-target.ts (400), the credential (401): the printed `/?token=T` is answered 303 to
 * `/` with the session cookie; every other path (page, assets, /api) needs the cookie or the
 * token. Then the page, the API's 426, or a file strictly inside the renderer directory (404).
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { API_PATH } from '../../shared/bridge-protocol';
import { bridgeCsp, metaCsp } from '../../shared/csp';
import { serveableFile } from '../engine/static-files';
import { presentedCredential, sessionCookie, type BridgeCredentials } from './bridge-credentials';
import { isAllowedHost, isOwnRequest } from './bridge-security';
import { encodePath, readRequestTarget } from './request-target';
import { streamFile } from './static-file-stream';

export interface StaticHttpOptions {
  /** The built renderer, with index.html. */
  rendererDir: string;
  indexFile: string;
  credentials: BridgeCredentials;
  log: (message: string) => void;
}

const CSP_META = /<meta\s+http-equiv=["']Content-Security-Policy["'][^>]*>/gi;
const PAGE_PATHS: ReadonlySet<string> = new Set(['/', '/index.html']);

export const UNAUTHORIZED = 'Unauthorized: open the address that `tempora serve` printed; it carries the access token.\n';

/** The server's 'request' listener; a failure is logged and answered 500, never thrown. */
export function createRequestListener(options: StaticHttpOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    res.on('error', () => undefined); // a client gone mid-answer is not the server's problem
    handleRequest(options, req, res).catch((error: unknown) => {
      options.log(`bridge: ${req.method} ${req.url}: ${(error as Error).message}`);
      if (!res.headersSent) sendText(res, 500, 'Internal error\n', baseHeaders(options.credentials.port));
      else res.destroy();
    });
  };
}

async function handleRequest(options: StaticHttpOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { credentials } = options;
  const { port } = credentials;
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
    sendText(res, 405, 'Method not allowed: only GET and HEAD.\n', { ...headers, Allow: 'GET, HEAD' });
    return;
  }
  const target = readRequestTarget(req.url);
  if (!target.ok) {
    sendText(res, target.status, `${target.message}\n`, headers);
    return;
  }
  const presented = presentedCredential(target.query, req.headers.cookie, credentials);
  if (presented === 'wrong-token' || presented === 'none') {
    sendText(res, 401, UNAUTHORIZED, headers);
    return;
  }
  if (PAGE_PATHS.has(target.path)) {
    if (presented === 'token') {
      // The one exchange: the token leaves the address bar, the cookie carries the session.
      sendText(res, 303, 'See Other: /\n', { ...headers, Location: '/', 'Set-Cookie': sessionCookie(credentials) });
      return;
    }
    await servePage(options, res, headers);
    return;
  }
  if (target.path === API_PATH) {
    sendText(res, 426, 'Upgrade required: the API is a WebSocket.\n', { ...headers, Upgrade: 'websocket', Connection: 'Upgrade' });
    return;
  }
  await serveFile(options.rendererDir, res, target.path, headers);
}

/** index.html, its CSP meta tag set to this bridge's policy. */
async function servePage(options: StaticHttpOptions, res: ServerResponse, headers: OutgoingHttpHeaders): Promise<void> {
  const policy = escapeAttribute(metaCsp(bridgeCsp(options.credentials.port)));
  const html = (await readFile(options.indexFile, 'utf8')).replace(CSP_META, () => `<meta http-equiv="Content-Security-Policy" content="${policy}">`);
  const body = Buffer.from(html, 'utf8');
  res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/**
 * A file of the renderer directory: `path` is already decoded and normalised; serveableFile()
 * (electron/engine/static-files.ts) decodes once itself, so it is given the path re-encoded, and
 * confines it to the directory (links included) and to the renderer's kinds of file. Hidden
 * names (a segment starting with a dot) are never served.
 */
async function serveFile(rendererDir: string, res: ServerResponse, path: string, headers: OutgoingHttpHeaders): Promise<void> {
  const hidden = path.split('/').some((segment) => segment.startsWith('.'));
  const found = hidden ? null : await serveableFile(rendererDir, encodePath(path));
  if (found && (await streamFile(res, found.file, found.type, headers)) === 'sent') return;
  sendText(res, 404, 'Not found.\n', headers);
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
  if (res.destroyed) return;
  const body = Buffer.from(text, 'utf8');
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
