/**
 * Works through the persisted ingestion queue, one job at a time, off the chat's hot path.
 * Without a model the jobs simply wait. A failing job is retried, then parked with its error.
 * `stop()` lets the job in flight finish (or, past a deadline, aborts it and returns it to the
 * queue untouched), so quitting never loses a message.
 */
import type { StructuredModel } from '../../llm/ports';
import { isBusyError, type JobRow, type JobUsage, type Memory, type QueueCounts, type SlotChanges } from '../../memory/index';
import { prepareIngest } from './ingest-message';

export type IngestionEvent =
  | { type: 'job-started'; job: JobRow; counts: QueueCounts }
  | { type: 'job-done'; job: JobRow; usage: JobUsage; changes: SlotChanges; counts: QueueCounts }
  | { type: 'job-failed'; job: JobRow; error: string; parked: boolean; counts: QueueCounts }
  | { type: 'idle'; counts: QueueCounts };

export interface IngestionWorkerOptions {
  /** The model to extract with, or null while none is loaded (jobs then wait). */
  model: () => StructuredModel | null;
  timeoutMs?: number;
  onEvent?: (event: IngestionEvent) => void;
  /** The user's zone now (the engine's), for messages that carry none; default $TEMPORA_TZ or the system's. */
  timeZone?: () => string;
}

/** How long the worker rests before asking for its next job again after another process held the memory's write lock too long. */
const BUSY_RETRY_MS = 500;

export class IngestionWorker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private inFlight: AbortController | null = null;
  private idleWaiters: (() => void)[] = [];
  /** The next job, claimed by the commit that completed the last one (one commit per learned message). */
  private claimedAhead: JobRow | undefined;

  constructor(
    private readonly memory: Memory,
    private readonly options: IngestionWorkerOptions,
  ) {}

  /** Recovers jobs interrupted by a crash and starts working. */
  start(): void {
    if (this.running) return;
    this.memory.jobs.recoverInterrupted();
    this.running = true;
    this.loop = this.run();
  }

  /** Tell the worker there may be new work (a message arrived, a model was loaded). */
  notify(): void {
    this.wake?.();
  }

  /** Resolves when no job is pending or running (or when no model is available to run them). */
  whenIdle(): Promise<void> {
    const counts = this.memory.jobs.counts();
    // claimable(): a paused backfill's jobs are pending but wait, so they do not keep the worker busy.
    if ((this.memory.jobs.claimable() === 0 && counts.running === 0) || !this.options.model()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops after the job in flight; after `graceMs` that job is aborted and returned to the queue. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    const timer = setTimeout(() => this.inFlight?.abort(new Error('shutting down')), graceMs);
    try {
      await this.loop;
    } finally {
      clearTimeout(timer);
    }
  }

  private async run(): Promise<void> {
    try {
      while (this.running) {
        const model = this.options.model();
        if (!model) this.releaseAhead();
        let job: JobRow | undefined;
        try {
          job = model ? (this.takeAhead() ?? this.memory.jobs.claimNext()) : undefined;
        } catch (error) {
          // Another process held the write lock past the busy timeout (a long `tempora import`):
          // the job stays pending, and the worker asks again shortly instead of ending its loop.
          if (!isBusyError(error)) throw error;
          await this.rest(BUSY_RETRY_MS);
          continue;
        }
        if (!model || !job) {
          this.settleIdle();
          await new Promise<void>((resolve) => (this.wake = resolve));
          this.wake = null;
          continue;
        }
        await this.process(job, model);
      }
    } finally {
      // Stopped (or the model went away) with a job claimed ahead: it goes back, no attempt counted.
      this.releaseAhead();
    }
  }

  /** Waits `ms`, or less if the worker is told of new work or stopped meanwhile. */
  private async rest(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => (clearTimeout(timer), resolve());
    });
    this.wake = null;
  }

  private takeAhead(): JobRow | undefined {
    const job = this.claimedAhead;
    this.claimedAhead = undefined;
    return job;
  }

  private releaseAhead(): void {
    const job = this.takeAhead();
    if (job) this.memory.jobs.release(job.id);
  }

  private async process(job: JobRow, model: StructuredModel): Promise<void> {
    const emit = this.options.onEvent ?? (() => {});
    emit({ type: 'job-started', job, counts: this.memory.jobs.counts() });
    const episode = this.memory.episodes.byId(job.episode_id);
    if (!episode) {
      this.memory.jobs.fail(job.id, 'episode no longer exists', { modelCalls: 0, promptTokens: 0, completionTokens: 0 });
      return;
    }
    const controller = new AbortController();
    this.inFlight = controller;
    // Filled call by call: when a later call fails, the calls already made still count for the job.
    const usage: JobUsage = { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
    try {
      const prepared = await prepareIngest(this.memory, model, episode, { timeoutMs: this.options.timeoutMs, signal: controller.signal, usage, timeZone: this.options.timeZone?.() });
      // While running, the same commit claims the next job; when stopping, none is taken.
      const { changes, next } = this.running ? this.memory.messages.applyIngestionAndClaimNext(job.id, prepared.learning, prepared.usage) : { changes: this.memory.messages.applyIngestion(job.id, prepared.learning, prepared.usage), next: undefined };
      this.claimedAhead = next;
      emit({ type: 'job-done', job, usage, changes, counts: this.memory.jobs.counts() });
    } catch (error) {
      if (controller.signal.aborted && !this.running) {
        this.memory.jobs.release(job.id);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const status = this.memory.jobs.fail(job.id, message, usage);
      emit({ type: 'job-failed', job, error: message, parked: status === 'parked', counts: this.memory.jobs.counts() });
    } finally {
      this.inFlight = null;
    }
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
    this.options.onEvent?.({ type: 'idle', counts: this.memory.jobs.counts() });
  }
}
