/**
 * The vector side of memory, as the engine runs it: opens the LanceDB index for the loaded
 * embedding model's dimension, keeps it in sync with SQLite (debounced after changes; at attach),
 * and ranks facts for hybrid search. Without an embedding model it stays detached and ranks nothing.
 * A sync reads only what memory recorded as changed since the last one, unless memory says the
 * record cannot be trusted (a new or reset table, another model, a bulk load…): then it reads
 * everything (memory/vectors/vector-table-sync.ts).
 */
import { NO_PREFIXES, type EmbeddingPrefixes } from '../llm/model-catalogue';
import type { Embedder } from '../llm/ports';
import { EMBEDDED_KINDS, removeItems, VectorIndex, type Memory, type MemoryVectorItems, type TextEmbedder, type VectorKind, type VectorSyncResult, type VectorTableSync } from '../memory/index';
import type { VectorRanker } from '../assistant/retrieval/retrieve';

/**
 * One LanceDB table in the vectors directory: the live facts, which every chat turn searches
 * (memory embeds only facts: memory/vectors/vector-source.ts). `items` is the name the single table
 * had when it held every kind, whose other rows go when it is first opened this way.
 */
const TABLES: readonly { table: string; kinds: readonly VectorKind[] }[] = [{ table: 'items', kinds: EMBEDDED_KINDS }];
const FACTS_TABLE = 0;
/**
 * The table that held entities and messages until no search read them (migration 0037): dropped
 * when an index is opened, so its disk (1.3 GB at a million facts) comes back.
 */
const RETIRED_TABLES = ['others'];

/** The LanceDB tables of a vectors directory and the kinds each holds (tests check them against SQLite). */
export const VECTOR_TABLES = TABLES;

export class VectorService {
  private indexes: VectorIndex[] = [];
  /** One per index, in the same order: what keeps it in sync. */
  private syncs: VectorTableSync[] = [];
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<VectorSyncResult | null> = Promise.resolve(null);
  private dirty = false;
  lastError: string | null = null;
  /** What the table should hold: memory's live facts. */
  private readonly items: MemoryVectorItems;

  constructor(
    memory: Memory,
    private readonly embedder: Embedder,
    private readonly path: string,
    /** Identity of the loaded embedding model (path and size): another model resets the index. */
    private readonly modelIdentity: () => string | undefined = () => undefined,
    /** The loaded embedding model's query/document prefixes ("query: " / "passage: " for e5). */
    private readonly prefixes: () => EmbeddingPrefixes = () => NO_PREFIXES,
  ) {
    this.items = memory.vectorItems();
    // Writes made while no model was attached (this session's last, another process's) may have
    // filled the outbox: bound it now, before anything else writes.
    this.trimOutbox();
  }

  /**
   * Without an embedding model nothing drains memory's outbox of vector changes, yet every write
   * adds to it once a table has synced: past what a sync would read, memory drops it (and the next
   * sync reads everything). A failure only leaves the outbox as it was.
   */
  private trimOutbox(): void {
    try {
      this.items.trimChanges();
    } catch (error) {
      this.lastError = (error as Error).message;
    }
  }

  /** The loaded model as memory's embedding port, for stored items: each text with the document prefix. */
  private documents(): TextEmbedder {
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
    return this.indexes.length > 0;
  }

  /** Opens the index for the current embedding model and reconciles it in the background. */
  async attach(): Promise<void> {
    if (this.embedder.dimensions === 0) return;
    await this.detach();
    // The prefix is part of what the vectors are: an index built without it is rebuilt.
    const identity = this.modelIdentity();
    const { document } = this.prefixes();
    const model = identity !== undefined && document ? `${identity}:${document.trim()}` : identity;
    for (const name of RETIRED_TABLES) await VectorIndex.dropTable(this.path, name).catch((error: Error) => (this.lastError = error.message));
    const opened: VectorIndex[] = [];
    try {
      for (const { table, kinds } of TABLES) {
        opened.push(await VectorIndex.open(this.path, this.embedder.dimensions, { model, table, kinds, onError: (error) => (this.lastError = (error as Error).message) }));
      }
    } catch (error) {
      await Promise.all(opened.map((index) => index.close()));
      throw error;
    }
    this.indexes = opened;
    this.syncs = opened.map((index) => this.items.tableSync(index));
    this.scheduleSync(0);
  }

