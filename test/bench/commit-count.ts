/**
 * Counts the commits a piece of work makes, and the time inside each, without touching the engine:
 * wraps Statement.prototype.run (better-sqlite3 commits a transaction function by running its own
 * prepared `COMMIT`) and counts, besides, every writing statement run outside a transaction (an
 * autocommit). Each commit is named by where it comes from: the first frame of its stack under
 * electron/ outside the write plumbing (memory-core.ts write(), the store's transaction helpers).
 * Only while counting: the wrapper costs a stack trace per commit.
 */
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';

export interface CommitSite {
  site: string;
  commits: number;
  /** Time inside the COMMIT statement itself (for an autocommit, the whole statement). */
  ms: number;
  /** The longest one. */
  maxMs: number;
}

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;
interface StatementLike {
  source: string;
  reader: boolean;
  database: { inTransaction: boolean };
}

const sites = new Map<string, CommitSite>();
let active = false;
let installed = false;

const CONTROL = /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
/** Frames that only pass a write along; the commit is named by the caller above them. */
const PLUMBING = /memory-core\.ts|statement-cache\.ts|node_modules|commit-count\.ts|node:/;

function siteOf(kind: string): string {
  const stack = new Error().stack?.split('\n').slice(1) ?? [];
  for (const line of stack) {
    const m = /at (?:(\S+) \()?.*?\/(electron\/[^:)]+):(\d+)/.exec(line);
    if (!m || PLUMBING.test(line)) continue;
    const fn = m[1]?.replace(/^(Object|Memory\w*|IngestionJobs)\./, '') ?? '(anonymous)';
    return `${kind} ${fn} (${m[2]!.replace(/^electron\//, '')})`;
  }
  return `${kind} (outside electron/)`;
}

function record(kind: string, ms: number): void {
  const key = siteOf(kind);
  const entry = sites.get(key) ?? { site: key, commits: 0, ms: 0, maxMs: 0 };
  entry.commits++;
  entry.ms += ms;
  entry.maxMs = Math.max(entry.maxMs, ms);
  sites.set(key, entry);
}

function install(): void {
  if (installed) return;
  installed = true;
  const probe = new Database(':memory:');
  const stmtProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, AnyFn>;
  probe.close();
  const run = stmtProto.run!;
  stmtProto.run = function (this: unknown, ...args: unknown[]) {
    if (!active) return run.apply(this, args);
    const stmt = this as StatementLike;
    const commit = stmt.source === 'COMMIT';
    const autocommit = !commit && !stmt.reader && !stmt.database.inTransaction && !CONTROL.test(stmt.source);
    if (!commit && !autocommit) return run.apply(this, args);
    const t0 = performance.now();
    try {
      return run.apply(this, args);
    } finally {
      record(commit ? 'transaction' : 'autocommit', performance.now() - t0);
    }
  };
}

export function startCommitCount(): void {
  install();
  sites.clear();
  active = true;
}

/** Stops counting; the sites, most commits first. */
export function stopCommitCount(): CommitSite[] {
  active = false;
  return [...sites.values()].sort((a, b) => b.commits - a.commits);
}

export function totalCommits(list: readonly CommitSite[]): { commits: number; ms: number } {
  return list.reduce((t, s) => ({ commits: t.commits + s.commits, ms: t.ms + s.ms }), { commits: 0, ms: 0 });
}
