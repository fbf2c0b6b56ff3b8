/**
 * The retrieval evaluation's machinery, kept apart from the command line so the unit test can use
 * it: resolving each question's expected facts to ids in a built memory, running the questions
 * through `retrieve`, recall@k, summaries by category and tag, a small cosine ranker for hybrid
 * runs, and a diagnosis of every miss (hidden by the time axes, ranked too low, or found by nothing).
 */
import type { FactRecord } from '../../shared/memory-schema';
import { toIsoUtc, type IsoTime } from '../../shared/time';
import type { Memory } from '../../electron/memory/index';
import { normalizeName, normalizePredicate } from '../../electron/memory/store/normalize';
import { parseQuery } from '../../electron/memory/text-search/full-text-search';
import { detectQueryIntent } from '../../electron/assistant/retrieval/query-intent';
import { retrieve, type VectorRanker } from '../../electron/assistant/retrieval/retrieve';
import { CATEGORIES, type Category, type EvalQuestion, type FactRef, type Tag } from './questions';

export const KS = [5, 10] as const;
export const LIMIT = 10;

export interface ResolvedQuestion extends EvalQuestion {
  expectedIds: string[];
  /** asOf as canonical ISO UTC (end of the named day is not implied: the day's 00:00 UTC). */
  asOfIso?: IsoTime;
}

/** Facts the memory holds now (not expired), open or closed. */
export function liveFacts(memory: Memory): FactRecord[] {
  return memory.facts.list({ history: true }).filter((f) => f.expired_at === null);
}

export function describeRef(ref: FactRef): string {
  return `${ref.subject} ${ref.predicate} ${JSON.stringify(ref.object)}${ref.state ? ` (${ref.state})` : ''}`;
}

/** The one live fact a reference names; throws (naming the candidates) when there is none or several. */
export function resolveFactRef(memory: Memory, ref: FactRef, facts: FactRecord[] = liveFacts(memory)): string {
  const subject = memory.entities.find(ref.subject);
  if (!subject) throw new Error(`no entity named ${JSON.stringify(ref.subject)} for ${describeRef(ref)}`);
  const predicate = normalizePredicate(ref.predicate);
  const object = normalizeName(ref.object);
  const now = memory.clock.now();
  const sameSlot = facts.filter((f) => f.subject_id === subject.id && f.predicate === predicate);
  const matches = sameSlot.filter((f) => {
    if (normalizeName(f.object) !== object) return false;
    if (ref.state === 'current') return f.invalid_at === null || f.invalid_at > now;
    if (ref.state === 'closed') return f.invalid_at !== null && f.invalid_at <= now;
    return true;
  });
  if (matches.length === 1) return matches[0]!.id;
  const candidates = sameSlot.map((f) => `${JSON.stringify(f.object)} ${f.invalid_at === null ? 'current' : `closed ${f.invalid_at.slice(0, 10)}`}`).join('; ');
  throw new Error(`${matches.length === 0 ? 'no' : `${matches.length}`} live facts match ${describeRef(ref)}; same subject+predicate: ${candidates || 'none'}`);
}

export function resolveQuestions(memory: Memory, questions: readonly EvalQuestion[]): ResolvedQuestion[] {
  const facts = liveFacts(memory);
  return questions.map((question) => {
    try {
      return {
        ...question,
        expectedIds: question.expected.map((ref) => resolveFactRef(memory, ref, facts)),
        ...(question.asOf ? { asOfIso: toIsoUtc(question.asOf) } : {}),
      };
    } catch (error) {
      throw new Error(`question ${question.id} (${JSON.stringify(question.query)}): ${(error as Error).message}`, { cause: error });
    }
  });
}

/** Fraction of the expected ids found in the first k of `ranked` (1 when nothing is expected). */
export function recallAtK(expected: readonly string[], ranked: readonly string[], k: number): number {
  if (expected.length === 0) return 1;
  const top = new Set(ranked.slice(0, k));
  return expected.filter((id) => top.has(id)).length / expected.length;
}

/** Is the fact visible on the time axes retrieval uses for this question? */
export function visibleOnAxes(fact: FactRecord, question: Pick<ResolvedQuestion, 'query' | 'asOfIso'>, now: string): boolean {
  if (fact.expired_at !== null) return false;
  if (question.asOfIso !== undefined) return fact.valid_at <= question.asOfIso && (fact.invalid_at === null || fact.invalid_at > question.asOfIso);
  if (detectQueryIntent(question.query).history) return true;
  return fact.valid_at <= now && (fact.invalid_at === null || fact.invalid_at > now);
}

export interface QuestionResult {
  id: string;
  category: Category;
  tags: Tag[];
  query: string;
  asOf: string | null;
  historyCue: string | null;
  expectedIds: string[];
  rankedIds: string[];
  recall: Record<number, number>;
  ms: number;
}

export async function runQuestion(memory: Memory, question: ResolvedQuestion, vectors: VectorRanker | null): Promise<QuestionResult> {
  const started = performance.now();
  const result = await retrieve(memory, question.query, { asOf: question.asOfIso, limit: LIMIT, vectors });
  const ms = performance.now() - started;
  const rankedIds = result.hits.map((h) => h.fact.id);
  return {
    id: question.id,
    category: question.category,
    tags: question.tags ?? [],
    query: question.query,
    asOf: question.asOf ?? null,
    historyCue: question.asOfIso === undefined ? result.intent.cue : `asOf ${question.asOf}`,
    expectedIds: question.expectedIds,
    rankedIds,
    recall: Object.fromEntries(KS.map((k) => [k, recallAtK(question.expectedIds, rankedIds, k)])),
    ms,
  };
}

