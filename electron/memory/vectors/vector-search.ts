/**
 * Nearest-neighbour search on one vector table (vector-index.ts `search`, which checks the query
 * first): by cosine distance, brute force or through the ANN index (ann-index.ts), optionally
 * restricted to kinds and to a set of candidate ids.
 */
import type * as lancedb from '@lancedb/lancedb';
import type { Table as ArrowTable } from 'apache-arrow';
import type { AnnTuning } from './ann-index';
import { arrow, isKind, sqlString, type VectorKind } from './vector-table';

export interface VectorHit {
  id: string;
  kind: VectorKind;
  /**
   * Cosine distance, 0 (same direction) … 2 (opposite). Best first. Through the ANN index it is
   * the codes' estimate (ann-index.ts), unless a refine factor re-ranks by the exact vectors.
   */
  distance: number;
}

export interface VectorSearchOptions {
  limit: number;
  kind?: VectorKind | readonly VectorKind[];
  /** Only these ids are candidates (e.g. the facts current at `as_of`). An empty list finds nothing. */
  ids?: Iterable<string>;
  /**
   * Told once the search runs on LanceDB's threads, where it needs this thread no more until its
   * results come: work done here from then on overlaps it (retrieve.ts runs the text search then).
   */
  onSearching?: () => void;
}

/** Above this many candidate ids, search over-fetches and filters in JS instead of an IN list. */
const PREFILTER_MAX_IDS = 1_000;

/**
 * The `limit` rows nearest to `query` that match `kindWhere` (null: any) and, when given, are among
 * `ids` (not empty). `tuning` is asked at each query, so an ANN index built meanwhile is used.
 */
export async function searchTable(
  table: lancedb.Table,
  query: Float32Array,
  limit: number,
  kindWhere: string | null,
  ids: ReadonlySet<string> | null,
  tuning: () => AnnTuning | null,
  onSearching?: () => void,
): Promise<VectorHit[]> {
  if (ids === null || ids.size <= PREFILTER_MAX_IDS) {
    const idWhere = ids === null ? null : `id IN (${[...ids].map(sqlString).join(', ')})`;
    return nearest(table, query, limit, [kindWhere, idWhere].filter((w): w is string => w !== null).join(' AND ') || null, tuning(), onSearching);
  }
  // Many candidate ids: an IN list that long costs more than it saves. Over-fetch and filter
  // here, widening until enough hits are found or the table is exhausted.
  onSearching?.();
  const total = await table.countRows();
  for (let fetch = Math.max(limit * 4, 100); ; fetch *= 4) {
    const hits = await nearest(table, query, Math.min(fetch, total), kindWhere, tuning());
    const kept = hits.filter((hit) => ids.has(hit.id));
    if (kept.length >= limit || hits.length < Math.min(fetch, total) || fetch >= total) return kept.slice(0, limit);
  }
}

async function nearest(table: lancedb.Table, query: Float32Array, limit: number, where: string | null, ann: AnnTuning | null, onSearching?: () => void): Promise<VectorHit[]> {
  if (limit < 1) {
    onSearching?.();
    return [];
  }
  let q = table.vectorSearch(query).column('vector').distanceType('cosine').limit(limit).select(['id', 'kind', '_distance']);
  if (ann) q = q.nprobes(ann.nprobes);
  if (ann && ann.refineFactor > 0) q = q.refineFactor(ann.refineFactor);
  if (where) q = q.where(where);
  const hits: VectorHit[] = [];
  for (const result of await resultsOf(q, onSearching)) {
    const ids = result.getChild('id')?.toArray() as string[] | undefined;
    const kinds = result.getChild('kind')?.toArray() as string[] | undefined;
    const distances = result.getChild('_distance')?.toArray() as Float32Array | undefined;
    for (let i = 0; i < result.numRows; i++) {
      const kind = kinds?.[i];
      const distance = distances?.[i];
      if (ids?.[i] === undefined || !isKind(kind) || distance === undefined || !Number.isFinite(distance)) continue;
      hits.push({ id: ids[i]!, kind, distance: Math.max(0, distance) });
    }
  }
  return hits;
}

/** LanceDB's native stream of Arrow IPC buffers (what `toArrow` reads; null or undefined at the end). */
interface NativeBatches {
  next(): Promise<Buffer | null | undefined>;
}

/**
 * The query's results, read as `toArrow` reads them, but with the first batch asked for before
 * any other wait: the scan starts on LanceDB's threads then, and `onSearching` is told. (`toArrow`
 * asks for it only in a later turn of this thread, so a search started before synchronous work ran
 * after it: measured at 88,733 rows, 4.3 ms alone, 10.1 ms beside 5 ms of work, 5.9 ms this way.)
 */
async function resultsOf(q: lancedb.VectorQuery, onSearching?: () => void): Promise<ArrowTable[]> {
  const nativeExecute = (q as unknown as { nativeExecute?: () => Promise<NativeBatches> }).nativeExecute;
  if (!onSearching || typeof nativeExecute !== 'function') {
    onSearching?.();
    return [await q.toArrow()];
  }
  const stream = await nativeExecute.call(q);
  const first = stream.next();
  // Handled here too, so a callback that throws leaves no unhandled rejection behind; awaited below.
  first.catch(() => undefined);
  onSearching();
  const tables: ArrowTable[] = [];
  for (let buffer = await first; buffer; buffer = await stream.next()) tables.push(arrow().tableFromIPC(buffer));
  return tables;
}
