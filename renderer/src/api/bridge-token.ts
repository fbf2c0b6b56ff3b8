/**
 * The bridge's per-start token. `tempora serve` prints http://127.0.0.1:PORT/?token=T. The token
 * stays in the address: the bridge serves the page itself only with it, so a reload needs it (the
 * printed URL is in the history anyway, and the bridge sends no referrer). sessionStorage keeps a
 * copy for the socket.
 */
import { API_PATH } from '../../../shared/bridge-protocol';

const KEY = 'tempora.bridgeToken';

export function takeBridgeToken(): string | null {
  const fromUrl = new URL(window.location.href).searchParams.get('token');
  if (fromUrl) {
    try {
      window.sessionStorage.setItem(KEY, fromUrl);
    } catch {
      // storage can be disabled; the token still works for this page load
    }
    return fromUrl;
  }
  try {
    return window.sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** ws://host/api?token=T on the page's own host and port (API_PATH of shared/bridge-protocol.ts). */
export function bridgeSocketUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${API_PATH}?token=${encodeURIComponent(token)}`;
}
