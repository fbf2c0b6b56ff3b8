/** Opening the full engine (models, ingestion, vectors) for the long-running commands. */
import type { EngineOptions, TemporaEngine } from '../engine/index';
import type { CommandContext, OptionSpec } from './command';
import { InputError, RefusedBeforeStoring, UsageError } from './errors';
import { describeOpenError, leaveAsFound, prepareForWrite } from './memory-dir';

export const MODEL_OPTIONS: Record<string, OptionSpec> = {
  model: { type: 'string', help: ['--model PATH', 'chat/extraction model (GGUF)'] },
  'embedding-model': { type: 'string', help: ['--embedding-model PATH', 'embedding model (GGUF) for vector search; may be the same file'] },
  threads: { type: 'string', help: ['--threads N', 'CPU threads for the model (default: physical cores)'] },
};

/** A command that needs a chat model says so before it reads or opens anything: a usage error (exit 2). */
export function requireModelOption(ctx: CommandContext): void {
  if (ctx.string('model') === undefined) throw new UsageError(`${ctx.command} needs --model PATH (a GGUF chat model; see 'tempora models')`, ctx.command);
}

/** What a command asks of withEngine besides the engine's own options. */
export interface EngineRun {
  /** Refuse without --model before anything is read or made (a usage error). */
  requireModel?: boolean;
  /**
   * Done once the memory directory is there and before the engine opens it (`tempora mcp`: the
   * schema made once, for clients that start several at once); a refusal after it still takes back
   * what the run made.
   */
  beforeOpen?: () => Promise<void>;
}

/** Opens the engine without auto-loading anything, loads the models named on the command line, runs fn, closes. */
export async function withEngine<T>(
  ctx: CommandContext,
  options: Partial<EngineOptions> & EngineRun,
  fn: (engine: TemporaEngine) => Promise<T>,
): Promise<T> {
  const { requireModel, beforeOpen, ...engineOptions } = options;
  if (requireModel) requireModelOption(ctx);
  const threads = ctx.count('threads');
  const dir = ctx.memoryDir;
  const made = prepareForWrite(dir);
  let engine: TemporaEngine;
  try {
    await beforeOpen?.();
    // Loaded on demand: the quick commands (facts, search …) never load node-llama-cpp or LanceDB.
    const { TemporaEngine } = await import('../engine/index');
    engine = await TemporaEngine.open({ dataDir: dir.path, autoLoadModels: false, startWorker: false, threads, timeZone: ctx.timeZone, ...engineOptions });
  } catch (error) {
    leaveAsFound(dir, made);
    throw new InputError(`cannot open the memory in ${dir.path}: ${describeOpenError(error, false, dir.path)}`);
  }
  // Refused before the command ran (a model that will not load) or by the command before it stored
  // anything (RefusedBeforeStoring, or a UsageError: a command line found wrong, as `reindex` with
  // no embedding model to use): a directory or store this run made is taken back. Otherwise what it
  // made stays, as it may have stored part of its work (leaveAsFound never takes a store that holds something).
  let refusedBeforeStoring = true;
  try {
    const model = ctx.string('model');
    const embedding = ctx.string('embedding-model');
    if (model !== undefined) await loadModel(engine, 'chat', model, ctx);
    if (embedding !== undefined) await loadModel(engine, 'embedding', embedding, ctx);
    refusedBeforeStoring = false;
    return await fn(engine);
  } catch (error) {
    if (error instanceof RefusedBeforeStoring || error instanceof UsageError) refusedBeforeStoring = true;
    throw error;
  } finally {
    await engine.close();
    if (refusedBeforeStoring) leaveAsFound(dir, made);
  }
}

async function loadModel(engine: TemporaEngine, role: 'chat' | 'embedding', path: string, ctx: CommandContext): Promise<void> {
  try {
    await engine.loadModel(role, ctx.resolvePath(path));
  } catch (error) {
    if (error instanceof Error) throw new InputError(`--${role === 'chat' ? 'model' : 'embedding-model'}: ${error.message}`);
    throw error;
  }
}
