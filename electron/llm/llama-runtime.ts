/**
 * The process-wide llama.cpp binding: one `getLlama` per process, created lazily and shared by every
 * model. Never compiles llama.cpp at runtime (`build: 'never'`): a missing prebuilt binary is a clear
 * error instead of a minutes-long build on the user's machine.
 *
 * Threads: option > env TEMPORA_THREADS > physical core count. node-llama-cpp's own default is
 * max(4, math cores), which oversubscribes small machines (on 2 cores generation gets ~100x slower).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { getLlama, LlamaLogLevel, type Llama } from 'node-llama-cpp';

export type GpuSetting = 'auto' | 'cuda' | 'vulkan' | 'metal' | false;

export interface LlamaRuntimeOptions {
  /** Threads for evaluation. Default: env TEMPORA_THREADS, else the physical core count. */
  threads?: number;
  /** GPU backend. Default: env TEMPORA_GPU ('auto' | 'cuda' | 'vulkan' | 'metal' | 'off'), else 'auto'. */
  gpu?: GpuSetting;
  /** Receives llama.cpp's log lines (warnings and worse). Default: node-llama-cpp's console logger. */
  logger?: (level: LlamaLogLevel, message: string) => void;
}

export interface LlamaRuntime {
  llama: Llama;
  /** Threads every context of this process uses. */
  threads: number;
  /** The backend actually in use (false = CPU). */
  gpu: Llama['gpu'];
  /** How long getLlama took, in ms. */
  startMs: number;
}

/** Physical cores (not hyper-threads), bounded by what this process may use. */
export function physicalCoreCount(): number {
  const logical = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  let physical = 0;
  if (process.platform === 'linux') {
    try {
      const cores = new Set<string>();
      let physicalId = '0';
      for (const line of readFileSync('/proc/cpuinfo', 'utf8').split('\n')) {
        const [key, value] = line.split(':').map((part) => part.trim());
        if (key === 'physical id') physicalId = value ?? '0';
        else if (key === 'core id') cores.add(`${physicalId}:${value}`);
      }
      physical = cores.size;
    } catch {
      physical = 0;
    }
  }
  // Elsewhere (or when /proc has no core ids) assume 2-way SMT on machines with more than 4 threads.
  if (physical === 0) physical = logical > 4 ? Math.ceil(logical / 2) : logical;
  return Math.max(1, Math.min(physical, logical));
}

function positiveInt(value: string | number | undefined): number | undefined {
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  return n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
}

export function resolveThreads(option?: number, env: NodeJS.ProcessEnv = process.env): number {
  if (option !== undefined) {
    const n = positiveInt(option);
    if (n === undefined) throw new RangeError(`threads must be a positive integer, got ${option}`);
    return n;
  }
  return positiveInt(env.TEMPORA_THREADS) ?? physicalCoreCount();
}

export function resolveGpu(option?: GpuSetting, env: NodeJS.ProcessEnv = process.env): GpuSetting {
  if (option !== undefined) return option;
  const value = env.TEMPORA_GPU?.trim().toLowerCase();
  if (value === 'off' || value === 'false' || value === 'cpu' || value === '0') return false;
  if (value === 'cuda' || value === 'vulkan' || value === 'metal' || value === 'auto') return value;
  return 'auto';
}

let runtime: Promise<LlamaRuntime> | undefined;

/**
 * The shared runtime. Options are honoured by the first call only (the binding cannot be swapped
 * while models use it); later calls get the same instance. A failed start is not cached, so a later
 * call may retry.
 */
export function getLlamaRuntime(options: LlamaRuntimeOptions = {}): Promise<LlamaRuntime> {
  if (runtime) return runtime;
  const threads = resolveThreads(options.threads);
  const gpu = resolveGpu(options.gpu);
  const started = performance.now();
  const pending = getLlama({
    gpu,
    build: 'never',
    maxThreads: threads,
    logLevel: LlamaLogLevel.warn,
    ...(options.logger ? { logger: options.logger } : {}),
  }).then(
    (llama): LlamaRuntime => ({ llama, threads, gpu: llama.gpu, startMs: performance.now() - started }),
    (error: unknown) => {
      runtime = undefined;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `The local model runtime (node-llama-cpp) could not start: ${reason}. ` +
          'No prebuilt llama.cpp binary works on this machine, and Tempora does not compile one at runtime.',
        { cause: error },
      );
    },
  );
  runtime = pending;
  return pending;
}

/** Disposes the shared binding (and with it every model); the next getLlamaRuntime starts afresh. */
export async function disposeLlamaRuntime(): Promise<void> {
  const current = runtime;
  runtime = undefined;
  if (!current) return;
  try {
    const { llama } = await current;
    await llama.dispose();
  } catch {
    // it never started; nothing to dispose
  }
}
