/**
 * Keeps the vector index consistent with SQLite (the truth), whatever makes the embeddings.
 *
 * - `reconcile`: embeds what the index lacks — items it does not hold, and items whose text changed
 *   since they were embedded (an entity's new alias or summary; stored hashes tell) — and deletes
 *   what SQLite no longer holds (orphans: forgotten facts, expired versions). Idempotent: a second
 *   run adds, updates and removes nothing. It reads every item on both sides (seconds at a million):
 *   the app runs it only when the record of what changed cannot be trusted, and otherwise syncs
 *   just the recorded changes (vector-table-sync.ts).
 * - `rebuild`: reset + reconcile (`tempora reindex`, or after a change of embedding model).
 * - `indexItems` / `removeItems`: the same writes for a known set of items, for callers that sync
 *   eagerly after a transaction instead of (or before) the next reconcile.
 *
 * Embedding runs in batches of `batchSize` texts; between batches `signal` is checked, so an abort
 * stops within one batch and keeps what was already written (the next reconcile goes on from there).
 */
import { createHash } from 'node:crypto';
import type { TextEmbedder } from './text-embedder';
import type { VectorIndex } from './vector-index';
import type { VectorRow } from './vector-rows';
import type { VectorKind } from './vector-table';

export interface VectorSourceItem {
  id: string;
  kind: VectorKind;
  /** The text whose embedding represents the item. */
  text: string;
}

/** What the index should hold, read from SQLite. */
export interface VectorSource {
  /** Every live item once (later duplicates of an id are ignored). Iterated once per reconcile. */
  liveItems(): Iterable<VectorSourceItem>;
}

export interface VectorSyncOptions {
  /** Texts per `embed` call (default 32). */
  batchSize?: number;
  /** After each embedded batch: items embedded so far and items to embed in this run. */
  onProgress?: (done: number, total: number) => void;
  /** Checked before each batch; on abort the run rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Each item not stored because its vector had a non-finite value (vector-table-sync keeps it for the next sync). */
  onSkipped?: (item: VectorSourceItem) => void;
  /** Each item whose vector is written (with the text it was embedded from): vector-table-sync checks them again at its commit. */
  onWritten?: (item: VectorSourceItem) => void;
  /** The ids reconcile deleted as orphans (vector-table-sync checks that they are still not live). */
  onRemoved?: (ids: readonly string[]) => void;
}

export interface ReconcileResult {
  /** Items embedded that the index did not hold (or held with another text). */
  added: number;
  /** Items re-embedded because their text changed (or their stored hash was unknown). */
  updated: number;
  /** Index rows deleted because SQLite no longer holds them. */
  removed: number;
  /** Live items in the source (= rows in the index when the run completes, less `skipped`). */
  total: number;
  /** Items whose embedding had a non-finite value: not stored, tried again next time. */
  skipped: number;
}

export interface IndexItemsResult {
  written: number;
  skipped: number;
}

const DEFAULT_BATCH_SIZE = 32;
/** A reconcile that changed at least this many rows compacts the index when it is done. */
const BULK_CHANGES = 1_000;
/** Embedded rows are written together once this many are waiting … */
const WRITE_ROWS = 1_024;
/** … or once the oldest has waited this long, so slow embedding still shows progress in the index. */
const WRITE_AFTER_MS = 3_000;

/** Hash of what an item's vector is made from (kind included): a change means "embed again". */
export function textHash(kind: VectorKind, text: string): string {
  return createHash('sha1').update(kind).update('\0').update(text).digest('base64url').slice(0, 22);
}

export function checkDimensions(index: VectorIndex, embedder: TextEmbedder): void {
  if (embedder.dimensions === 0) throw new Error('no embedding model is loaded: the vector index cannot be synchronised');
  if (embedder.dimensions !== index.dimensions) {
    throw new Error(
      `the embedding model makes ${embedder.dimensions}-dimension vectors but the vector index holds ${index.dimensions}: reopen the index for this model`,
    );
  }
}

function batchSizeOf(options: VectorSyncOptions): number {
  const size = Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE);
  if (!Number.isFinite(size) || size < 1) throw new Error(`batchSize must be a positive integer, got ${options.batchSize}`);
  return size;
}

/**
 * Embeds `items` in batches and upserts them with their text hashes. If the signal aborts or the
 * embedder fails, it rejects after writing the batches already embedded. A vector with a NaN or
 * infinite value is skipped (counted), not written: one bad text must not block every later sync.
 */
