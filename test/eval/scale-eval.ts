/**
 * The evaluation at scale: for each size, the generated memory (scale-memory.ts) is imported twice —
 * once with the document's ids, once with every id replaced (remapIds) — and every question of
 * scale-questions.ts goes through `retrieve` (full text, no vectors, no as-of: a date or period in
 * the question is retrieval's to read) on both. Reported: recall@5/@10 per category, and the
 * repeatability check — the share of questions whose top 10 (as fact sentences and valid times) is
 * the same on both stores, and the same when asked twice of one store.
 */
import type { FactRecord } from '../../shared/memory-schema';
import type { Memory } from '../../electron/memory/index';
import { retrieve } from '../../electron/assistant/retrieval/retrieve';
import { KS, LIMIT, recallAtK, summarize, type QuestionResult, type Summary } from './eval-set';
import { contentRanker, sameList, signature } from './repeatability';
import type { VectorRanker } from '../../electron/assistant/retrieval/retrieve';
import { importScaleMemory, remapIds, scaleDocument } from './scale-memory';
import { SCALE_CATEGORIES, scaleQuestions, type ScaleCategory, type ScaleQuestion } from './scale-questions';

export const DEFAULT_SCALE_SIZES = [1_000, 10_000, 100_000] as const;
const REMAP_SEED = 20_261_201;

export interface ScaleReport {
  size: number;
  facts: number;
  liveFacts: number;
  buildMs: number;
  questions: number;
  byCategory: Record<ScaleCategory, Summary>;
  overall: Summary;
  repeatability: {
    /** Questions whose top 10 is the same on the store with other ids. */
    acrossStores: number;
    /** Questions whose top 10 is the same when asked twice of one store. */
    sameStore: number;
    /** Hybrid (a content-seeded vector list fused in): the same top 10 on the store with other ids. */
    hybridAcrossStores: number;
    questions: number;
    /** The first few that differ across stores. */
    differing: { id: string; query: string; a: string[]; b: string[] }[];
  };
  meanMs: number;
  results: (QuestionResult & { about: string; top: string[] })[];
}

async function top(memory: Memory, query: string, vectors: VectorRanker | null = null): Promise<FactRecord[]> {
  return (await retrieve(memory, query, { limit: LIMIT, vectors })).hits.map((h) => h.fact);
}

export async function runScale(size: number, options: { log?: (line: string) => void } = {}): Promise<ScaleReport> {
  const log = options.log ?? (() => undefined);
  const t0 = performance.now();
  const document = scaleDocument(size);
  const a = importScaleMemory(document);
  const b = importScaleMemory(remapIds(document, REMAP_SEED));
  const buildMs = performance.now() - t0;
  log(`  ${size.toLocaleString('en-US')} observations: ${document.facts.length.toLocaleString('en-US')} fact versions, two stores built in ${(buildMs / 1000).toFixed(1)} s`);
  try {
    const questions = scaleQuestions(document);
    const results: ScaleReport['results'] = [];
    const differing: ScaleReport['repeatability']['differing'] = [];
    let acrossStores = 0;
    let sameStore = 0;
    let hybridAcrossStores = 0;
    const [va, vb] = [contentRanker(a), contentRanker(b)];
    let totalMs = 0;
    for (const question of questions) {
      const started = performance.now();
      const hits = await top(a, question.query);
      totalMs += performance.now() - started;
      const again = await top(a, question.query);
      const other = await top(b, question.query);
      const sigs = hits.map(signature);
      if (sameList(sigs, again.map(signature))) sameStore++;
      if (sameList(sigs, other.map(signature))) acrossStores++;
      else if (differing.length < 5) differing.push({ id: question.id, query: question.query, a: sigs, b: other.map(signature) });
      const [ha, hb] = await Promise.all([top(a, question.query, va), top(b, question.query, vb)]);
      if (sameList(ha.map(signature), hb.map(signature))) hybridAcrossStores++;
      else if (differing.length < 5) differing.push({ id: `${question.id} (hybrid)`, query: question.query, a: ha.map(signature), b: hb.map(signature) });
      results.push({ ...resultOf(question, hits.map((h) => h.id)), top: sigs.slice(0, 3) });
    }
    const byCategory = Object.fromEntries(SCALE_CATEGORIES.map((c) => [c, summarize(results.filter((r) => (r.category as string) === c))])) as Record<ScaleCategory, Summary>;
    return {
      size,
      facts: document.facts.length,
      liveFacts: document.facts.filter((f) => f.expired_at === null).length,
      buildMs,
      questions: questions.length,
      byCategory,
      overall: summarize(results),
      repeatability: { acrossStores, sameStore, hybridAcrossStores, questions: questions.length, differing },
      meanMs: totalMs / Math.max(1, questions.length),
      results,
    };
  } finally {
    a.close();
    b.close();
  }
}

