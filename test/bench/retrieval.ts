/**
 * Hybrid retrieval and the chat turn's overhead before the first token (issue 4's benchmark).
 *
 * - `buildFactVectors`: a LanceDB `VectorIndex` (electron/memory/vectors/vector-index.ts) holding one random
 *   unit vector per live fact (optionally also per entity and user episode, as the app's index
 *   holds them), loaded as one upsert and then given its IVF_RQ index, as the app does after a bulk
 *   reconcile. Random vectors: only latency matters here, not what is found.
 * - `benchRetrieval`: `retrieve(memory, query, { vectors, limit: 10 })` with a VectorRanker that
 *   searches a precomputed query vector (the query's embedding is left out), and full-text only
 *   (`vectors: null`) for comparison. The ranker's own time is the "vector part".
 * - `benchChatTurn`: `runChatTurn` (electron/assistant/chat/chat-turn.ts) with a fake ChatModel that
 *   emits its first token at once; the time from the call to that token is everything the turn
 *   does before the model: appendMessage, conversation history, retrieve, buildContext.
 *
 * Every latency is printed as wall time and CPU time of this process (LanceDB's threads included).
 */
import { performance } from 'node:perf_hooks';
import type { ChatModel } from '../../electron/llm/ports';
import type { Memory } from '../../electron/memory';
import { runChatTurn } from '../../electron/assistant/chat/chat-turn';
import { retrieve, type VectorRanker } from '../../electron/assistant/retrieval/retrieve';
import type { VectorIndex, VectorRow } from '../../electron/memory/index';
import { prng } from '../fixtures/prng';
import { cpuNow, count, ms, rate, perSecond, summarize, table, type Latency } from './stats';
import { databaseOf, storeOf } from '../../electron/memory/memory';

export const GOAL_HYBRID_P95_MS = 15;
export const GOAL_FIRST_TOKEN_P95_MS = 25;
export const DIMENSIONS = 384;

/** Unit vectors, uniform on the sphere, from a seed. */
export function unitVectors(seed: number, dimensions = DIMENSIONS): () => Float32Array {
  const random = prng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
  return () => {
    const v = new Float32Array(dimensions);
    let norm = 0;
    for (let d = 0; d < dimensions; d++) {
      const x = gauss();
      v[d] = x;
      norm += x * x;
    }
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dimensions; d++) v[d]! /= norm;
    return v;
  };
}

export interface VectorBuild {
  index: VectorIndex;
  facts: number;
  rows: number;
  load: { wallMs: number; cpuMs: number };
  ann: { wallMs: number; cpuMs: number };
}

/** A vector index at `path` with a random vector per live fact, as the app keeps it (facts only). */
export async function buildFactVectors(memory: Memory, path: string, options: { seed: number }): Promise<VectorBuild> {
  // Loaded here, not at the top: LanceDB reads LANCEDB_LOG when it is loaded.
  process.env.LANCEDB_LOG ??= 'error';
  const { VectorIndex } = await import('../../electron/memory/index');
  const next = unitVectors(options.seed);
  const ids = (sql: string) => (databaseOf(memory).prepare(sql).all() as { id: string }[]).map((r) => r.id);
  const factIds = ids('SELECT id FROM facts WHERE expired_at IS NULL');
  const rows: VectorRow[] = factIds.map((id) => ({ id, kind: 'fact', vector: next() }));
  // As the app keeps them (electron/engine/vector-service.ts).
  const factsTable = { table: 'items', kinds: ['fact'] as const };
  // Loaded without the ANN index first, then indexed once: what maintenance does after a bulk write.
  const loading = await VectorIndex.open(path, DIMENSIONS, { annMinRows: Number.POSITIVE_INFINITY, ...factsTable });
  const c0 = cpuNow();
  const t0 = performance.now();
  await loading.upsert(rows);
  await loading.optimize();
  const load = { wallMs: performance.now() - t0, cpuMs: cpuNow() - c0 };
  const c1 = cpuNow();
  const t1 = performance.now();
  await loading.createAnnIndex();
  const ann = { wallMs: performance.now() - t1, cpuMs: cpuNow() - c1 };
  await loading.close();
  // Reopened with the app's defaults: it finds the ANN index and searches through it.
  const index = await VectorIndex.open(path, DIMENSIONS, factsTable);
  if (!index.annIndexed) throw new Error('the vector index has no ANN index after createAnnIndex');
  return { index, facts: factIds.length, rows: rows.length, load, ann };
}

