/**
 * The connect and idle timeouts of a model download (model-download.ts). The downloader (ipull under
 * node-llama-cpp) retries a dead, silent or stalled server for many minutes without a word; here the
 * wait for the server's first answer and every gap between two bytes are bounded, and a failure is
 * said in words naming the host ("Could not reach huggingface.co — check your connection (…)").
 */
/** What the watchdog needs of a downloader (node-llama-cpp's ModelDownloader). */
export interface WatchedDownloader {
  download(options?: { signal?: AbortSignal }): Promise<unknown>;
  cancel(options?: { deleteTempFile?: boolean }): Promise<void>;
}

/** What the watchdog needs of a download's options (DownloadModelOptions). */
export interface WatchedDownload {
  uri: string;
  fileName: string;
  signal?: AbortSignal;
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** The errors the watchdog raises, made by the caller (a ModelDownloadError), so that this file imports nothing of it. */
export type DownloadFailure = (code: 'failed' | 'cancelled', message: string, cause?: unknown) => Error;

/** The host a download comes from, for messages: "huggingface.co" (an hf: URI is fetched from there). */
export function hostOf(uri: string): string {
  if (uri.startsWith('hf:')) return 'huggingface.co';
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
}

/**
 * The connect and idle timeouts of one download: the downloader (ipull) retries a dead or silent
 * server for many minutes without a word, so the wait for the server's first answer and every gap
 * between two bytes are bounded here, and fail in words ("Could not reach huggingface.co — check your connection (…)").
 */
export class Watchdog {
  private timer: NodeJS.Timeout | undefined;
  private connectTimer: NodeJS.Timeout | undefined;
  private readonly aborter = new AbortController();
  private fired: string | null = null;
  private timeoutError: Error | undefined;
  private cancelError: Error | undefined;
  private readonly connectMs: number;
  private readonly idleMs: number;
  private readonly host: string;

  constructor(
    private readonly opts: WatchedDownload,
    private readonly failure: DownloadFailure,
  ) {
    this.connectMs = opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    this.idleMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    this.host = hostOf(opts.uri);
  }

  /** Waits for the downloader (it has asked the server for the file's size) at most connectTimeoutMs; a late one is cancelled. */
  async connecting<D extends WatchedDownloader>(start: Promise<D>): Promise<D> {
    let late = false;
    start.then((d) => late && void d.cancel({ deleteTempFile: false }).catch(() => undefined), () => undefined);
    const timeout = new Promise<never>((_, reject) => {
      this.connectTimer = setTimeout(() => {
        late = true;
        reject((this.timeoutError = this.failure('failed', unreachable(this.host, `no answer within ${seconds(this.connectMs)}: offline, or the server does not respond`))));
      }, this.connectMs);
    });
    const aborted = this.abortedPromise();
    try {
      return await Promise.race([start, timeout, aborted]);
    } catch (error) {
      const network = describeNetworkError(error);
      if (error === this.timeoutError || error === this.cancelError || network === null) throw error;
      throw this.failure('failed', unreachable(this.host, network), error);
    } finally {
      clearTimeout(this.connectTimer);
    }
  }

  /** Runs the transfer; a gap of idleTimeoutMs without progress cancels it (the partial file is kept: the next pull resumes). */
  async transferring(downloader: WatchedDownloader): Promise<void> {
    this.alive();
    const signal = this.opts.signal ? AbortSignal.any([this.opts.signal, this.aborter.signal]) : this.aborter.signal;
    const stalled = new Promise<never>((_, reject) => this.aborter.signal.addEventListener('abort', () => reject(this.stallError()), { once: true }));
    try {
      await Promise.race([downloader.download({ signal }), stalled]);
    } catch (error) {
      if (this.fired !== null) {
        void downloader.cancel({ deleteTempFile: false }).catch(() => undefined);
        throw this.stallError();
      }
      throw error;
    }
  }

  /** Progress was made: the idle clock starts again. */
  alive(): void {
    clearTimeout(this.timer);
    if (this.fired !== null) return;
    this.timer = setTimeout(() => {
      this.fired = `no data for ${seconds(this.idleMs)}`;
      this.aborter.abort();
    }, this.idleMs);
  }

  stop(): void {
    clearTimeout(this.timer);
    clearTimeout(this.connectTimer);
  }

  private stallError(): Error {
    return this.failure('failed', `the download from ${this.host} stalled: ${this.fired ?? 'no data'} (the partial file is kept: pull again to resume)`);
  }

  private abortedPromise(): Promise<never> {
    return new Promise<never>((_, reject) => {
      const signal = this.opts.signal;
      if (!signal) return;
      const cancel = () => reject((this.cancelError = this.failure('cancelled', `Download of ${this.opts.fileName} was cancelled`)));
      // Aborted already (before the watchdog began): 'abort' will not fire again.
      if (signal.aborted) return cancel();
      signal.addEventListener('abort', cancel, { once: true });
    });
  }
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** "Could not reach huggingface.co — check your connection (the name does not resolve)". */
export function unreachable(host: string, network: string): string {
  return `Could not reach ${host} — check your connection (${network})`;
}

/**
 * "ENOTFOUND huggingface.co" and friends, in words, looking through the error's causes (fetch says
 * only "fetch failed" and keeps the reason in `cause`); null when the error is not about the network.
 */
export function describeNetworkError(error: unknown): string | null {
  let current = error as { code?: string; message?: string; cause?: unknown } | undefined;
  let fetchFailed = false;
  for (let depth = 0; current && depth < 6; depth++, current = current.cause as typeof current) {
    const words = networkWords(current.code);
    if (words) return words;
    if (current.message === 'fetch failed') fetchFailed = true;
  }
  return fetchFailed ? 'the request failed before the server answered (offline?)' : null;
}

function networkWords(code: string | undefined): string | null {
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the name does not resolve (offline?)';
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ECONNRESET':
      return 'the connection was reset';
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out';
    case 'ENETUNREACH':
    case 'EHOSTUNREACH':
      return 'the network is unreachable (offline?)';
    default:
      return null;
  }
}
