/**
 * Statement-level profile of better-sqlite3, without touching the engine: wraps
 * Database.prototype.prepare/exec and Statement.prototype.run/get/all/iterate, and adds up calls and
 * wall time per SQL text (time spent in triggers counts toward the statement that fired them).
 * Only for `--profile`: the wrappers cost about a microsecond per call.
 */
import Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';

interface Entry {
  sql: string;
  prepares: number;
  prepareMs: number;
  calls: number;
  ms: number;
}

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;

const entries = new Map<string, Entry>();
let active = false;
let installed = false;

function entryOf(sql: string): Entry {
  const key = sql.replace(/\s+/g, ' ').trim();
  let entry = entries.get(key);
  if (!entry) {
    entry = { sql: key, prepares: 0, prepareMs: 0, calls: 0, ms: 0 };
    entries.set(key, entry);
  }
  return entry;
}

function install(): void {
  if (installed) return;
  installed = true;
  const dbProto = Database.prototype as unknown as Record<string, AnyFn>;
  const prepare = dbProto.prepare!;
  dbProto.prepare = function (this: unknown, ...args: unknown[]) {
    if (!active) return prepare.apply(this, args);
    const t0 = performance.now();
    try {
      return prepare.apply(this, args);
    } finally {
      const entry = entryOf(String(args[0]));
      entry.prepares++;
      entry.prepareMs += performance.now() - t0;
    }
  };
  const exec = dbProto.exec!;
  dbProto.exec = function (this: unknown, ...args: unknown[]) {
    if (!active) return exec.apply(this, args);
    const t0 = performance.now();
    try {
      return exec.apply(this, args);
    } finally {
      const entry = entryOf(`[exec] ${String(args[0]).slice(0, 200)}`);
      entry.calls++;
      entry.ms += performance.now() - t0;
    }
  };
  const probe = new Database(':memory:');
  const stmtProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, AnyFn>;
  probe.close();
  for (const method of ['run', 'get', 'all', 'iterate'] as const) {
    const original = stmtProto[method]!;
    stmtProto[method] = function (this: unknown, ...args: unknown[]) {
      if (!active) return original.apply(this, args);
      const t0 = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        const entry = entryOf((this as { source: string }).source);
        entry.calls++;
        entry.ms += performance.now() - t0;
      }
    };
  }
}

export function startSqlProfile(): void {
  install();
  entries.clear();
  active = true;
}

export function stopSqlProfile(): Entry[] {
  active = false;
  return [...entries.values()];
}

/** The statements that took the most time (execution + preparation), with their share of `totalMs`. */
export function formatSqlProfile(list: Entry[], totalMs: number, top = 12): string {
  const sorted = [...list].sort((a, b) => b.ms + b.prepareMs - (a.ms + a.prepareMs));
  const sqlMs = list.reduce((a, e) => a + e.ms + e.prepareMs, 0);
  const prepareMs = list.reduce((a, e) => a + e.prepareMs, 0);
  const prepares = list.reduce((a, e) => a + e.prepares, 0);
  const lines = [
    `    SQL total ${sqlMs.toFixed(0)} ms of ${totalMs.toFixed(0)} ms wall (${((100 * sqlMs) / totalMs).toFixed(0)}%); ` +
      `db.prepare() called ${prepares.toLocaleString('en-US')} times, ${prepareMs.toFixed(0)} ms; the rest is JavaScript (validation, resolution, object building)`,
  ];
  for (const e of sorted.slice(0, top)) {
    const share = ((100 * (e.ms + e.prepareMs)) / totalMs).toFixed(1).padStart(5);
    const perCall = e.calls ? `${((1000 * e.ms) / e.calls).toFixed(1)} µs/call` : '';
    const prep = e.prepares ? ` + prepare ×${e.prepares.toLocaleString('en-US')} ${e.prepareMs.toFixed(0)} ms` : '';
    lines.push(`    ${share}%  ${e.ms.toFixed(0).padStart(6)} ms  ×${e.calls.toLocaleString('en-US').padEnd(9)} ${perCall.padEnd(16)}${prep}`);
    lines.push(`             ${e.sql.length > 150 ? `${e.sql.slice(0, 147)}...` : e.sql}`);
  }
  return lines.join('\n');
}