/** Questions over a store built from test/fixtures/synthetic-memory.ts (names taken from it), English and Japanese. */
export function retrievalQueries(memory: Memory): string[] {
  const names = (databaseOf(memory).prepare("SELECT name FROM entities WHERE type = 'person' ORDER BY id LIMIT 400").all() as { name: string }[]).map((r) => r.name);
  const ja = names.filter((n) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(n));
  const en = names.filter((n) => !/[\u3040-\u30ff\u4e00-\u9fff]/.test(n));
  const pick = (list: string[], i: number) => list.length ? list[(i * 37) % list.length]! : 'Alice';
  return [
    'Who is my manager?',
    'Where do I live now?',
    '私の上司は誰ですか？',
    'Where did I live before?',
    `What does ${pick(en, 1)} like?`,
    `Where does ${pick(en, 2)} work?`,
    `Who was ${pick(en, 3)}'s manager before?`,
    `When did ${pick(en, 4)} move to London?`,
    `${pick(ja, 1)}さんはどこに住んでいますか？`,
    `${pick(ja, 2)}さんの上司は誰？`,
    `${pick(ja, 3)}さんは以前どこで働いていましたか？`,
    `${pick(ja, 4)}さんの好きなものは？`,
    'Who likes coffee?',
    'ラーメンが好きな人は誰？',
    'Who works at Stark Industries?',
    '東京に住んでいる人は？',
    'Has anyone visited Iceland?',
    '担当者は誰でしたか？',
    `Tell me about ${pick(en, 5)}.`,
    `${pick(ja, 5)}さんについて教えて。`,
    'What do you remember about my job?',
    'I had a great day, we went hiking near Kyoto.',
    'Which of my friends live in Osaka?',
    '最近どう？ 大阪は寒いです。',
  ];
}

interface Timed {
  wall: number[];
  cpu: number[];
}

/** Stop measuring a variant after this long (with at least MIN_RUNS runs): a slow engine must not make the bench take an hour. */
export const DEFAULT_BUDGET_MS = 60_000;
const MIN_RUNS = 30;
const WARMUP = 8;

export interface RetrievalBenchResult {
  facts: number;
  queries: number;
  /** Runs measured per variant (fewer than asked when the time budget ran out). */
  runs: { hybrid: number; text: number; asked: number };
  hybrid: { wall: Latency; cpu: Latency; vector: Latency; rest: Latency; hits: number; vectorsUsed: boolean };
  text: { wall: Latency; cpu: Latency; hits: number };
}

/**
 * A ranker over precomputed query vectors; `spent` collects the time of each search.
 *
 * `hop` (default true): one `await` before `index.search`, standing in for the app's
 * `await embedder.embed(...)` (VectorService.ranker), so the search starts where it starts in the
 * app: after an await, not synchronously inside `retrieve()`'s first tick. Measured at ~89k rows
 * on two cores, starting it synchronously there made each search cost ~80–115 ms of CPU instead
 * of 10–15 ms (same arguments, same results; cause not found); `--profile` shows both.
 */
export function precomputedRanker(index: VectorIndex, vectors: Map<string, Float32Array>, options: { hop?: boolean } = {}): VectorRanker & { spent: number[] } {
  const spent: number[] = [];
  const hop = options.hop ?? true;
  return {
    spent,
    async rank(query, limit, _signal, onAway) {
      const vector = vectors.get(query);
      if (!vector) return null;
      if (hop) await Promise.resolve();
      const t0 = performance.now();
      try {
        return (await index.search(vector, { kind: 'fact', limit, onSearching: onAway })).map((hit) => hit.id);
      } finally {
        spent.push(performance.now() - t0);
      }
    },
  };
}