export async function indexItems(
  index: VectorIndex,
  embedder: TextEmbedder,
  items: readonly (VectorSourceItem & { stored?: boolean })[],
  options: VectorSyncOptions = {},
  /** After a bulk write, compact and index now (reconcile does it itself, once). */
  optimizeAfterBulk = true,
): Promise<IndexItemsResult> {
  checkDimensions(index, embedder);
  const batchSize = batchSizeOf(options);
  const { signal, onProgress } = options;
  let pending: VectorRow[] = [];
  let pendingSince = 0;
  const bulk = items.length >= BULK_CHANGES;
  // Items known to have no stored vector (reconcile says so) may be appended; any other is merged on id.
  const stored = new Set(items.filter((item) => item.stored !== false).map((item) => item.id));
  let written = 0;
  let skipped = 0;
  const write = async () => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    // Rows reconcile found missing are appended; only ones already stored (text changed) are merged.
    const fresh = rows.filter((r) => !stored.has(r.id));
    const changed = fresh.length === rows.length ? [] : rows.filter((r) => stored.has(r.id));
    // A bulk write (a first embedding of a large memory) compacts and indexes once at the end
    // (reconcile's optimize): compacting a growing table every 2,000 rows grew with its square.
    const maintain = { maintain: !bulk };
    if (fresh.length) await index.insert(fresh, maintain);
    if (changed.length) await index.upsert(changed, maintain);
    written += rows.length;
  };
  try {
    for (let start = 0; start < items.length; start += batchSize) {
      signal?.throwIfAborted();
      const batch = items.slice(start, start + batchSize);
      const vectors = await embedder.embed(
        batch.map((item) => item.text),
        signal,
      );
      if (vectors.length !== batch.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${batch.length} texts`);
      if (pending.length === 0) pendingSince = Date.now();
      batch.forEach((item, i) => {
        const vector = vectors[i]!;
        if (vector.length !== index.dimensions) throw new Error(`the embedder returned a vector of ${vector.length} floats, not ${index.dimensions}`);
        if (!vector.every(Number.isFinite)) {
          skipped++;
          options.onSkipped?.(item);
        } else {
          pending.push({ id: item.id, kind: item.kind, vector, hash: textHash(item.kind, item.text) });
          options.onWritten?.(item);
        }
      });
      onProgress?.(start + batch.length, items.length);
      if (pending.length >= WRITE_ROWS || Date.now() - pendingSince >= WRITE_AFTER_MS) await write();
    }
  } finally {
    // Keep what was embedded, also when embedding fails or is aborted midway.
    await write();
  }
  if (bulk && optimizeAfterBulk && written > 0) await index.optimize();
  return { written, skipped };
}

/** Deletes these items' vectors (e.g. after a forget). */
export function removeItems(index: VectorIndex, ids: Iterable<string>): Promise<void> {
  return index.delete(ids);
}

/**
 * Makes the index hold exactly the source's live items, each embedded from its current text:
 * deletes orphans first, then embeds what is missing or stale.
 */
export async function reconcile(index: VectorIndex, source: VectorSource, embedder: TextEmbedder, options: VectorSyncOptions = {}): Promise<ReconcileResult> {
  checkDimensions(index, embedder);
  batchSizeOf(options);
  options.signal?.throwIfAborted();
  const stored = await index.hashes();
  const live = new Set<string>();
  const missing: (VectorSourceItem & { stored: boolean })[] = [];
  let added = 0;
  let updated = 0;
  for (const item of source.liveItems()) {
    if (live.has(item.id)) continue;
    live.add(item.id);
    const have = stored.get(item.id);
    if (have === textHash(item.kind, item.text)) continue;
    if (have === undefined) added++;
    else updated++;
    missing.push({ id: item.id, kind: item.kind, text: item.text, stored: have !== undefined });
  }
  const orphans = [...stored.keys()].filter((id) => !live.has(id));
  if (orphans.length > 0) {
    await index.delete(orphans);
    options.onRemoved?.(orphans);
  }
  options.signal?.throwIfAborted();
  let skipped = 0;
  if (missing.length > 0) ({ skipped } = await indexItems(index, embedder, missing, options, false));
  else options.onProgress?.(0, 0);
  // After bulk work, compact now (and build the ANN index if due); small changes wait for the
  // index's own periodic maintenance, so a reconcile after every message stays cheap.
  if (orphans.length + missing.length >= BULK_CHANGES) await index.optimize();
  return { added, updated, removed: orphans.length, total: live.size, skipped };
}

/** Drops the whole index and embeds every live item again. */
export async function rebuild(index: VectorIndex, source: VectorSource, embedder: TextEmbedder, options: VectorSyncOptions = {}): Promise<ReconcileResult> {
  checkDimensions(index, embedder);
  options.signal?.throwIfAborted();
  await index.reset();
  return reconcile(index, source, embedder, options);
}
