/** The persisted ingestion queue: one job per episode, surviving crashes, parked after repeated failure. */
import type { Database } from 'better-sqlite3';
import type { Clock } from './clock';
import { newId } from './ids';
import { cachedStatement } from './database/statement-cache';
import type { IsoTime } from '../../../shared/time';

export type JobStatus = 'pending' | 'running' | 'done' | 'parked';

export interface JobRow {
  id: string;
  episode_id: string;
  status: JobStatus;
  attempts: number;
  last_error: string | null;
  created_at: IsoTime;
  updated_at: IsoTime;
  model_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  facts_added: number;
  facts_closed: number;
}

export interface JobUsage {
  modelCalls: number;
  promptTokens: number;
  completionTokens: number;
}

export interface QueueCounts {
  pending: number;
  running: number;
  done: number;
  parked: number;
}

/** The columns of a JobRow (the lane and sort key of 0011 are the queue's own business). */
const JOB_COLUMNS = 'id, episode_id, status, attempts, last_error, created_at, updated_at, model_calls, prompt_tokens, completion_tokens, facts_added, facts_closed';

/** Whether the backfill lane (imported messages) is paused; kept in queue_state, so it survives a restart. */
export function backfillPaused(db: Database): boolean {
  return cachedStatement<[], { value: string }>(db, "SELECT value FROM queue_state WHERE key = 'backfill_paused'").get()?.value === 'true';
}

/**
 * The lane of imported messages whose learning the user cancelled ('tempora queue cancel'): still
 * pending, in their order, but taken by nothing and counted nowhere until put back in the backfill
 * lane (1) by 'tempora queue requeue' — a cancel that can be taken back.
 */
export const CANCELLED_LANE = 2;

/** A job is parked (kept with its error, no longer retried) after this many failed attempts. */
export const MAX_ATTEMPTS = 3;

export class IngestionJobs {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /**
   * Call inside the transaction that stores the episode. `backfill`: an imported message, learned
   * after live chat (lane 1), in `sortKey` order, and only while the backfill is not paused.
   */
  enqueue(episodeId: string, backfill?: { sortKey: string }): JobRow {
    const now = this.clock.now();
    const row: JobRow = { id: newId('job'), episode_id: episodeId, status: 'pending', attempts: 0, last_error: null, created_at: now, updated_at: now, model_calls: 0, prompt_tokens: 0, completion_tokens: 0, facts_added: 0, facts_closed: 0 };
    cachedStatement(this.db, `INSERT INTO ingestion_jobs (id, episode_id, status, attempts, last_error, created_at, updated_at, model_calls, prompt_tokens, completion_tokens, facts_added, facts_closed)
        VALUES (@id, @episode_id, @status, @attempts, @last_error, @created_at, @updated_at, @model_calls, @prompt_tokens, @completion_tokens, @facts_added, @facts_closed)`)
      .run(row);
    if (backfill) cachedStatement(this.db, 'UPDATE ingestion_jobs SET lane = 1, sort_key = ? WHERE id = ?').run(backfill.sortKey, row.id);
    return row;
  }

  /** Jobs left 'running' by a crash go back to the queue. Returns how many. */
  recoverInterrupted(): number {
    return cachedStatement(this.db, "UPDATE ingestion_jobs SET status = 'pending', updated_at = ? WHERE status = 'running'").run(this.clock.now()).changes;
  }

  /**
   * Takes the next pending job and marks it running (counting the attempt): live messages first,
   * oldest first; then imported ones (lane 1) in their sort order, unless the backfill is paused.
   */
  claimNext(): JobRow | undefined {
    // IMMEDIATE, as every write: begun deferred, the read below would pin a snapshot that another
    // process's commit leaves stale, and the UPDATE would fail at once ("database is locked"),
    // ending the worker's loop. Nested in a write (learnJob) it is a savepoint of that write. With
    // nothing pending (the idle worker asking) it takes no lock, and waits for no other process.
    // (Cancelled jobs stay pending in their own lane, and a paused backfill's wait in lane 1.)
    const lanes = backfillPaused(this.db) ? 'lane = 0' : 'lane IN (0, 1)';
    if (!cachedStatement(this.db, `SELECT 1 FROM ingestion_jobs WHERE status = 'pending' AND ${lanes} LIMIT 1`).get()) return undefined;
    return this.db.transaction(() => {
      const next =
        cachedStatement<[], JobRow>(this.db, `SELECT ${JOB_COLUMNS} FROM ingestion_jobs WHERE status = 'pending' AND lane = 0 ORDER BY sort_key, created_at, id LIMIT 1`).get() ??
        (backfillPaused(this.db) ? undefined : cachedStatement<[], JobRow>(this.db, `SELECT ${JOB_COLUMNS} FROM ingestion_jobs WHERE status = 'pending' AND lane = 1 ORDER BY sort_key, created_at, id LIMIT 1`).get());
      if (!next) return undefined;
      const now = this.clock.now();
      cachedStatement(this.db, "UPDATE ingestion_jobs SET status = 'running', attempts = attempts + 1, updated_at = ? WHERE id = ?").run(now, next.id);
      return { ...next, status: 'running' as const, attempts: next.attempts + 1, updated_at: now };
    }).immediate();
  }