export interface Summary {
  questions: number;
  /** Mean recall@k over the questions. */
  recall: Record<number, number>;
  /** Share of questions with every expected fact in the top k. */
  answered: Record<number, number>;
}

export function summarize(results: readonly QuestionResult[]): Summary {
  const n = results.length;
  const mean = (f: (r: QuestionResult) => number) => (n === 0 ? 0 : results.reduce((s, r) => s + f(r), 0) / n);
  return {
    questions: n,
    recall: Object.fromEntries(KS.map((k) => [k, mean((r) => r.recall[k] ?? 0)])),
    answered: Object.fromEntries(KS.map((k) => [k, mean((r) => ((r.recall[k] ?? 0) === 1 ? 1 : 0))])),
  };
}

export interface Breakdown {
  overall: Summary;
  byCategory: Record<Category, Summary>;
  byTag: Record<string, Summary>;
}

export function breakdown(results: readonly QuestionResult[]): Breakdown {
  const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, summarize(results.filter((r) => r.category === c))])) as Record<Category, Summary>;
  const byTag: Record<string, Summary> = {
    'cross-lingual': summarize(results.filter((r) => r.tags.includes('cross-lingual'))),
    intent: summarize(results.filter((r) => r.tags.includes('intent'))),
    untagged: summarize(results.filter((r) => r.tags.length === 0)),
  };
  return { overall: summarize(results), byCategory, byTag };
}

/** Why an expected fact is missing from a question's top `k`. */
export interface Miss {
  factId: string;
  fact: string;
  state: string;
  reason: string;
}

export async function diagnoseMisses(memory: Memory, question: ResolvedQuestion, result: QuestionResult, vectors: VectorRanker | null, k = LIMIT): Promise<Miss[]> {
  const top = new Set(result.rankedIds.slice(0, k));
  const missing = question.expectedIds.filter((id) => !top.has(id));
  if (missing.length === 0) return [];
  const now = memory.clock.now();
  const deep = await retrieve(memory, question.query, { asOf: question.asOfIso, limit: 200, vectors });
  return missing.map((id) => {
    const fact = memory.facts.get(id)!;
    const state = fact.invalid_at === null ? 'current' : `closed ${fact.invalid_at.slice(0, 10)}`;
    let reason: string;
    if (!visibleOnAxes(fact, question, now)) {
      reason = question.asOfIso !== undefined ? `not valid as of ${question.asOf}` : 'hidden by the time axes: the fact is closed and the query has no history cue, so only current facts are searched';
    } else {
      const rank = deep.hits.findIndex((h) => h.fact.id === id);
      if (rank < 0) reason = 'found by no retriever (no shared term in the fact, its episodes or its entities\' names)';
      else {
        const parts = Object.entries(deep.hits[rank]!.parts).map(([p, r]) => `${p} #${r}`).join(', ');
        reason = `ranked #${rank + 1} (${parts})`;
      }
    }
    return { factId: id, fact: fact.fact, state, reason };
  });
}

export function describeQuery(query: string): string {
  const parsed = parseQuery(query);
  return [...parsed.terms, ...parsed.short, ...parsed.grams].join(' | ') || '(no terms)';
}

/** Cosine similarity of two vectors of the same length. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * A tiny in-memory vector ranker (what the LanceDB index does in the app, over ~150 facts): ranks
 * the given fact vectors by cosine similarity to the query's embedding, best first.
 */
export function cosineRanker(items: readonly { id: string; vector: Float32Array }[], embedQuery: (query: string, signal?: AbortSignal) => Promise<Float32Array>): VectorRanker {
  return {
    async rank(query, limit, signal, onAway) {
      const embedding = embedQuery(query, signal);
      onAway?.();
      const q = await embedding;
      return items
        .map((item) => ({ id: item.id, score: cosine(q, item.vector) }))
        .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
        .slice(0, limit)
        .map((s) => s.id);
    },
  };
}

/**
 * The chance floor for hybrid runs: every live fact in a fixed pseudo-random order (seeded, the same
 * for every query). Fusion lets any vector list fill the slots full text leaves empty, so a
 * model's hybrid recall means something only above this.
 */
export function randomRanker(memory: Memory, seed = 1): VectorRanker {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ids = liveFacts(memory).map((f) => f.id);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return { rank: async (_query, limit) => ids.slice(0, limit) };
}

/** Embeds every live fact sentence (as the app's vector index does) and returns a cosine ranker. */
export async function embeddingRanker(
  memory: Memory,
  embed: (texts: string[]) => Promise<Float32Array[]>,
  prefixes: { query: string; document: string } = { query: '', document: '' },
  batchSize = 32,
): Promise<VectorRanker> {
  const facts = liveFacts(memory);
  const items: { id: string; vector: Float32Array }[] = [];
  for (let i = 0; i < facts.length; i += batchSize) {
    const batch = facts.slice(i, i + batchSize);
    const vectors = await embed(batch.map((f) => prefixes.document + f.fact));
    batch.forEach((f, j) => items.push({ id: f.id, vector: vectors[j]! }));
  }
  return cosineRanker(items, async (query) => (await embed([prefixes.query + query]))[0]!);
}
