/**
 * Retrieval for chat and search: full text + entities + source episodes (+ vectors when an
 * embedding model is loaded), fused by reciprocal rank fusion and filtered by the time axes.
 * History comes in when the question asks for it, and every current fact brings the fact it
 * replaced, so "who is my manager?" also learns that A ended on 15 Sep.
 * Without vectors it degrades to text + entities and says so; it never fails for lack of a model.
 */
import type { FactRecord } from '../../../shared/memory-schema';
import type { Memory, SearchHit } from '../../memory/index';
import { detectQueryIntent, type QueryIntent } from './query-intent';

/** Ranks live fact ids by vector similarity to the query; null when no embedding model is loaded. */
export interface VectorRanker {
  rank(query: string, limit: number, signal?: AbortSignal): Promise<string[] | null>;
}

export interface RetrieveOptions {
  asOf?: string;
  knownAt?: string;
  /** Force history on or off; default: detected from the query. */
  history?: boolean;
  limit?: number;
  vectors?: VectorRanker | null;
  signal?: AbortSignal;
}

export interface Retrieval {
  hits: SearchHit[];
  /** Facts for the context: the hits plus the predecessors of current hits. */
  facts: FactRecord[];
  intent: QueryIntent;
  vectorsUsed: boolean;
  /** Why vectors were not used, when they were not. */
  note: string | null;
}

export async function retrieve(memory: Memory, query: string, options: RetrieveOptions = {}): Promise<Retrieval> {
  const plan = planRetrieval(memory, query, options);
  // The vector search runs on LanceDB's threads while SQLite does the text retrievers here.
  const pending = options.vectors
    ? options.vectors.rank(query, Math.max(plan.limit * 3, 30), options.signal).then(
        (ids) => ({ ids, note: ids === null ? 'no embedding model loaded: full-text and entity search only' : null }),
        (error: Error) => ({ ids: null, note: `vector search failed (${error.message}): full-text and entity search only` }),
      )
    : Promise.resolve(NO_VECTORS);
  const lists = memory.searchLists(query, { ...plan.axes, limit: plan.limit });
  return finish(memory, plan, lists, await pending);
}

/** retrieve() without a vector index, synchronously (the `tempora search` of a memory alone). */
export function retrieveWithoutVectors(memory: Memory, query: string, options: Omit<RetrieveOptions, 'vectors' | 'signal'> = {}): Retrieval {
  const plan = planRetrieval(memory, query, options);
  return finish(memory, plan, memory.searchLists(query, { ...plan.axes, limit: plan.limit }), NO_VECTORS);
}

const NO_VECTORS = { ids: null, note: 'no vector index: full-text and entity search only' } as const;

interface RetrievalPlan {
  intent: QueryIntent;
  limit: number;
  now: string;
  axes: { history: true; knownAt: string } | { asOf: string | undefined; knownAt: string | undefined };
}

function planRetrieval(memory: Memory, query: string, options: RetrieveOptions): RetrievalPlan {
  const detected = detectQueryIntent(query);
  const intent: QueryIntent = options.history === undefined ? detected : { history: options.history, cue: options.history ? 'requested' : null };
  const now = memory.clock.now();
  // History means every valid time, but still only what the memory holds now (unless known-at is given).
  const axes = intent.history && options.asOf === undefined ? { history: true as const, knownAt: options.knownAt ?? now } : { asOf: options.asOf, knownAt: options.knownAt };
  return { intent, limit: options.limit ?? 10, now, axes };
}

function finish(memory: Memory, plan: RetrievalPlan, lists: ReturnType<Memory['searchLists']>, vectors: { ids: string[] | null; note: string | null }): Retrieval {
  const hits = memory.searchFuse(vectors.ids ? { ...lists, vector: vectors.ids } : lists, { ...plan.axes, limit: plan.limit });
  const facts = withPredecessors(memory, hits.map((h) => h.fact), plan.now);
  return { hits, facts, intent: plan.intent, vectorsUsed: vectors.ids !== null, note: vectors.note };
}

/** Adds, after the hits, the facts each current hit closed (its direct predecessors in the slot, the latest two). */
function withPredecessors(memory: Memory, facts: FactRecord[], now: string): FactRecord[] {
  const current = facts.filter((f) => f.expired_at === null && f.invalid_at === null).map((f) => f.id);
  if (current.length === 0) return facts;
  // One query for all hits: the live facts closed by any version of each hit's chain.
  const rows = memory.factsClosedBy(current);
  const seen = new Set(facts.map((f) => f.id));
  const perHit = new Map<number, number>();
  const closed: string[] = [];
  for (const row of rows) {
    const taken = perHit.get(row.hit) ?? 0;
    if (taken >= 2) continue;
    perHit.set(row.hit, taken + 1);
    if (!seen.has(row.id)) {
      seen.add(row.id);
      closed.push(row.id);
    }
  }
  if (closed.length === 0) return facts;
  const records = new Map(memory.factsByIds(closed, now).map((r) => [r.id, r]));
  return [...facts, ...closed.flatMap((id) => records.get(id) ?? [])];
}
