/** The state of the link between this page and the Tempora core, whichever transport carries it. */
export type ConnectionState =
  | { kind: 'connecting'; attempt: number }
  | { kind: 'open'; epoch: number }
  | { kind: 'closed'; attempt: number; retryAt: number; reason: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'no-token' };

/** A tiny observable of the connection state (for useSyncExternalStore). */
export interface ConnectionSource {
  get(): ConnectionState;
  subscribe(listener: () => void): () => void;
}

/** A source that never changes: Electron IPC is up as long as the window exists. */
export function alwaysOpen(): ConnectionSource {
  const state: ConnectionState = { kind: 'open', epoch: 1 };
  return { get: () => state, subscribe: () => () => undefined };
}
