/**
 * Who may touch a vector table when (vector-index.ts). Writes run one at a time on a promise chain,
 * so callers may fire and forget: a failed write rejects its own promise (never an unhandled
 * rejection) and is reported to `onError`. Reads do not wait for queued writes, but they do wait
 * for a queued reset, and a reset (like close) waits for the reads already running, since it
 * replaces (closes) the table handle they use.
 */

export function closedError(): Error {
  return new Error('the vector index is closed');
}

export class TableAccess {
  private chain: Promise<void> = Promise.resolve();
  /**
   * Resets queued or running: reads wait for `resetting` while there are any, and a reset (and
   * close) waits for the reads already running, since it replaces (closes) the table handle.
   */
  private pendingResets = 0;
  private resetting: Promise<void> = Promise.resolve();
  private activeReads = 0;
  private readsIdle: (() => void)[] = [];
  private isClosed = false;

  constructor(private readonly onError: ((error: unknown) => void) | undefined) {}

  get closed(): boolean {
    return this.isClosed;
  }

  /** Runs `op` after every write queued before it. The promise is marked handled: fire and forget is safe. */
  enqueue<T>(op: () => Promise<T>): Promise<T> {
    if (this.isClosed) return this.fail(closedError());
    const run = this.chain.then(op);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    run.catch((error: unknown) => this.report(error));
    return run;
  }

  /** A rejected promise that is already handled (reported to `onError`), for fire-and-forget callers. */
  fail<T>(error: unknown): Promise<T> {
    this.report(error);
    const p = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    p.catch(() => undefined);
    return p;
  }

  /** Tells `onError`, which may not break anything by throwing. */
  report(error: unknown): void {
    try {
      this.onError?.(error);
    } catch {
      // a failing error listener must not break the chain
    }
  }

  /** Waits until every write queued so far has finished (whether it succeeded or not). */
  flush(): Promise<void> {
    return this.chain;
  }

  /**
   * Queues `replace` (which swaps the table handle, or removes old versions' files a running read
   * may still use) as a write that first waits for the running reads; reads issued meanwhile wait for it.
   */
  exclusive(replace: () => Promise<void>): Promise<void> {
    if (this.isClosed) return this.fail(closedError());
    let done!: () => void;
    this.pendingResets++;
    this.resetting = new Promise<void>((resolve) => (done = resolve));
    const op = this.enqueue(async () => {
      await this.readsDone();
      await replace();
    });
    const settle = () => {
      this.pendingResets--;
      done();
    };
    op.then(settle, settle);
    return op;
  }

  /** Runs a read: after any queued reset, never overlapping a reset or close. */
  async read<T>(run: () => Promise<T>): Promise<T> {
    while (this.pendingResets > 0 && !this.isClosed) await this.resetting;
    if (this.isClosed) throw closedError();
    this.activeReads++; // synchronously after the checks: a reset called from now on waits for this read
    try {
      return await run();
    } finally {
      this.activeReads--;
      if (this.activeReads === 0) for (const wake of this.readsIdle.splice(0)) wake();
    }
  }

  /**
   * Refuses new writes and reads from now on, then waits for the queued writes and the running
   * reads; after it the owner closes the table. Call once (`closed` tells).
   */
  async shut(): Promise<void> {
    this.isClosed = true;
    await this.chain;
    await this.readsDone();
  }

  private readsDone(): Promise<void> {
    return this.activeReads === 0 ? Promise.resolve() : new Promise((resolve) => this.readsIdle.push(resolve));
  }
}