function resultOf(question: ScaleQuestion, rankedIds: string[]): QuestionResult & { about: string } {
  return {
    id: question.id,
    // The scale categories share the fixture's result shape; only the label differs.
    category: question.category as unknown as QuestionResult['category'],
    tags: [],
    query: question.query,
    asOf: null,
    historyCue: null,
    expectedIds: question.expected,
    rankedIds,
    recall: Object.fromEntries(KS.map((k) => [k, recallAtK(question.expected, rankedIds, k)])),
    ms: 0,
    about: question.about,
  };
}

const pct = (x: number | undefined) => `${((x ?? 0) * 100).toFixed(1)}%`.padStart(6);

export function formatScale(reports: readonly ScaleReport[]): string {
  const lines: string[] = [];
  lines.push(`\n== generated memories (full-text, no vectors; dates and periods are read from the question, no asOf given)`);
  lines.push(`${'size'.padEnd(9)} ${'facts'.padStart(8)} ${'category'.padEnd(12)} ${'n'.padStart(4)}  ${KS.map((k) => `R@${k}`.padStart(6)).join('  ')}  ${KS.map((k) => `all@${k}`.padStart(6)).join('  ')}`);
  for (const r of reports) {
    const row = (label: string, s: Summary) => `${r.size.toLocaleString('en-US').padEnd(9)} ${r.liveFacts.toLocaleString('en-US').padStart(8)} ${label.padEnd(12)} ${String(s.questions).padStart(4)}  ${KS.map((k) => pct(s.recall[k])).join('  ')}  ${KS.map((k) => pct(s.answered[k])).join('  ')}`;
    for (const c of SCALE_CATEGORIES) lines.push(row(c, r.byCategory[c]));
    lines.push(row('ALL', r.overall));
  }
  lines.push('\n  repeatability (same top 10, as sentences and valid times):');
  for (const r of reports) {
    const p = r.repeatability;
    lines.push(`  ${r.size.toLocaleString('en-US').padEnd(9)} same store asked twice ${p.sameStore}/${p.questions}; store with other ids ${p.acrossStores}/${p.questions}, hybrid ${p.hybridAcrossStores}/${p.questions}; mean ${r.meanMs.toFixed(1)} ms per question`);
    for (const d of p.differing.slice(0, 2)) lines.push(`    differs: [${d.id}] ${d.query}\n      a: ${d.a.slice(0, 4).join(' | ')}\n      b: ${d.b.slice(0, 4).join(' | ')}`);
  }
  return lines.join('\n');
}

/** The misses at k=10 of one size, for the report's detail. */
export function formatScaleMisses(report: ScaleReport, max = 12): string {
  const missed = report.results.filter((r) => (r.recall[LIMIT] ?? 0) < 1);
  const lines = [`\n== ${report.size.toLocaleString('en-US')}: ${missed.length} questions missed expected facts at k=${LIMIT}${missed.length > max ? ` (first ${max})` : ''}`];
  for (const r of missed.slice(0, max)) lines.push(`  [${r.id}] ${r.query}  (${r.about}; R@10 ${pct(r.recall[LIMIT])})\n      top: ${r.top.join(' | ') || '(nothing)'}`);
  return lines.join('\n');
}