  async detach(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.syncing.catch(() => null);
    const indexes = this.indexes;
    this.indexes = [];
    this.syncs = [];
    await Promise.all(indexes.map((index) => index.close()));
  }

  /** Forget deletes everywhere: the vectors go at once, not at the next reconcile. */
  remove(ids: string[]): void {
    if (!ids.length) return;
    for (const index of this.indexes) void removeItems(index, ids).catch((error: Error) => (this.lastError = error.message));
  }

  /** Reconciles soon (coalescing bursts of changes). */
  scheduleSync(delayMs = 500): void {
    if (!this.attached) return this.trimOutbox();
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sync();
    }, delayMs);
  }

  /**
   * Embeds what changed and removes what is gone; returns what it did and what it read (null when
   * detached, or when it failed: `lastError` says why, and the next sync does that work again).
   */
  sync(signal?: AbortSignal): Promise<VectorSyncResult | null> {
    this.syncing = this.syncing.then(async () => {
      const syncs = this.syncs;
      if (syncs.length === 0 || !this.dirty) return null;
      this.dirty = false;
      try {
        const results: VectorSyncResult[] = [];
        for (const sync of syncs) results.push(await sync.sync(this.documents(), { batchSize: 32, signal }));
        this.lastError = null;
        return sumResults(results);
      } catch (error) {
        this.lastError = (error as Error).message;
        return null;
      }
    });
    return this.syncing;
  }

  /** Drops the index and embeds everything again (`tempora reindex`). */
  async rebuild(onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<VectorSyncResult> {
    if (!this.attached) throw new Error('no embedding model is loaded: load one to build the vector index');
    await this.syncing.catch(() => null);
    // One progress over every table: the items of the tables before this one count as done.
    const all = this.items.count();
    const results: VectorSyncResult[] = [];
    let before = 0;
    for (const [i, sync] of this.syncs.entries()) {
      const done = before;
      results.push(await sync.rebuild(this.documents(), { batchSize: 32, signal, onProgress: onProgress && ((n) => onProgress(done + n, all)) }));
      before += results[i]!.total;
    }
    return sumResults(results);
  }

  ranker(): VectorRanker {
    return {
      rank: async (query, limit, signal, onAway) => {
        const index = this.indexes[FACTS_TABLE];
        if (!index || this.embedder.dimensions === 0) return null;
        const embedding = this.embedder.embed([this.prefixes().query + query], signal);
        onAway?.(); // the model embeds the question on its own threads: the text search overlaps it
        const [vector] = await embedding;
        if (!vector) return null;
        return (await index.search(vector, { kind: 'fact', limit })).map((hit) => hit.id);
      },
    };
  }

  async close(): Promise<void> {
    await this.detach();
  }
}

/** The tables' results as one: counts added up; 'full' (with its reasons) when any table read everything. */
function sumResults(results: VectorSyncResult[]): VectorSyncResult {
  const counts = ['added', 'updated', 'removed', 'total', 'skipped'] as const;
  const sum: VectorSyncResult = { added: 0, updated: 0, removed: 0, total: 0, skipped: 0, mode: 'changes', reason: null, examined: { changes: 0, sourceItems: 0, storedHashes: 0 } };
  for (const r of results) {
    for (const key of counts) sum[key] += r[key];
    for (const key of Object.keys(sum.examined) as (keyof VectorSyncResult['examined'])[]) sum.examined[key] += r.examined[key];
  }
  const full = results.filter((r) => r.mode === 'full');
  if (full.length > 0) {
    sum.mode = 'full';
    sum.reason = [...new Set(full.map((r) => r.reason))].join('; ');
  }
  return sum;
}
