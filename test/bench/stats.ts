/** Timing and formatting helpers for the benchmark. */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** CPU time (user + system, all threads) of this process, in ms. */
export function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Wall time and CPU time of `run`. On a busy machine wall time includes waiting for a core; CPU
 * time does not (it does include SQLite's work, which runs on this thread), so it estimates what
 * an idle machine would show.
 */
export function time<T>(run: () => T): { value: T; ms: number; cpuMs: number } {
  const c0 = cpuNow();
  const t0 = performance.now();
  const value = run();
  return { value, ms: performance.now() - t0, cpuMs: cpuNow() - c0 };
}

export interface Latency {
  runs: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile of already sorted samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function summarize(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    runs: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
  };
}

export interface Samples {
  wall: number[];
  cpu: number[];
}

/** Runs `warmup` untimed calls, then `runs` timed ones (each call gets its run index); wall and CPU samples. */
export function sample(runs: number, warmup: number, call: (index: number) => unknown, into: Samples = { wall: [], cpu: [] }): Samples {
  for (let i = 0; i < warmup; i++) call(i);
  for (let i = 0; i < runs; i++) {
    const c0 = cpuNow();
    const t0 = performance.now();
    call(warmup + i);
    into.wall.push(performance.now() - t0);
    into.cpu.push(cpuNow() - c0);
  }
  return into;
}

export function measure(runs: number, warmup: number, call: (index: number) => unknown): { wall: Latency; cpu: Latency } {
  const s = sample(runs, warmup, call);
  return { wall: summarize(s.wall), cpu: summarize(s.cpu) };
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  if (value < 1) return `${value.toFixed(3)} ms`;
  if (value < 100) return `${value.toFixed(2)} ms`;
  if (value < 10_000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(1)} s`;
}

export function rate(count: number, elapsedMs: number): number {
  return elapsedMs > 0 ? (count * 1000) / elapsedMs : Number.POSITIVE_INFINITY;
}

export function perSecond(value: number): string {
  return `${Math.round(value).toLocaleString('en-US')}/s`;
}

export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Left-aligned label column, right-aligned values. */
export function table(rows: (string | number)[][], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, String(cell).length)));
  return rows
    .map((row) =>
      indent +
      row
        .map((cell, i) => (i === 0 || typeof cell === 'string' && i === row.length - 1 ? String(cell).padEnd(widths[i]!) : String(cell).padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/**
 * This process's peak resident memory. On Linux VmHWM, the high-water mark of this program's own
 * address space: getrusage's maxRSS (`process.resourceUsage().maxRSS`) keeps the high-water mark
 * of the image this process was forked from, so a child started by a large parent (the 1M bench,
 * holding its generated document) reported the parent's size (2.4 GB) as its own.
 */
export function peakResidentBytes(): number {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb !== undefined) return Number(kb) * 1024;
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS * 1024;
}

/**
 * The environment of a bench's child process that runs as the app does: without the bench's own
 * NODE_OPTIONS (a 1M bench raises the heap limit to hold its generated document), LanceDB quiet.
 */
export function childEnv(): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _benchOnly, ...env } = process.env;
  return { ...env, LANCEDB_LOG: 'error' };
}
