/**
 * The loopback-bridge transport: one WebSocket to `tempora serve`, calls matched to results by id,
 * events pushed by the server, reconnection with backoff. Calls made while disconnected wait for
 * the next connection (up to WAIT_FOR_CONNECTION_MS); calls in flight when the socket drops fail,
 * because the server may or may not have run them. The messages are those of
 * shared/bridge-protocol.ts, checked with its schemas; every failure is an ApiError: the server's
 * with its code and field, this side's own `disconnected` (or `invalid_request` for a request too
 * large to send).
 */
import type { ApiCallName, ApiEventEnvelope, ApiRequest, ApiResponse } from '../../../shared/api-contract';
import { ApiError, errorFromFailure } from '../../../shared/api-error';
import { MAX_MESSAGE_BYTES, REFUSED_CLOSE_CODES, parseServerMessage, type CallMessage } from '../../../shared/bridge-protocol';
import { formatBytes } from '../../../shared/format-bytes';
import type { ConnectionSource, ConnectionState } from './connection';

const WAIT_FOR_CONNECTION_MS = 20_000;
const FIRST_RETRY_MS = 300;
const MAX_RETRY_MS = 8_000;

interface Pending {
  resolve(value: unknown): void;
  reject(error: ApiError): void;
}

interface Waiting {
  id: number;
  /** The encoded call message. */
  text: string;
  pending: Pending;
  timer: ReturnType<typeof setTimeout>;
}

export class BridgeClient implements ConnectionSource {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private epoch = 0;
  private attempt = 0;
  private disposed = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private state: ConnectionState;
  private readonly inFlight = new Map<number, Pending>();
  private readonly waiting: Waiting[] = [];
  private readonly eventListeners = new Set<(event: ApiEventEnvelope) => void>();
  private readonly stateListeners = new Set<() => void>();

  constructor(private readonly url: string | null) {
    this.state = url === null ? { kind: 'no-token' } : { kind: 'connecting', attempt: 0 };
    if (url !== null) this.connect();
  }

  get(): ConnectionState {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  onEvent(listener: (event: ApiEventEnvelope) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  call<N extends ApiCallName>(name: N, request: ApiRequest<N>): Promise<ApiResponse<N>> {
    return new Promise<unknown>((resolve, reject) => {
      if (this.disposed) {
        reject(new ApiError('disconnected', 'The connection to Tempora was closed.'));
        return;
      }
      if (this.state.kind === 'no-token' || this.state.kind === 'refused') {
        reject(new ApiError('disconnected', this.state.kind === 'refused' ? this.state.reason : 'Not connected: open the address that `tempora serve` printed (it carries the access token).'));
        return;
      }
      const message: CallMessage = { type: 'call', id: this.nextId++, name, request: request ?? {} };
      const text = JSON.stringify(message);
      // (A UTF-16 unit is at most 3 bytes of UTF-8: most messages need no counting.)
      const bytes = text.length * 3 > MAX_MESSAGE_BYTES ? utf8Length(text) : 0;
      if (bytes > MAX_MESSAGE_BYTES) {
        // The server would close the connection (and fail every call on it) rather than read it.
        reject(new ApiError('invalid_request', `${name}: the request is too large to send (${formatBytes(bytes)}; the bridge takes at most ${formatBytes(MAX_MESSAGE_BYTES)})`));
        return;
      }
      const pending: Pending = { resolve, reject };
      if (this.socket?.readyState === WebSocket.OPEN) this.send(message.id, text, pending);
      else {
        const timer = setTimeout(() => {
          const index = this.waiting.findIndex((w) => w.id === message.id);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(new ApiError('disconnected', 'Not connected to Tempora: the call could not be sent. Is `tempora serve` still running?'));
        }, WAIT_FOR_CONNECTION_MS);
        this.waiting.push({ id: message.id, text, pending, timer });
      }
    }) as Promise<ApiResponse<N>>;
  }

  /** Closes the connection for good: no reconnection; calls waiting or in flight fail. */
  dispose(): void {
    this.disposed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.failInFlight();
    for (const waiting of this.waiting.splice(0)) {
      clearTimeout(waiting.timer);
      waiting.pending.reject(new ApiError('disconnected', 'The connection to Tempora was closed.'));
    }
  }

  /** Reconnects now instead of waiting for the backoff timer. */
  retryNow(): void {
    if (this.state.kind !== 'closed') return;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.connect();
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    for (const listener of this.stateListeners) listener();
  }

  private send(id: number, text: string, pending: Pending): void {
    this.inFlight.set(id, pending);
    this.socket?.send(text);
  }

  private connect(): void {
    if (this.url === null || this.disposed) return;
    this.setState({ kind: 'connecting', attempt: this.attempt });
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch (error) {
      this.scheduleRetry(error instanceof Error ? error.message : String(error));
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.epoch += 1;
      this.setState({ kind: 'open', epoch: this.epoch });
      for (const waiting of this.waiting.splice(0)) {
        clearTimeout(waiting.timer);
        this.send(waiting.id, waiting.text, waiting.pending);
      }
    };
    socket.onmessage = (event: MessageEvent) => this.receive(event.data);
    socket.onclose = (event: { code: number; reason: string }) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failInFlight();
      if (REFUSED_CLOSE_CODES.has(event.code)) {
        const why = event.reason ? ` (${event.reason})` : '';
        this.setState({ kind: 'refused', reason: `Tempora refused this page${why}. Open the address that \`tempora serve\` printed again.` });
        return;
      }
      this.scheduleRetry(event.reason || (event.code === 1006 ? 'the connection was lost' : `closed (${event.code})`));
    };
  }

  private receive(data: unknown): void {
    const parsed = parseServerMessage(data);
    if (!parsed.ok) {
      // A frame this page cannot read: fail the call it names, if any, rather than let it wait forever.
      const pending = parsed.id === null ? undefined : this.inFlight.get(parsed.id);
      if (pending && parsed.id !== null) {
        this.inFlight.delete(parsed.id);
        pending.reject(new ApiError('internal', `Tempora sent an answer this page cannot read (${parsed.error})`));
      }
      return;
    }
    const message = parsed.message;
    if (message.type === 'event') {
      for (const listener of this.eventListeners) {
        try {
          listener(message.event);
        } catch (error) {
          console.error('event listener failed', error);
        }
      }
      return;
    }
    if (message.id === null) return; // the answer to a frame the server could not read: not a call of ours
    const pending = this.inFlight.get(message.id);
    if (!pending) return;
    this.inFlight.delete(message.id);
    if (message.ok) pending.resolve(message.value);
    else pending.reject(errorFromFailure(message));
  }

  private failInFlight(): void {
    const lost = [...this.inFlight.values()];
    this.inFlight.clear();
    for (const pending of lost) pending.reject(new ApiError('disconnected', 'The connection to Tempora was lost before the answer came. Try again.'));
  }

  private scheduleRetry(reason: string): void {
    this.attempt += 1;
    const base = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (this.attempt - 1));
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.setState({ kind: 'closed', attempt: this.attempt, retryAt: Date.now() + delay, reason });
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