export async function benchRetrieval(
  memory: Memory,
  index: VectorIndex,
  options: { runs: number; seed: number; facts: number; budgetMs?: number; hop?: boolean; textToo?: boolean },
): Promise<RetrievalBenchResult> {
  const queries = retrievalQueries(memory);
  const nextVector = unitVectors(options.seed + 7);
  const vectors = new Map(queries.map((q) => [q, nextVector()]));
  const ranker = precomputedRanker(index, vectors, { hop: options.hop });
  const warmup = Math.min(WARMUP, options.runs);
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;

  const run = async (vectorsOn: boolean) => {
    const timed: Timed = { wall: [], cpu: [] };
    const rest: number[] = [];
    let hits = 0;
    let used = true;
    const started = performance.now();
    for (let i = 0; i < warmup + options.runs; i++) {
      if (timed.wall.length >= MIN_RUNS && performance.now() - started > budgetMs) break;
      const query = queries[i % queries.length]!;
      const before = ranker.spent.length;
      const c0 = cpuNow();
      const t0 = performance.now();
      const result = await retrieve(memory, query, { vectors: vectorsOn ? ranker : null, limit: 10 });
      const wall = performance.now() - t0;
      const cpu = cpuNow() - c0;
      if (i < warmup) continue;
      timed.wall.push(wall);
      timed.cpu.push(cpu);
      rest.push(wall - ranker.spent.slice(before).reduce((a, b) => a + b, 0));
      hits += result.hits.length;
      if (vectorsOn && !result.vectorsUsed) used = false;
    }
    return { timed, rest, hits: hits / Math.max(1, timed.wall.length), used };
  };

  const before = ranker.spent.length;
  const hybrid = await run(true);
  const vectorSamples = ranker.spent.slice(before + warmup);
  const text = options.textToo === false ? { timed: { wall: [], cpu: [] }, hits: 0 } : await run(false);
  return {
    facts: options.facts,
    queries: queries.length,
    runs: { hybrid: hybrid.timed.wall.length, text: text.timed.wall.length, asked: options.runs },
    hybrid: { wall: summarize(hybrid.timed.wall), cpu: summarize(hybrid.timed.cpu), vector: summarize(vectorSamples), rest: summarize(hybrid.rest), hits: hybrid.hits, vectorsUsed: hybrid.used },
    text: { wall: summarize(text.timed.wall), cpu: summarize(text.timed.cpu), hits: text.hits },
  };
}

export interface TurnBenchResult {
  runs: number;
  asked: number;
  conversations: number;
  messagesAtEnd: number;
  /** Call → first token (wall, and CPU of the same interval). */
  firstToken: { wall: Latency; cpu: Latency };
  append: Latency;
  /** retrieve + buildContext, as the turn reports it (onContext.retrievalMs). */
  retrieval: Latency;
  vector: Latency;
  /** First token − append − retrieval: conversation lookup and history, prompt assembly. */
  other: Latency;
  factsInContext: number;
}

/** A chat model that answers "OK" at once: the turn's time to its first token is then all overhead. */
function instantModel(onFirstToken: () => void): ChatModel {
  return {
    contextSize: 8192,
    countTokens: (text) => Math.ceil(text.length / 4),
    async streamChat(messages, opts) {
      onFirstToken();
      opts.onToken('OK');
      return { text: 'OK', stopped: false, promptTokens: Math.ceil(messages.reduce((n, m) => n + m.content.length, 0) / 4), completionTokens: 1 };
    },
  };
}

