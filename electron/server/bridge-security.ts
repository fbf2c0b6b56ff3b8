/**
 * Who may talk to the bridge. Pure functions, unit-testable:
 * - Host must name the bridge itself (127.0.0.1:PORT or localhost:PORT): a page on another name
 *   that resolves to 127.0.0.1 (DNS rebinding) sends its own name as Host and gets nothing.
 * - Origin, where a browser sends one, must be the bridge's own page.
 * - The token is a random secret per start, compared in constant time (bridge-credentials.ts
 *   exchanges it for the session cookie).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const BRIDGE_HOST = '127.0.0.1';

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((host) => `http://${host}`);
}

/** True when the Host header is exactly the bridge's own address (the port is required). */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (typeof host !== 'string') return false;
  return allowedHosts(port).includes(host.trim().toLowerCase());
}

export function isAllowedOrigin(origin: string | undefined, port: number): boolean {
  if (typeof origin !== 'string') return false;
  return allowedOrigins(port).includes(origin.trim().toLowerCase());
}

/** Constant-time comparison of a presented token with the expected one. */
export function tokenMatches(presented: string | null | undefined, expected: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length) {
    // Still spend the time of a comparison, so the length is all a timing can tell.
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}

/** A browser's request from this bridge's own page (or typed in), not from another site. */
export function isOwnRequest(req: Pick<IncomingMessage, 'headers'>, port: number): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && !isAllowedOrigin(origin, port)) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}
