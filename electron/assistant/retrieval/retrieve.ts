/**
 * Retrieval for chat and search: full text + entities + source episodes (+ vectors when an
 * embedding model is loaded), fused by reciprocal rank fusion and filtered by the time axes.
 * History comes in when the question asks for it, and every current fact brings the fact it
 * replaced, so "who is my manager?" also learns that A ended on 15 Sep.
 * Without vectors it degrades to text + entities and says so; it never fails for lack of a model.
 */
import type { FactRecord } from '../../../shared/memory-schema';
import { cachedStatement } from '../../memory/store/database/statement-cache';
import { queryFacts } from '../../memory/temporal/fact-query';
import type { Memory } from '../../memory/memory';
import type { SearchHit } from '../../memory/text-search/search';
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
  const detected = detectQueryIntent(query);
  const intent: QueryIntent = options.history === undefined ? detected : { history: options.history, cue: options.history ? 'requested' : null };
  const limit = options.limit ?? 10;
  const now = memory.clock.now();
  // History means every valid time, but still only what the memory holds now (unless known-at is given).
  const axes = intent.history && options.asOf === undefined ? { history: true, knownAt: options.knownAt ?? now } : { asOf: options.asOf, knownAt: options.knownAt };
  // The vector search runs on LanceDB's threads while SQLite does the text retrievers here.
  const pending = options.vectors
    ? options.vectors.rank(query, Math.max(limit * 3, 30), options.signal).then(
        (ids) => ({ ids, note: ids === null ? 'no embedding model loaded: full-text and entity search only' : null }),
        (error: Error) => ({ ids: null, note: `vector search failed (${error.message}): full-text and entity search only` }),
      )
    : Promise.resolve({ ids: null, note: 'no vector index: full-text and entity search only' });
  const lists = memory.searchLists(query, { ...axes, limit });
  const vectors = await pending;
  const hits = memory.searchFuse(vectors.ids ? { ...lists, vector: vectors.ids } : lists, { ...axes, limit });
  const vectorIds = vectors.ids;
  const note = vectors.note;
  const facts = withPredecessors(memory, hits.map((h) => h.fact), now);
  return { hits, facts, intent, vectorsUsed: vectorIds !== null, note };
}

/** Adds, after the hits, the facts each current hit closed (its direct predecessors in the slot, the latest two). */
function withPredecessors(memory: Memory, facts: FactRecord[], now: string): FactRecord[] {
  const current = facts.filter((f) => f.expired_at === null && f.invalid_at === null).map((f) => f.id);
  if (current.length === 0) return facts;
  // One query for all hits: the live facts closed by any version of each hit's chain.
  const rows = cachedStatement(
    memory.db,
    `SELECT h.key AS hit, f.id AS id FROM json_each(@ids) h
     JOIN facts hf ON hf.id = h.value
     JOIN facts c ON c.lineage_id = hf.lineage_id
     JOIN facts f ON f.invalidated_by = c.id AND f.invalidated_by IS NOT NULL AND f.expired_at IS NULL
     ORDER BY h.key, f.valid_at DESC`,
  ).all({ ids: JSON.stringify(current) }) as { hit: number; id: string }[];
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
  const records = new Map(queryFacts(memory.db, { ids: closed, history: true, knownAt: now }, now).map((r) => [r.id, r]));
  return [...facts, ...closed.flatMap((id) => records.get(id) ?? [])];
}
