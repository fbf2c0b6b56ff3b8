/**
 * The assembled engine: memory + models + ingestion worker + vector index, shared by the Electron
 * main process, the loopback bridge and the `tempora` command. Plain Node: never imports 'electron'.
 */
import { basename } from 'node:path';
import type { ApiEventEnvelope, TimeSettings } from '../../shared/api-contract';
import type { GpuSetting } from '../llm/llama-runtime';
import { embeddingPrefixesFor, NO_PREFIXES, type CatalogueModel } from '../llm/model-catalogue';
import { ModelHost } from '../llm/model-host';
import { openMemory, type Memory } from '../memory/index';
import { IngestionWorker, resolveUserTimeZone, runChatTurn, type ChatTurnRequest, type ChatTurnResult } from '../assistant/index';
import { carryOverSettingsFile } from './engine-settings';
import { modelsPath, modelStatePath, vectorIndexPath } from './engine-files';
import { ModelManager } from './model-manager';
import { storedTimeZone, storeTimeZone, timeSettingsOf } from './time-settings';
import { VectorService } from './vector-service';

export interface EngineOptions {
  dataDir: string;
  /** better-sqlite3 built for Electron's ABI, inside Electron. */
  nativeBinding?: string;
  /** Where downloaded models go; default <dataDir>/models. */
  modelsDir?: string;
  threads?: number;
  gpu?: GpuSetting;
  /** Load the models used last time (default true). */
  autoLoadModels?: boolean;
  /** Start the ingestion worker (default true). */
  startWorker?: boolean;
  /** Replace the model catalogue (tests, local mirrors). */
  catalogue?: readonly CatalogueModel[];
  ingestionTimeoutMs?: number;
  /** The zone chosen for this run (the CLI's --tz); a zone stored in the settings wins. */
  timeZone?: string;
}

export class TemporaEngine {
  readonly memory: Memory;
  readonly models: ModelManager;
  readonly worker: IngestionWorker;
  readonly vectors: VectorService;
  private readonly listeners = new Set<(event: ApiEventEnvelope) => void>();
  private readonly turns = new Map<string, AbortController>();
  private chatting = 0;
  private closed = false;
  /** The zone the user chose (the settings, else the run's); null: $TEMPORA_TZ, else the system's. */
  private chosenZone: string | null;

  private constructor(readonly options: EngineOptions) {
    this.memory = openMemory({ dataDir: options.dataDir, nativeBinding: options.nativeBinding });
    carryOverSettingsFile(options.dataDir, this.memory);
    this.chosenZone = storedTimeZone(this.memory) ?? options.timeZone?.trim() ?? null;
    const host = new ModelHost({ statePath: modelStatePath(options.dataDir), runtime: { threads: options.threads, gpu: options.gpu } });
    this.models = new ModelManager(host, this.memory.settings, options.modelsDir ?? modelsPath(options.dataDir), options.catalogue);
    this.vectors = new VectorService(
      this.memory,
      host,
      vectorIndexPath(options.dataDir),
      () => {
        const info = host.embeddingModel;
        return info ? `${basename(info.path)}:${info.sizeBytes}` : undefined;
      },
      () => {
        const info = host.embeddingModel;
        return info ? embeddingPrefixesFor(basename(info.path), options.catalogue) : NO_PREFIXES;
      },
    );
    this.worker = new IngestionWorker(this.memory, {
      // While a chat answer streams, learning waits: the answer gets the CPU.
      model: () => (host.contextSize > 0 && this.chatting === 0 ? host : null),
      timeoutMs: options.ingestionTimeoutMs ?? 120_000,
      timeZone: () => this.timeZone(),
      onEvent: (event) => {
        const lastError = event.type === 'job-failed' ? event.error : null;
        this.emit({ name: 'ingestionProgress', payload: { counts: event.counts, lastError } });
        if (event.type === 'idle') this.vectors.scheduleSync();
      },
    });
    // The one "memory changed" signal: every write of the memory raises it, whoever made the write.
    this.memory.onChange((change, scope) => {
      this.emit({ name: 'memoryChanged', payload: { reason: change.reason, ...scope } });
      // A message learned or undone: what it changed, for the chat to show under it (and `tempora chat`).
      const learned = change.kind === 'facts' || change.kind === 'forgotten' ? change.learned : undefined;
      const learning = learned ? this.memory.messages.learning(learned.episodeId) : null;
      if (learned && learning) this.emit({ name: 'messageLearned', payload: { ...learned, learning } });
      // While an answer streams, its own messages wait for the vector sync (the worker's idle runs it).
      if (change.kind === 'messages' && this.chatting > 0) return;
      if (change.kind === 'forgotten') this.vectors.remove(change.forgotten.factIds);
      this.vectors.scheduleSync();
    });
  }

