/**
 * Retrieval for chat and search: full text + entities + source episodes (+ vectors when an
 * embedding model is loaded), fused by reciprocal rank fusion and filtered by the time axes.
 * History comes in when the question asks for it, and every current fact brings the fact it
 * replaced, so "who is my manager?" also learns that A ended on 15 Sep.
 * A time named in the question ("on 2026-09-10", "in 2024", "去年") is resolved in the user's zone
 * (question-time.ts; a bare month is the latest one the memory covers) and ranks, never filters
 * (time-ranking.ts): facts true then, or told on or soon after it, come first, the rest move down a
 * few places; the facts true now in their place come with them; an explicit asOf wins over it.
 * Without vectors it degrades to text + entities and says so; it never fails for lack of a model.
 */
import type { FactRecord } from '../../../shared/memory-schema';
import type { Memory, SearchFilters, SearchHit } from '../../memory/index';
import { defaultTimeZone } from '../user-time-zone';
import { detectQueryIntent, type QueryIntent } from './query-intent';
import { findQuestionTime, type QuestionTime } from './question-time';
import { rankByTime } from './time-ranking';
import type { IsoTime } from '../../../shared/time';

/** Ranks live fact ids by vector similarity to the query; null when no embedding model is loaded. */
export interface VectorRanker {
  /**
   * `onAway`: told when the ranking's work has left this thread — the question handed to an embedding
   * model, or the search running on the index's own threads (VectorSearchOptions.onSearching) — so
   * that work done here from then on overlaps it.
   */
  rank(query: string, limit: number, signal?: AbortSignal, onAway?: () => void): Promise<string[] | null>;
}

/** How long the text retrievers wait for a ranker that never says its work left this thread. */
const HANDOVER_WAIT_MS = 5;

export interface RetrieveOptions {
  /** Answer as of this instant; it wins over a time named in the question. */
  asOf?: IsoTime;
  knownAt?: IsoTime;
  /** Force history on or off; default: detected from the query. Off also ignores a time in the question. */
  history?: boolean;
  limit?: number;
  /** Narrow the search to one entity and/or predicate (by name): the same ranked search, fewer facts. */
  entity?: string;
  predicate?: string;
  vectors?: VectorRanker | null;
  signal?: AbortSignal;
  /** The user's zone, for the days a question names; default defaultTimeZone() (TEMPORA_TZ or the system's). */
  zone?: string;
}

export interface Retrieval {
  hits: SearchHit[];
  /** Facts for the context: the hits plus the predecessors of current hits (and, for a time, what replaced them). */
  facts: FactRecord[];
  intent: QueryIntent;
  /** The time the question names, as retrieval understood and used it; null when none, or when asOf was given. */
  time: QuestionTime | null;
  vectorsUsed: boolean;
  /** Why vectors were not used, when they were not. */
  note: string | null;
}

