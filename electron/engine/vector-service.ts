/**
 * The vector side of memory, as the engine runs it: opens the LanceDB index for the loaded
 * embedding model's dimension, keeps it reconciled with SQLite (debounced after changes; at attach),
 * and ranks facts for hybrid search. Without an embedding model it stays detached and ranks nothing.
 */
import type { EmbeddingPrefixes } from '../llm/model-catalogue';
import type { Embedder } from '../llm/ports';
import type { Memory } from '../memory/index';
import type { VectorRanker } from '../memory/retrieval/retrieve';
import { VectorIndex } from '../memory/vector-index';
import { reconcile, rebuild, removeItems, type ReconcileResult } from '../memory/vector-sync';
import { liveVectorItems } from './vector-source';

export class VectorService {
  private index: VectorIndex | null = null;
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<ReconcileResult | null> = Promise.resolve(null);
  private dirty = false;
  lastError: string | null = null;

  constructor(
    private readonly memory: Memory,
    private readonly embedder: Embedder,
    private readonly path: string,
    /** Identity of the loaded embedding model (path and size): another model resets the index. */
    private readonly modelIdentity: () => string | undefined = () => undefined,
    /** The loaded embedding model's query/document prefixes ("query: " / "passage: " for e5). */
    private readonly prefixes: () => EmbeddingPrefixes = () => ({ query: '', document: '' }),
  ) {}

  /** The embedder for stored items: each text with the document prefix. */
  private documents(): Embedder {
    const { document } = this.prefixes();
    const embedder = this.embedder;
    return {
      get dimensions() {
        return embedder.dimensions;
      },
      embed: (texts, signal) => embedder.embed(document ? texts.map((t) => document + t) : texts, signal),
    };
  }

  get attached(): boolean {
    return this.index !== null;
  }

  /** Opens the index for the current embedding model and reconciles it in the background. */
  async attach(): Promise<void> {
    if (this.embedder.dimensions === 0) return;
    await this.detach();
    // The prefix is part of what the vectors are: an index built without it is rebuilt.
    const identity = this.modelIdentity();
    const { document } = this.prefixes();
    this.index = await VectorIndex.open(this.path, this.embedder.dimensions, {
      model: identity !== undefined && document ? `${identity}:${document.trim()}` : identity,
      onError: (error) => (this.lastError = (error as Error).message),
    });
    this.scheduleSync(0);
  }

  async detach(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.syncing.catch(() => null);
    const index = this.index;
    this.index = null;
    await index?.close();
  }

  /** Forget deletes everywhere: the vectors go at once, not at the next reconcile. */
  remove(ids: string[]): void {
    if (this.index && ids.length) void removeItems(this.index, ids).catch((error: Error) => (this.lastError = error.message));
  }

  /** Reconciles soon (coalescing bursts of changes). */
  scheduleSync(delayMs = 500): void {
    if (!this.index) return;
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sync();
    }, delayMs);
  }

  /** Embeds what is missing and removes orphans; returns what it did (null when detached). */
  sync(signal?: AbortSignal): Promise<ReconcileResult | null> {
    this.syncing = this.syncing.then(async () => {
      const index = this.index;
      if (!index || !this.dirty) return null;
      this.dirty = false;
      try {
        const result = await reconcile(index, { liveItems: () => liveVectorItems(this.memory) }, this.documents(), { batchSize: 32, signal });
        this.lastError = null;
        return result;
      } catch (error) {
        this.lastError = (error as Error).message;
        return null;
      }
    });
    return this.syncing;
  }

  /** Drops the index and embeds everything again (`tempora reindex`). */
  async rebuild(onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<ReconcileResult> {
    if (!this.index) throw new Error('no embedding model is loaded: load one to build the vector index');
    await this.syncing.catch(() => null);
    return rebuild(this.index, { liveItems: () => liveVectorItems(this.memory) }, this.documents(), { batchSize: 32, signal, onProgress });
  }

  ranker(): VectorRanker {
    return {
      rank: async (query, limit, signal) => {
        const index = this.index;
        if (!index || this.embedder.dimensions === 0) return null;
        const [vector] = await this.embedder.embed([this.prefixes().query + query], signal);
        if (!vector) return null;
        return (await index.search(vector, { kind: 'fact', limit })).map((hit) => hit.id);
      },
    };
  }

  async close(): Promise<void> {
    await this.detach();
  }
}
