/**
 * When a vector table is compacted and its old versions removed (vector-index.ts): once writes have
 * been quiet for a while, never in the middle of a burst of them. Every LanceDB write is a new
 * version that keeps the files of the one before, and a compaction rewrites every small fragment,
 * so until old versions go a table holds its rows twice or more (at 100k facts: 315 MB of 627 MB,
 * docs/benchmarks.md). Each write re-arms the timer; when it fires, the owner compacts what is due
 * (ann-index.ts) and removes every version but the current one (and those younger than a minute,
 * which another process may be reading); closing the table does what is still due. A table opened with old versions (a session that stopped without closing it, another
 * process) is cleaned up at the first quiet moment after opening, not under the first searches.
 *
 * The timer is injectable, so tests drive the quiet time instead of waiting for it.
 */

/** Arms `run` to be called after `ms` milliseconds; `cancel` disarms it. */
export type UpkeepTimer = (run: () => void, ms: number) => { cancel(): void };

/**
 * Writes quiet this long (ms) before the table is compacted and cleaned up: longer than versions
 * are kept for other processes (ann-index.ts, 60 s), so the last write's versions go too.
 */
export const DEFAULT_UPKEEP_QUIET_MS = 90_000;

/** setTimeout, not keeping the process alive for it. */
export const realTimer: UpkeepTimer = (run, ms) => {
  const handle = setTimeout(run, ms);
  handle.unref?.();
  return { cancel: () => clearTimeout(handle) };
};

export class UpkeepSchedule {
  private armed: { cancel(): void } | null = null;

  constructor(
    private readonly quietMs: number,
    private readonly timer: UpkeepTimer,
    /** Compacts and cleans up (the owner queues it on its write chain). */
    private readonly run: () => void,
  ) {}

  /** Whether an upkeep waits for the quiet time to pass. */
  get pending(): boolean {
    return this.armed !== null;
  }

  /** A write finished: the upkeep waits until there has been none for the quiet time. */
  wrote(): void {
    this.armed?.cancel();
    this.armed = this.timer(() => {
      this.armed = null;
      this.run();
    }, this.quietMs);
  }

  /** No upkeep from now on (the table closes; the next open does what was due). */
  stop(): void {
    this.armed?.cancel();
    this.armed = null;
  }
}