export async function benchChatTurn(memory: Memory, index: VectorIndex | null, options: { runs: number; seed: number; conversations?: number; budgetMs?: number }): Promise<TurnBenchResult> {
  const queries = retrievalQueries(memory);
  const nextVector = unitVectors(options.seed + 11);
  const ranker = index ? precomputedRanker(index, new Map(queries.map((q) => [q, nextVector()]))) : null;
  const conversations = Array.from({ length: options.conversations ?? 4 }, (_, i) => storeOf(memory).episodes.ensureConversation(`cnv_bench_turn_${i}`, `Bench chat ${i + 1}`).id);

  // appendMessage is timed by shadowing it on this instance (the engine is untouched).
  let appendMs: number;
  const original = memory.messages.append.bind(memory.messages);
  memory.messages.append = function (input) {
    const t0 = performance.now();
    try {
      return original(input);
    } finally {
      if (input.role === 'user') appendMs = performance.now() - t0;
    }
  };

  const first = { wall: [] as number[], cpu: [] as number[] };
  const append: number[] = [];
  const retrieval: number[] = [];
  const other: number[] = [];
  let factsInContext = 0;
  const warmup = Math.min(WARMUP, options.runs);
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const base = Date.now() - (warmup + options.runs + 10) * 60_000;
  const started = performance.now();
  try {
    for (let i = 0; i < warmup + options.runs; i++) {
      if (first.wall.length >= MIN_RUNS && performance.now() - started > budgetMs) break;
      let firstAt = 0;
      let firstCpu = 0;
      let retrievalMs = 0;
      let c0 = 0;
      const model = instantModel(() => {
        firstAt = performance.now();
        firstCpu = cpuNow();
      });
      appendMs = 0;
      c0 = cpuNow();
      const t0 = performance.now();
      const result = await runChatTurn(memory, model, ranker, {
        conversationId: conversations[i % conversations.length]!,
        content: queries[i % queries.length]!,
        // One minute apart, in the past: every message is new (ids derive from the time).
        time: new Date(base + i * 60_000).toISOString(),
        onToken: () => undefined,
        onContext: (info) => (retrievalMs = info.retrievalMs),
      });
      if (i < warmup) continue;
      const wall = firstAt - t0;
      first.wall.push(wall);
      first.cpu.push(firstCpu - c0);
      append.push(appendMs);
      retrieval.push(retrievalMs);
      other.push(wall - appendMs - retrievalMs);
      factsInContext += result.factIds.length;
    }
  } finally {
    delete (memory as unknown as { appendMessage?: unknown }).appendMessage;
  }
  const vectorSamples = ranker ? ranker.spent.slice(warmup) : [];
  const runs = first.wall.length;
  const messagesAtEnd = (databaseOf(memory).prepare(`SELECT count(*) AS n FROM episodes WHERE conversation_id IN (${conversations.map(() => '?').join(', ')})`).get(...conversations) as { n: number }).n;
  return {
    runs,
    asked: options.runs,
    conversations: conversations.length,
    messagesAtEnd,
    firstToken: { wall: summarize(first.wall), cpu: summarize(first.cpu) },
    append: summarize(append),
    retrieval: summarize(retrieval),
    vector: summarize(vectorSamples),
    other: summarize(other),
    factsInContext: factsInContext / Math.max(1, runs),
  };
}

const verdict = (value: number, goal: number) => (value <= goal ? 'PASS' : 'MISS');

export function formatVectorBuild(b: VectorBuild): string {
  return (
    `  vector index: ${count(b.rows)} rows × ${DIMENSIONS}${b.rows !== b.facts ? ` (${count(b.facts)} facts + entities + user episodes)` : ' (one per live fact)'}; ` +
    `load ${ms(b.load.wallMs)} (CPU ${ms(b.load.cpuMs)}, ${perSecond(rate(b.rows, b.load.wallMs))}), IVF_RQ build ${ms(b.ann.wallMs)} (CPU ${ms(b.ann.cpuMs)})`
  );
}