  static async open(options: EngineOptions): Promise<TemporaEngine> {
    const engine = new TemporaEngine(options);
    if (options.autoLoadModels ?? true) {
      await engine.models.autoLoad();
      if (engine.models.host.embeddingModel) await engine.vectors.attach();
    }
    if (options.startWorker ?? true) engine.worker.start();
    return engine;
  }

  /** The user's zone: every time this engine reads or shows is in it. */
  timeZone(): string {
    return resolveUserTimeZone(this.chosenZone).timeZone;
  }

  timeSettings(): TimeSettings {
    return timeSettingsOf(this.chosenZone);
  }

  /** Stores and applies the user's zone (null: back to $TEMPORA_TZ or the system's); an unknown zone changes nothing. */
  setTimeZone(timeZone: string | null): TimeSettings {
    storeTimeZone(this.memory, timeZone);
    this.chosenZone = timeZone === null ? null : timeZone.trim();
    return this.timeSettings();
  }

  onEvent(listener: (event: ApiEventEnvelope) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: ApiEventEnvelope): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // a broken listener must not break the engine
      }
    }
  }

  async loadModel(role: 'chat' | 'embedding', path: string) {
    const info = await this.models.load(role, path);
    if (role === 'embedding') await this.vectors.attach();
    else this.worker.notify();
    this.emit({ name: 'modelsChanged', payload: {} });
    return info;
  }

  async unloadModel(role: 'chat' | 'embedding'): Promise<void> {
    if (role === 'embedding') await this.vectors.detach();
    await this.models.unload(role);
    this.emit({ name: 'modelsChanged', payload: {} });
  }

  /** One chat turn, streamed; stop it with stopTurn(turnId). */
  async chat(turnId: string, request: Omit<ChatTurnRequest, 'signal' | 'onToken' | 'onContext' | 'timeZone'>): Promise<ChatTurnResult> {
    if (this.turns.has(turnId)) throw new Error(`turn ${turnId} is already running`);
    const controller = new AbortController();
    this.turns.set(turnId, controller);
    this.chatting++;
    try {
      return await runChatTurn(this.memory, this.models.host, this.vectors.ranker(), {
        ...request,
        timeZone: this.timeZone(),
        signal: controller.signal,
        onToken: (text) => this.emit({ name: 'chatToken', payload: { turnId, text } }),
        onContext: (info) => this.emit({ name: 'chatContext', payload: { turnId, ...info } }),
      });
    } finally {
      this.turns.delete(turnId);
      this.chatting--;
      this.worker.notify();
    }
  }

  stopTurn(turnId: string): boolean {
    const controller = this.turns.get(turnId);
    controller?.abort(new Error('stopped by the user'));
    return controller !== undefined;
  }

  /** Graceful: stops chats, lets the job in flight finish (or returns it to the queue), closes everything. */
  async close(graceMs = 10_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const controller of this.turns.values()) controller.abort(new Error('shutting down'));
    await this.worker.stop(graceMs);
    await this.vectors.close();
    await this.models.host.dispose();
    this.memory.close();
    this.listeners.clear();
  }
}

export function openEngine(options: EngineOptions): Promise<TemporaEngine> {
  return TemporaEngine.open(options);
}