export async function retrieve(memory: Memory, query: string, options: RetrieveOptions = {}): Promise<Retrieval> {
  const plan = planRetrieval(memory, query, options);
  const depth = Math.max(...plan.searches.map((s) => s.limit));
  if (!options.vectors) return finish(memory, plan, searchAll(memory, query, plan), NO_VECTORS);
  // The vector side (embedding the question, then LanceDB's scan) runs on threads of its own while
  // SQLite does the text retrievers here: they start once it has left this thread, which it needs
  // until then (opening LanceDB's stream took 0.9 ms p50, 8 ms p99 under load at 100k).
  let handedOver!: () => void;
  const searching = new Promise<void>((resolve) => (handedOver = resolve));
  const pending = options.vectors.rank(query, Math.max(depth * 3, 30), options.signal, () => handedOver()).then(
    (ids) => ({ ids, note: ids === null ? 'no embedding model loaded: full-text and entity search only' : null }),
    (error: unknown) => ({ ids: null, note: `vector search failed (${error instanceof Error ? error.message : typeof error === 'string' ? error : 'no reason given'}): full-text and entity search only` }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([searching, pending, new Promise<void>((resolve) => (timer = setTimeout(resolve, HANDOVER_WAIT_MS)))]);
  clearTimeout(timer);
  return finish(memory, plan, searchAll(memory, query, plan), await pending);
}

/** The text retrievers' lists for each of the plan's searches. */
function searchAll(memory: Memory, query: string, plan: RetrievalPlan): ReturnType<Memory['facts']['searchLists']>[] {
  return plan.searches.map((s) => memory.facts.searchLists(query, { ...s.axes, ...plan.filters, limit: s.limit }));
}

/** retrieve() without a vector index, synchronously (the `tempora search` of a memory alone). */
export function retrieveWithoutVectors(memory: Memory, query: string, options: Omit<RetrieveOptions, 'vectors' | 'signal'> = {}): Retrieval {
  const plan = planRetrieval(memory, query, options);
  return finish(memory, plan, searchAll(memory, query, plan), NO_VECTORS);
}

const NO_VECTORS = { ids: null, note: 'no vector index: full-text and entity search only' } as const;

type Axes = { history: true; knownAt: IsoTime } | { asOf: IsoTime | undefined; knownAt: IsoTime | undefined };

interface RetrievalPlan {
  intent: QueryIntent;
  time: QuestionTime | null;
  limit: number;
  now: IsoTime;
  /** Searches whose hits are merged in this order (a fact keeps its first place). */
  searches: { axes: Axes; limit: number }[];
  /** What every search is narrowed to. */
  filters: SearchFilters;
}

function planRetrieval(memory: Memory, query: string, options: RetrieveOptions): RetrievalPlan {
  const filters: SearchFilters = { entity: options.entity, predicate: options.predicate };
  const detected = detectQueryIntent(query);
  const now = memory.clock.now();
  const limit = options.limit ?? 10;
  const time = options.asOf === undefined && options.history !== false ? findQuestionTime(query, { instant: now, zone: options.zone ?? defaultTimeZone() }, { latestStart: () => memory.facts.latestStart(now) }) : null;
  const forced = options.history === undefined ? null : { history: options.history, cue: options.history ? 'requested' : null };
  // History means every valid time, but still only what the memory holds now (unless known-at is given).
  const history = { history: true as const, knownAt: options.knownAt ?? now };
  if (time?.kind === 'point') {
    // Every valid time, deeper, ranked by the time (time-ranking.ts); and what was true then, for what
    // the words rank below that depth.
    const searches = [{ axes: history, limit: Math.max(limit * 3, 30) }, { axes: { asOf: time.asOf, knownAt: options.knownAt }, limit }];
    return { intent: forced ?? { history: true, cue: detected.cue ?? 'time' }, time, limit, now, searches, filters };
  }
  if (time?.kind === 'period') {
    // Every valid time, deeper, ranked by the time.
    return { intent: forced ?? { history: true, cue: detected.cue ?? 'time' }, time, limit, now, searches: [{ axes: history, limit: Math.max(limit * 3, 30) }], filters };
  }
  const intent = forced ?? detected;
  const axes = intent.history && options.asOf === undefined ? history : { asOf: options.asOf, knownAt: options.knownAt };
  return { intent, time: null, limit, now, searches: [{ axes, limit }], filters };
}

function finish(memory: Memory, plan: RetrievalPlan, lists: ReturnType<Memory['facts']['searchLists']>[], vectors: { ids: string[] | null; note: string | null }): Retrieval {
  const found = plan.searches.map((s, i) => memory.facts.searchFuse(vectors.ids ? { ...lists[i], vector: vectors.ids } : lists[i]!, { ...s.axes, ...plan.filters, limit: s.limit }));
  const hits = plan.time ? rankByTime(found[0]!, found[1] ?? [], plan.time).slice(0, plan.limit) : found[0]!;
  let facts = hits.map((h) => h.fact);
  if (plan.time) facts = withSuccessors(memory, facts, plan.now);
  facts = withPredecessors(memory, facts, plan.now);
  return { hits, facts, intent: plan.intent, time: plan.time, vectorsUsed: vectors.ids !== null, note: vectors.note };
}

/**
 * For the facts true at the time asked about that are over now, what holds now in their place:
 * the chain of facts that closed each, followed to a current one (at most three steps).
 */
function withSuccessors(memory: Memory, facts: FactRecord[], now: IsoTime): FactRecord[] {
  const seen = new Set(facts.map((f) => f.id));
  const added: FactRecord[] = [];
  let next = [...new Set(facts.flatMap((f) => (f.invalid_at !== null && f.invalid_at <= now && f.invalidated_by ? [f.invalidated_by] : [])))];
  for (let step = 0; step < 3 && next.length > 0; step++) {
    const records = memory.facts.byIds(next, now);
    next = [];
    for (const r of records) {
      if (r.invalid_at === null || r.invalid_at > now) {
        if (!seen.has(r.id)) added.push(r);
        seen.add(r.id);
      } else if (r.invalidated_by && !seen.has(r.invalidated_by)) next.push(r.invalidated_by);
    }
  }
  return added.length ? [...facts, ...added] : facts;
}

/** Adds, after the hits, the facts each current hit closed (its direct predecessors in the slot, the latest two). */
function withPredecessors(memory: Memory, facts: FactRecord[], now: IsoTime): FactRecord[] {
  const current = facts.filter((f) => f.expired_at === null && f.invalid_at === null).map((f) => f.id);
  if (current.length === 0) return facts;
  // One query for all hits: the live facts closed by any version of each hit's chain.
  const rows = memory.facts.closedBy(current);
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
  const records = new Map(memory.facts.byIds(closed, now).map((r) => [r.id, r]));
  return [...facts, ...closed.flatMap((id) => records.get(id) ?? [])];
}