export function formatRetrieval(r: RetrievalBenchResult, atGoalSize: boolean): string {
  const head = ['', 'p50', 'p95', 'p99', 'max', 'CPU p50', 'CPU p95', ''];
  const goal = (l: { wall: Latency; cpu: Latency }) =>
    atGoalSize
      ? `wall ${verdict(l.wall.p95, GOAL_HYBRID_P95_MS)}, CPU ${verdict(l.cpu.p95, GOAL_HYBRID_P95_MS)} (goal p95 ≤ ${GOAL_HYBRID_P95_MS} ms)`
      : `(goal p95 ≤ ${GOAL_HYBRID_P95_MS} ms applies at 100k: ${verdict(l.wall.p95, GOAL_HYBRID_P95_MS)} here)`;
  const rows: (string | number)[][] = [
    head,
    ['hybrid retrieve (text+entity+vector)', ms(r.hybrid.wall.p50), ms(r.hybrid.wall.p95), ms(r.hybrid.wall.p99), ms(r.hybrid.wall.max), ms(r.hybrid.cpu.p50), ms(r.hybrid.cpu.p95), goal(r.hybrid)],
    ['  of which the vector search', ms(r.hybrid.vector.p50), ms(r.hybrid.vector.p95), ms(r.hybrid.vector.p99), ms(r.hybrid.vector.max), '', '', 'index.search(kind fact, limit 30), wall'],
    ['  the rest (SQLite, fusion)', ms(r.hybrid.rest.p50), ms(r.hybrid.rest.p95), ms(r.hybrid.rest.p99), ms(r.hybrid.rest.max), '', '', 'retrieve − vector search, wall'],
    ['full-text only retrieve', ms(r.text.wall.p50), ms(r.text.wall.p95), ms(r.text.wall.p99), ms(r.text.wall.max), ms(r.text.cpu.p50), ms(r.text.cpu.p95), 'vectors: null (text + entity + episode)'],
  ];
  return (
    `  ${r.runs.hybrid === r.runs.text ? r.runs.hybrid : `${r.runs.hybrid} hybrid / ${r.runs.text} full-text`} runs${r.runs.hybrid < r.runs.asked || r.runs.text < r.runs.asked ? ` (of ${r.runs.asked} asked: time budget reached)` : ''} over ${r.queries} questions (English and Japanese, names from the store; some ask about the past), limit 10, ` +
    `${r.hybrid.hits.toFixed(1)} hits avg hybrid / ${r.text.hits.toFixed(1)} full-text; query embedding excluded${r.hybrid.vectorsUsed ? '' : ' — WARNING: vectors were not used'}\n${table(rows)}`
  );
}

export function formatTurn(r: TurnBenchResult, atGoalSize: boolean): string {
  const head = ['', 'p50', 'p95', 'p99', 'max', ''];
  const lat = (label: string, l: Latency, note = '') => [label, ms(l.p50), ms(l.p95), ms(l.p99), ms(l.max), note];
  const firstNote = atGoalSize
    ? `wall ${verdict(r.firstToken.wall.p95, GOAL_FIRST_TOKEN_P95_MS)}, CPU ${verdict(r.firstToken.cpu.p95, GOAL_FIRST_TOKEN_P95_MS)} (goal p95 ≤ ${GOAL_FIRST_TOKEN_P95_MS} ms)`
    : `(goal p95 ≤ ${GOAL_FIRST_TOKEN_P95_MS} ms applies at 100k: ${verdict(r.firstToken.wall.p95, GOAL_FIRST_TOKEN_P95_MS)} here)`;
  const rows: (string | number)[][] = [
    head,
    lat('turn start → first token, wall', r.firstToken.wall, firstNote),
    lat('turn start → first token, CPU', r.firstToken.cpu),
    lat('  appendMessage (episode + job)', r.append, 'wall'),
    lat('  retrieve + buildContext', r.retrieval, 'wall (the turn\'s own retrievalMs)'),
    lat('    of which the vector search', r.vector, 'wall'),
    lat('  the rest', r.other, 'wall: conversation + history lookups, recent turns, prompt'),
  ];
  return (
    `  runChatTurn with a model whose first token comes at once: ${r.runs} turns${r.runs < r.asked ? ` (of ${r.asked} asked: time budget reached)` : ''} over ${r.conversations} conversations (${count(r.messagesAtEnd)} messages at the end), ` +
    `${r.factsInContext.toFixed(1)} facts in the context on average\n${table(rows)}`
  );
}

