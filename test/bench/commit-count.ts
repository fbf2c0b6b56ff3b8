/**
 * Counts the commits a piece of work makes, and the time inside each, without touching the engine:
 * wraps Statement.prototype.run (better-sqlite3 commits a transaction function by running its own
 * prepared `COMMIT`) and counts, besides, every writing statement run outside a transaction (an
 * autocommit); a transaction that changed no row is not counted. Each commit is named by where it comes from: the first frame of its stack under
 * electron/ outside the write plumbing (memory-kernel.ts write(), the store's transaction helpers).
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
  database: Database.Database;
}

const sites = new Map<string, CommitSite>();
/** Rows changed on each connection when its transaction began: a transaction that wrote none commits nothing. */
const changesAtBegin = new WeakMap<Database.Database, number>();
/** Prepared once per connection: preparing it at every BEGIN and COMMIT would add to what is measured. */
const totalChangesStatements = new WeakMap<Database.Database, Database.Statement>();
function totalChangesOf(db: Database.Database): number {
  let statement = totalChangesStatements.get(db);
  if (!statement) totalChangesStatements.set(db, (statement = db.prepare('SELECT total_changes()').pluck()));
  return statement.get() as number;
}
let active = false;
let installed = false;

const CONTROL = /^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
/** Frames that only pass a write along; the commit is named by the caller above them. */
const PLUMBING = /memory-kernel\.ts|statement-cache\.ts|node_modules|commit-count\.ts|node:/;

function siteOf(kind: string): string {
  const frames: { fn: string; file: string }[] = [];
  for (const line of new Error().stack?.split('\n').slice(1) ?? []) {
    const m = /at (?:(\S+) \()?.*?\/(electron\/[^:)]+):(\d+)/.exec(line);
    if (!m || PLUMBING.test(line)) continue;
    frames.push({ fn: m[1]?.replace(/^(Object|Memory\w*|IngestionJobs)\./, '') ?? '(anonymous)', file: m[2]!.replace(/^electron\//, '') });
  }
  const [first] = frames;
  if (!first) return `${kind} (outside electron/)`;
  // The memory's own helpers say little alone: the first caller above the memory says who asked.
  const caller = first.file.startsWith('memory/') ? frames.find((f) => !f.file.startsWith('memory/')) : undefined;
  return `${kind} ${first.fn} (${first.file})${caller ? ` ← ${caller.fn} (${caller.file})` : ''}`;
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
    if (/^BEGIN\b/.test(stmt.source)) changesAtBegin.set(stmt.database, totalChangesOf(stmt.database));
    // A transaction that only read (a claim that found no job) writes nothing to the WAL: not counted.
    const commit = stmt.source === 'COMMIT' && totalChangesOf(stmt.database) !== changesAtBegin.get(stmt.database);
    const autocommit = !commit && !stmt.reader && !stmt.database.inTransaction && !CONTROL.test(stmt.source);
    if (!commit && !autocommit) return run.apply(this, args);
    const t0 = performance.now();
    const result = run.apply(this, args) as { changes: number };
    // An autocommit that changed no row (nothing to recover) writes nothing either.
    if (commit || result.changes > 0) record(commit ? 'transaction' : 'autocommit', performance.now() - t0);
    return result;
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
