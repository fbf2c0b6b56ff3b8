/**
 * How the page shows the bridge who it is. `tempora serve` prints http://127.0.0.1:PORT/?token=T;
 * the bridge answers that address with a redirect to `/` and an HttpOnly session cookie
 * (electron/server/bridge-credentials.ts), which the browser sends with the page, its assets and
 * the WebSocket handshake. So the page itself holds no secret: a page the bridge served already
 * has the cookie, and the socket needs no token in its address. A reload keeps working (the
 * cookie lasts as long as the browser session); after a restart of `tempora serve` the old cookie
 * is refused (close code 4401) and the page says to open the printed address again.
 */
import { API_PATH } from '../../../shared/bridge-protocol';

/** Where older pages kept a copy of the token; cleared so that no copy lingers. */
const OLD_KEY = 'tempora.bridgeToken';

/**
 * The token for the socket's address: the one in the page's own address when there is one (the
 * bridge never serves the page so, but a hand-made address may), else '' (the cookie carries it).
 * Never null in a page the bridge served.
 */
export function takeBridgeToken(): string | null {
  try {
    window.sessionStorage.removeItem(OLD_KEY);
  } catch {
    // storage can be disabled; there is nothing to clear then
  }
  return new URL(window.location.href).searchParams.get('token') ?? '';
}

/** ws://host/api on the page's own host and port (API_PATH of shared/bridge-protocol.ts), `?token=T` only when given one. */
export function bridgeSocketUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${scheme}://${window.location.host}${API_PATH}${query}`;
}