/**
 * --profile: retrieve again with an index on facts(invalidated_by) created on this store (dropped
 * after). retrieve's withPredecessors looks up the facts each current hit closed by
 * `f.invalidated_by = c.id`, which without such an index scans every live fact once per hit.
 */
export async function invalidatedByExperiment(memory: Memory, index: VectorIndex, options: { runs: number; seed: number; facts: number; budgetMs?: number }): Promise<string> {
  const name = 'bench_experiment_facts_by_invalidated_by';
  const plan = () =>
    (databaseOf(memory)
      .prepare('EXPLAIN QUERY PLAN SELECT f.id FROM facts f JOIN facts c ON c.id = f.invalidated_by WHERE c.lineage_id = ? AND f.expired_at IS NULL ORDER BY f.valid_at DESC LIMIT 2')
      .all('x') as { detail: string }[])
      .map((r) => r.detail)
      .join(' | ');
  const before = plan();
  databaseOf(memory).exec(`CREATE INDEX ${name} ON facts(invalidated_by) WHERE expired_at IS NULL`);
  try {
    const r = await benchRetrieval(memory, index, options);
    return [
      `  [plan] predecessors query now: ${before}`,
      `  [experiment] with CREATE INDEX ON facts(invalidated_by) WHERE expired_at IS NULL: plan ${plan()}`,
      `  [experiment]   hybrid retrieve p50 ${ms(r.hybrid.wall.p50)}, p95 ${ms(r.hybrid.wall.p95)} (CPU p50 ${ms(r.hybrid.cpu.p50)}, p95 ${ms(r.hybrid.cpu.p95)}; vector part p95 ${ms(r.hybrid.vector.p95)}); ` +
        `full-text only p50 ${ms(r.text.wall.p50)}, p95 ${ms(r.text.wall.p95)} (CPU p50 ${ms(r.text.cpu.p50)}, p95 ${ms(r.text.cpu.p95)}); ${r.runs.hybrid} / ${r.runs.text} runs`,
    ].join('\n');
  } finally {
    databaseOf(memory).exec(`DROP INDEX ${name}`);
  }
}

/**
 * --profile: hybrid retrieve through another handle on the same vector table that re-ranks
 * `refineFactor` × limit candidates by their exact distance (the default ranks by the codes alone).
 */
export async function refineExperiment(memory: Memory, path: string, refineFactor: number, options: { runs: number; seed: number; facts: number; budgetMs?: number }): Promise<string> {
  const { VectorIndex } = await import('../../electron/memory/index');
  const index = await VectorIndex.open(path, DIMENSIONS, { table: 'items', kinds: ['fact'], refineFactor });
  try {
    const r = await benchRetrieval(memory, index, { ...options, textToo: false });
    return (
      `  [experiment] vector search re-ranking ${refineFactor} × limit candidates by exact distance: ` +
      `hybrid p50 ${ms(r.hybrid.wall.p50)}, p95 ${ms(r.hybrid.wall.p95)} (CPU p50 ${ms(r.hybrid.cpu.p50)}, p95 ${ms(r.hybrid.cpu.p95)}); vector part p50 ${ms(r.hybrid.vector.p50)}, p95 ${ms(r.hybrid.vector.p95)}; ${r.runs.hybrid} runs`
    );
  } finally {
    await index.close();
  }
}

/** --profile: hybrid retrieve with the ranker's search started synchronously inside retrieve() (no await before it). */
export async function noHopExperiment(memory: Memory, index: VectorIndex, options: { runs: number; seed: number; facts: number; budgetMs?: number }): Promise<string> {
  const r = await benchRetrieval(memory, index, { ...options, hop: false, textToo: false });
  return (
    `  [experiment] ranker calling index.search synchronously inside retrieve() (no await before it, unlike the app's ranker): ` +
    `hybrid p50 ${ms(r.hybrid.wall.p50)}, p95 ${ms(r.hybrid.wall.p95)} (CPU p50 ${ms(r.hybrid.cpu.p50)}); vector part p50 ${ms(r.hybrid.vector.p50)}, p95 ${ms(r.hybrid.vector.p95)}; ${r.runs.hybrid} runs`
  );
}