  /** Call inside the transaction that applies the job's result, so both land or neither. */
  complete(id: string, usage: JobUsage, facts: { added: number; closed: number }): void {
    cachedStatement(this.db, "UPDATE ingestion_jobs SET status = 'done', last_error = NULL, updated_at = ?, model_calls = model_calls + ?, prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ?, facts_added = ?, facts_closed = ? WHERE id = ?")
      .run(this.clock.now(), usage.modelCalls, usage.promptTokens, usage.completionTokens, facts.added, facts.closed, id);
  }

  /** Records a failure: back to pending, or parked after MAX_ATTEMPTS. Usage of the failed try is kept. */
  fail(id: string, error: string, usage: JobUsage): JobStatus {
    const job = this.byId(id);
    const status: JobStatus = job && job.attempts >= MAX_ATTEMPTS ? 'parked' : 'pending';
    cachedStatement(this.db, 'UPDATE ingestion_jobs SET status = ?, last_error = ?, updated_at = ?, model_calls = model_calls + ?, prompt_tokens = prompt_tokens + ?, completion_tokens = completion_tokens + ? WHERE id = ?')
      .run(status, error.slice(0, 2000), this.clock.now(), usage.modelCalls, usage.promptTokens, usage.completionTokens, id);
    return status;
  }

  /** A job interrupted by shutdown (not its fault) goes back without counting the attempt. */
  release(id: string): void {
    cachedStatement(this.db, "UPDATE ingestion_jobs SET status = 'pending', attempts = MAX(attempts - 1, 0), updated_at = ? WHERE id = ? AND status = 'running'").run(this.clock.now(), id);
  }

  /** Puts parked jobs back in the queue (after the user loaded a better model, say). */
  retryParked(): number {
    return cachedStatement(this.db, "UPDATE ingestion_jobs SET status = 'pending', attempts = 0, updated_at = ? WHERE status = 'parked'").run(this.clock.now()).changes;
  }

  byId(id: string): JobRow | undefined {
    return cachedStatement<[string], JobRow>(this.db, `SELECT ${JOB_COLUMNS} FROM ingestion_jobs WHERE id = ?`).get(id);
  }

  /** Is this job an imported message whose learning was cancelled (see CANCELLED_LANE)? */
  isCancelled(id: string): boolean {
    return cachedStatement<[string], { lane: number }>(this.db, 'SELECT lane FROM ingestion_jobs WHERE id = ?').get(id)?.lane === CANCELLED_LANE;
  }

  byEpisode(episodeId: string): JobRow | undefined {
    return cachedStatement<[string], JobRow>(this.db, `SELECT ${JOB_COLUMNS} FROM ingestion_jobs WHERE episode_id = ?`).get(episodeId);
  }

  /** Pending jobs the worker may take now (a paused backfill's wait). */
  claimable(): number {
    const lanes = backfillPaused(this.db) ? 'lane = 0' : 'lane IN (0, 1)';
    return cachedStatement<[], { n: number }>(this.db, `SELECT COUNT(*) AS n FROM ingestion_jobs WHERE status = 'pending' AND ${lanes}`).get()!.n;
  }

  counts(): QueueCounts {
    const counts: QueueCounts = { pending: 0, running: 0, done: 0, parked: 0 };
    for (const row of cachedStatement<[], { status: JobStatus; n: number }>(this.db, `SELECT status, COUNT(*) AS n FROM ingestion_jobs WHERE lane <> ${CANCELLED_LANE} GROUP BY status`).all()) counts[row.status] = row.n;
    return counts;
  }

  parked(): JobRow[] {
    return cachedStatement<[], JobRow>(this.db, `SELECT ${JOB_COLUMNS} FROM ingestion_jobs WHERE status = 'parked' ORDER BY created_at`).all();
  }

  /** Totals over done jobs, for "calls per message" reporting. */
  totals(): { jobs: number } & JobUsage & { factsAdded: number; factsClosed: number } {
    const row = cachedStatement<[], { jobs: number; calls: number; prompt: number; completion: number; added: number; closed: number }>(this.db, 
        "SELECT COUNT(*) AS jobs, TOTAL(model_calls) AS calls, TOTAL(prompt_tokens) AS prompt, TOTAL(completion_tokens) AS completion, TOTAL(facts_added) AS added, TOTAL(facts_closed) AS closed FROM ingestion_jobs WHERE status = 'done'",
      )
      .get()!;
    return { jobs: row.jobs, modelCalls: row.calls, promptTokens: row.prompt, completionTokens: row.completion, factsAdded: row.added, factsClosed: row.closed };
  }
}
