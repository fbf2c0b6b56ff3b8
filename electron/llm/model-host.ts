/**
 * Loads and unloads the chat model and the embedding model (which may be the same file) and serves
 * the ports over node-llama-cpp: StructuredModel (a grammar made from the answer's zod schema, and
 * the answer validated by it), ChatModel (streaming, stoppable) and Embedder. Loads and unloads are
 * serialised; calls run alongside them. A failed load leaves the host usable (and, when the file
 * itself is bad, keeps the model that was loaded before); every attempt is recorded so
 * `shouldAutoLoad` can refuse one that failed last time. node-llama-cpp and the modules over it are
 * loaded with the first model: an engine that never loads one (the screens, `tempora mcp` without a
 * model) does not pay their load (~2 s on this machine, cold).
 */
import { resolve } from 'node:path';
import type { Llama, LlamaContext, LlamaEmbeddingContext, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import { Semaphore } from './async-semaphore';
import type { LlamaRuntimeOptions } from './llama-runtime';
import { ModelCallError, ModelLoadError } from './model-errors';
import { ModelLoadState, type LoadAttempt, type LoadRole } from './model-load-state';
import type { ChatMessage, ChatModel, ChatStreamOptions, Embedder, ModelUsage, StructuredModel, StructuredRequest } from './ports';
import { grammarSchemaOf, type GrammarJsonObject } from './structured-output';

export interface ModelHostOptions {
  /** JSON file recording load attempts (see model-load-state.ts). */
  statePath: string;
  /** Options for the process-wide runtime, honoured if this host starts it. */
  runtime?: LlamaRuntimeOptions;
  /** Chat context size in tokens. Default: the trained size, capped at 4096. */
  contextSize?: number;
  /** Embedding context size in tokens. Default: the trained size, capped at 1024. */
  embeddingContextSize?: number;
  /** Memory budget for the fit check. Default: total RAM (+ VRAM with a GPU). */
  ramBudgetBytes?: number;
  /** Chat calls that may run at once (one context sequence each). Default 2: a chat stream and an ingestion call. */
  parallelCalls?: number;
}

export interface LoadedModelInfo {
  role: LoadRole;
  path: string;
  name: string | null;
  architecture: string;
  sizeBytes: number;
  contextSize: number;
  embeddingLength: number;
  requiredRamBytes: number;
  loadMs: number;
  threads: number;
  gpu: Llama['gpu'];
}

interface Slot {
  info: LoadedModelInfo;
  model: LlamaModel;
  /** Aborted when the slot is unloaded, so in-flight calls end promptly. */
  unload: AbortController;
  calls: Set<Promise<unknown>>;
}
interface ChatSlot extends Slot { context: LlamaContext; gate: Semaphore }
interface EmbeddingSlot extends Slot { context: LlamaEmbeddingContext }

/** The runtime's modules, loaded by the first load (loadedLlama: null until then). */
interface LlamaModules {
  calls: typeof import('./llama-calls');
  runtime: typeof import('./llama-runtime');
  fileCheck: typeof import('./model-file-check');
  llama: typeof import('node-llama-cpp');
}
let loadingLlama: Promise<LlamaModules> | null = null;
let loadedLlama: LlamaModules | null = null;

function loadLlamaModules(): Promise<LlamaModules> {
  loadingLlama ??= Promise.all([import('./llama-calls'), import('./llama-runtime'), import('./model-file-check'), import('node-llama-cpp')]).then(
    ([calls, runtime, fileCheck, llama]) => (loadedLlama = { calls, runtime, fileCheck, llama }),
    (error: unknown) => {
      loadingLlama = null;
      throw error;
    },
  );
  return loadingLlama;
}

/** The runtime's calls: a slot exists only after a load, which loaded them. */
function llamaCalls(): LlamaModules['calls'] {
  if (!loadedLlama) throw new ModelCallError('not_loaded', 'No model is loaded');
  return loadedLlama.calls;
}

function toLoadError(error: unknown, file: string): ModelLoadError {
  if (error instanceof ModelLoadError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  if (loadedLlama && error instanceof loadedLlama.llama.InsufficientMemoryError) return new ModelLoadError('too_large', file, `Not enough memory to load ${file}: ${reason}`, { cause: error });
  return new ModelLoadError('load_failed', file, `Could not load ${file}: ${reason}`, { cause: error });
}

const GRAMMAR_CACHE_SIZE = 32;
/** Tokens kept free for the chat template around a structured prompt. */
const CHAT_TEMPLATE_RESERVE = 48;
/** A structured answer needs at least this much room. */
const MIN_ANSWER_TOKENS = 64;

export class ModelHost implements StructuredModel, ChatModel, Embedder {
  private readonly loadState: ModelLoadState;
  private readonly lock = new Semaphore(1);
  private readonly models = new Map<string, { model: LlamaModel; refs: number }>();
  /** Compiled JSON-schema grammars per runtime instance, by schema (small LRU). */
  private readonly grammars = new WeakMap<Llama, Map<string, Promise<LlamaGrammar>>>();
  private chatSlot: ChatSlot | null = null;
  private embeddingSlot: EmbeddingSlot | null = null;

  constructor(private readonly options: ModelHostOptions) {
    this.loadState = new ModelLoadState(options.statePath);
  }

  get chatModel(): LoadedModelInfo | null {
    return this.chatSlot?.info ?? null;
  }

  get embeddingModel(): LoadedModelInfo | null {
    return this.embeddingSlot?.info ?? null;
  }

  /** False when the last attempt to load this file failed (or crashed the app) and the file is unchanged. */
  shouldAutoLoad(path: string): boolean {
    return this.loadState.shouldAutoLoad(path);
  }

  lastLoadAttempt(path: string): LoadAttempt | null {
    return this.loadState.lastAttempt(path);
  }

  loadChatModel(path: string): Promise<LoadedModelInfo> {
    return this.lock.run(() => this.load('chat', path));
  }

  loadEmbeddingModel(path: string): Promise<LoadedModelInfo> {
    return this.lock.run(() => this.load('embedding', path));
  }

  unloadChatModel(): Promise<void> {
    return this.lock.run(() => this.unloadSlot('chat'));
  }

  unloadEmbeddingModel(): Promise<void> {
    return this.lock.run(() => this.unloadSlot('embedding'));
  }

  /** Unloads both models (the shared runtime stays; see disposeLlamaRuntime). */
  dispose(): Promise<void> {
    return this.lock.run(async () => {
      await this.unloadSlot('chat');
      await this.unloadSlot('embedding');
    });
  }

  // ---- ChatModel / StructuredModel / Embedder ----

  get contextSize(): number {
    return this.chatSlot?.info.contextSize ?? 0;
  }

  get dimensions(): number {
    return this.embeddingSlot?.info.embeddingLength ?? 0;
  }

  countTokens(text: string): number {
    return this.requireChat().model.tokenize(text, false).length;
  }

  async completeJson<T>(req: StructuredRequest<T>): Promise<{ value: T } & ModelUsage> {
    const slot = this.requireChat();
    const { callSignals, structuredCall } = llamaCalls();
    const s = callSignals(slot.unload.signal, req.signal, req.timeoutMs);
    const promptTokens = slot.model.tokenize(`${req.system ?? ''}\n${req.prompt}`, false).length;
    // maxTokens is a ceiling: on a small context the answer gets what room is left (the chat
    // template takes a few tokens too); too little room for any answer is an error.
    const room = slot.info.contextSize - promptTokens - CHAT_TEMPLATE_RESERVE;
    if (room < MIN_ANSWER_TOKENS) {
      throw new ModelCallError('prompt_too_long', `The prompt (${promptTokens} tokens) leaves no room for an answer in the context (${slot.info.contextSize} tokens)`);
    }
    if (req.maxTokens > room) req = { ...req, maxTokens: room };
    let grammar: LlamaGrammar;
    try {
      grammar = await this.grammarFor(slot.model.llama, grammarSchemaOf(req.schema));
    } catch (error) {
      throw new ModelCallError('failed', `The schema cannot be turned into a grammar: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    return this.track(slot, structuredCall(slot.context, slot.gate, grammar, req, s));
  }

  async streamChat(messages: ChatMessage[], opts: ChatStreamOptions): Promise<{ text: string; stopped: boolean } & ModelUsage> {
    const slot = this.requireChat();
    const { callSignals, streamChatCall } = llamaCalls();
    const s = callSignals(slot.unload.signal, opts.signal);
    return this.track(slot, streamChatCall(slot.context, slot.gate, messages, opts, s));
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const slot = this.requireEmbedding();
    const { callSignals, embedCall } = llamaCalls();
    const s = callSignals(slot.unload.signal, signal);
    return this.track(slot, embedCall(slot.context, slot.model, slot.info.contextSize, slot.info.embeddingLength, texts, s));
  }

  // ---- internals ----

  private requireChat(): ChatSlot {
    if (!this.chatSlot) throw new ModelCallError('not_loaded', 'No chat model is loaded');
    return this.chatSlot;
  }

  private requireEmbedding(): EmbeddingSlot {
    if (!this.embeddingSlot) throw new ModelCallError('not_loaded', 'No embedding model is loaded');
    return this.embeddingSlot;
  }

  private track<T>(slot: Slot, work: Promise<T>): Promise<T> {
    slot.calls.add(work);
    const forget = (): void => void slot.calls.delete(work);
    work.then(forget, forget);
    return work;
  }

  private grammarFor(llama: Llama, schema: GrammarJsonObject): Promise<LlamaGrammar> {
    let cache = this.grammars.get(llama);
    if (!cache) this.grammars.set(llama, (cache = new Map()));
    const key = JSON.stringify(schema);
    let grammar = cache.get(key);
    if (grammar) {
      cache.delete(key); // refresh its place in the LRU order
    } else {
      grammar = llama.createGrammarForJsonSchema(schema);
      grammar.catch(() => cache.delete(key));
    }
    cache.set(key, grammar);
    if (cache.size > GRAMMAR_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return grammar;
  }

  private async load(role: LoadRole, path: string): Promise<LoadedModelInfo> {
    const file = resolve(path);
    const current = role === 'chat' ? this.chatSlot : this.embeddingSlot;
    if (current?.info.path === file) return current.info;
    this.loadState.recordLoading(file, role);
    let acquired = false;
    try {
      const runtime = await loadLlamaModules()
        .then((modules) => modules.runtime.getLlamaRuntime(this.options.runtime))
        .catch((error: unknown) => {
          throw new ModelLoadError('load_failed', file, `Could not load ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        });
      const started = performance.now(); // the runtime's own start-up is reported by getLlamaRuntime
      const report = await loadedLlama!.fileCheck.checkModelFile(file, {
        llama: runtime.llama,
        ramBudgetBytes: this.options.ramBudgetBytes,
        contextSize: role === 'chat' ? this.options.contextSize : this.options.embeddingContextSize,
        embedding: role === 'embedding',
      });
      // The file is sound; only now give up the model it replaces.
      await this.unloadSlot(role);
      const model = await this.acquireModel(runtime.llama, file);
      acquired = true;
      const base = {
        path: file,
        name: report.name,
        architecture: report.architecture,
        sizeBytes: report.sizeBytes,
        embeddingLength: model.embeddingVectorSize,
        requiredRamBytes: report.requiredRamBytes,
        threads: runtime.threads,
        gpu: runtime.gpu,
      };
      const slot = { model, unload: new AbortController(), calls: new Set<Promise<unknown>>() };
      if (role === 'chat') {
        const parallel = this.options.parallelCalls ?? 2;
        const context = await model.createContext({ contextSize: report.contextSize, sequences: parallel, threads: runtime.threads });
        const info: LoadedModelInfo = { ...base, role, contextSize: context.contextSize, loadMs: performance.now() - started };
        this.loadState.recordLoaded(file, role);
        this.chatSlot = { ...slot, info, context, gate: new Semaphore(parallel) };
        return info;
      }
      const context = await model.createEmbeddingContext({ contextSize: report.contextSize, batchSize: report.contextSize, threads: runtime.threads });
      const info: LoadedModelInfo = { ...base, role, contextSize: report.contextSize, loadMs: performance.now() - started };
      this.loadState.recordLoaded(file, role);
      this.embeddingSlot = { ...slot, info, context };
      return info;
    } catch (error) {
      if (acquired) await this.releaseModel(file);
      const loadError = toLoadError(error, file);
      this.loadState.recordFailed(file, role, loadError);
      throw loadError;
    }
  }

  private async unloadSlot(role: LoadRole): Promise<void> {
    const slot = role === 'chat' ? this.chatSlot : this.embeddingSlot;
    if (!slot) return;
    if (role === 'chat') this.chatSlot = null;
    else this.embeddingSlot = null;
    slot.unload.abort(new Error('model unloaded'));
    await Promise.allSettled([...slot.calls]);
    await (role === 'chat' ? (slot as ChatSlot).context : (slot as EmbeddingSlot).context).dispose();
    await this.releaseModel(slot.info.path);
  }

  private async acquireModel(llama: Llama, file: string): Promise<LlamaModel> {
    const entry = this.models.get(file);
    if (entry) {
      entry.refs++;
      return entry.model;
    }
    const model = await llama.loadModel({ modelPath: file });
    this.models.set(file, { model, refs: 1 });
    return model;
  }

  private async releaseModel(file: string): Promise<void> {
    const entry = this.models.get(file);
    if (!entry) return;
    entry.refs--;
    if (entry.refs > 0) return;
    this.models.delete(file);
    await entry.model.dispose();
  }
}
