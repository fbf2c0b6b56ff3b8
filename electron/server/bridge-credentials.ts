/**
 * What a browser shows to use the bridge. `tempora serve` prints an address with the per-start
 * token; the page exchanges it once for a session cookie (`/?token=T` answers 303 to `/` with
 * Set-Cookie), and from then on the cookie goes with every request of the page, its assets and
 * its WebSocket handshake, without the page's script ever holding it:
 *
 *   tempora_<port>=<secret>; HttpOnly; SameSite=Strict; Path=/
 *
 * - HttpOnly: no script (an injected one included) can read it.
 * - SameSite=Strict: no request started by another site carries it.
 * - Named after the port: browsers keep cookies per host, not per host and port, so two bridges
 *   on one machine (or a restart on another port) do not overwrite each other's.
 * - Its secret is random per start, not the token, and compared in constant time; a restart
 *   makes every old cookie worthless.
 *
 * Pure functions and a value object; unit-testable.
 */
import { newToken, tokenMatches } from './bridge-security';

export interface BridgeCredentials {
  port: number;
  /** The token of the printed address. */
  token: string;
  /** tempora_<port>. */
  cookieName: string;
  /** The cookie's value: random per start, independent of the token. */
  cookieSecret: string;
}

export function newCredentials(port: number): BridgeCredentials {
  return { port, token: newToken(), cookieName: `tempora_${port}`, cookieSecret: newToken() };
}

/** The Set-Cookie header that hands the session to a browser that showed the token. */
export function sessionCookie(credentials: BridgeCredentials): string {
  return `${credentials.cookieName}=${credentials.cookieSecret}; HttpOnly; SameSite=Strict; Path=/`;
}

/** True when a Cookie header carries this bridge's session cookie with the right secret. */
export function hasSessionCookie(cookieHeader: string | string[] | undefined, credentials: BridgeCredentials): boolean {
  const headers = typeof cookieHeader === 'string' ? [cookieHeader] : (cookieHeader ?? []);
  let found = false;
  for (const header of headers) {
    for (const pair of header.split(';')) {
      const at = pair.indexOf('=');
      if (at < 0 || pair.slice(0, at).trim() !== credentials.cookieName) continue;
      // Every candidate is compared (a stale cookie beside a fresh one must not hide it).
      if (tokenMatches(pair.slice(at + 1).trim(), credentials.cookieSecret)) found = true;
    }
  }
  return found;
}

export type Presented = 'token' | 'cookie' | 'wrong-token' | 'none';

/**
 * What a request shows: a token in its query (which must be right: a stale printed address is
 * told so even when a cookie is there too), else the session cookie, else nothing.
 */
export function presentedCredential(query: URLSearchParams, cookieHeader: string | string[] | undefined, credentials: BridgeCredentials): Presented {
  if (query.has('token')) return tokenMatches(query.get('token'), credentials.token) ? 'token' : 'wrong-token';
  return hasSessionCookie(cookieHeader, credentials) ? 'cookie' : 'none';
}
