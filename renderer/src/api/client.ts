/**
 * The renderer's one client interface (TemporaApi) and its two transports: Electron IPC through the
 * preload's `window.tempora` (ipc-client.ts), or, in a browser, the loopback bridge's WebSocket
 * (bridge-client.ts). Either way a failed call rejects with an ApiError that has `code` and, where
 * there is one, `field` (errors.ts).
 */
// First, before any schema is built: the page's CSP forbids eval (see the file).
import '../../../shared/zod-no-eval';
import type { TemporaApi } from '../../../shared/api-contract';
import { apiFromCall } from './api-from-call';
import { BridgeClient } from './bridge-client';
import { bridgeSocketUrl, takeBridgeToken } from './bridge-token';
import { alwaysOpen, type ConnectionSource } from './connection';
import { ipcApi } from './ipc-client';

export { ApiError, errorField, errorMessage, isApiError, reworded, type ApiErrorCode } from './errors';

export interface Client {
  api: TemporaApi;
  connection: ConnectionSource;
  transport: 'ipc' | 'bridge';
  /** Reconnect now (bridge only). */
  retry(): void;
}

/** `window.tempora` when the Electron preload exposed it, else the bridge of the page's own host. */
export function createClient(): Client {
  // The preload's calls resolve to outcomes (TemporaIpcApi): ipc-client.ts turns them into values or ApiErrors.
  const ipc = window.tempora;
  if (ipc) return { api: ipcApi(ipc), connection: alwaysOpen(), transport: 'ipc', retry: () => undefined };
  const token = takeBridgeToken();
  const bridge = new BridgeClient(token === null ? null : bridgeSocketUrl(token));
  return { api: apiFromCall((name, request) => bridge.call(name, request), (listener) => bridge.onEvent(listener)), connection: bridge, transport: 'bridge', retry: () => bridge.retryNow() };
}
