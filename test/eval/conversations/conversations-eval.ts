/**
 * The conversation set's evaluation (`npm run eval`, or only it: `npm run eval -- --conversations`):
 * at each size the dialogues (plus filler) are built (conversation-memory.ts), every question
 * (questions.ts) goes through `retrieve` — full text, no vectors, no asOf, limit 10, as
 * eval-set.ts's runQuestion does — and recall@5/@10 is reported per kind (and per language), beside
 * the figures last recorded (last-release-figures.ts) with the difference.
 */
import { retrieve, type VectorRanker } from '../../../electron/assistant/retrieval/retrieve';
import { embeddingRanker, KS, LIMIT, liveFacts, recallAtK, resolveFactRef, summarize, type QuestionResult, type Summary } from '../eval-set';
import { buildConversationMemory } from './conversation-memory';
import { LAST_RELEASE_FIGURES, type RecordedFigures } from './last-release-figures';
import { conversationQuestions, KINDS, type ConversationQuestion, type Kind } from './questions';

export interface ConversationResult extends QuestionResult {
  kind: Kind;
  lang: 'en' | 'ja';
  top: string[];
  missing: string[];
}

export interface ConversationReport {
  size: number;
  liveFacts: number;
  dialogueObservations: number;
  fillerObservations: number;
  buildMs: number;
  questions: number;
  byKind: Record<Kind, Summary>;
  byLang: Record<'en' | 'ja', Summary>;
  overall: Summary;
  meanMs: number;
  results: ConversationResult[];
  /** The same questions with vectors, when a model was given. */
  hybrid?: HybridRun;
}

/** A model's part: every fact embedded, each question retrieved with the vector list fused in. */
export interface HybridRun {
  model: string;
  embedMs: number;
  byKind: Record<Kind, Summary>;
  byLang: Record<'en' | 'ja', Summary>;
  overall: Summary;
  meanMs: number;
  results: ConversationResult[];
}

export interface ConversationVectors {
  embed(texts: string[]): Promise<Float32Array[]>;
  prefixes: { query: string; document: string };
  describe: string;
}

export async function runConversations(size: number, options: { log?: (line: string) => void; vectors?: ConversationVectors } = {}): Promise<ConversationReport> {
  const t0 = performance.now();
  const built = buildConversationMemory(size);
  const { memory } = built;
  const buildMs = performance.now() - t0;
  options.log?.(`  conversations at ${size.toLocaleString('en-US')}: ${built.dialogueObservations} dialogue + ${built.fillerObservations.toLocaleString('en-US')} filler observations, built in ${(buildMs / 1000).toFixed(1)} s`);
  try {
    const facts = liveFacts(memory);
    const questions = conversationQuestions(built.dialogues);
    const ask = async (vectors: VectorRanker | null) => {
      const results: ConversationResult[] = [];
      let totalMs = 0;
      for (const question of questions) {
        const expectedIds = question.expected.map((ref) => resolveFactRef(memory, ref, facts));
        const started = performance.now();
        const hits = (await retrieve(memory, question.query, { limit: LIMIT, vectors })).hits;
        const ms = performance.now() - started;
        totalMs += ms;
        const rankedIds = hits.map((h) => h.fact.id);
        results.push(resultOf(question, expectedIds, rankedIds, ms, hits.slice(0, 3).map((h) => h.fact.fact), expectedIds.filter((id) => !rankedIds.includes(id)).map((id) => memory.facts.get(id)?.fact ?? id)));
      }
      return { results, meanMs: totalMs / Math.max(1, questions.length) };
    };
    const summaries = (results: ConversationResult[]) => {
      const of = (keep: (r: ConversationResult) => boolean) => summarize(results.filter(keep));
      return {
        byKind: Object.fromEntries(KINDS.map((k) => [k, of((r) => r.kind === k)])) as Record<Kind, Summary>,
        byLang: { en: of((r) => r.lang === 'en'), ja: of((r) => r.lang === 'ja') },
        overall: summarize(results),
      };
    };
    const { results, meanMs } = await ask(null);
    let hybrid: HybridRun | undefined;
    if (options.vectors) {
      const embedStarted = performance.now();
      const { vectors } = options;
      const ranker = await embeddingRanker(memory, (texts) => vectors.embed(texts), vectors.prefixes, 64);
      const embedMs = performance.now() - embedStarted;
      options.log?.(`  conversations at ${size.toLocaleString('en-US')}: ${facts.length.toLocaleString('en-US')} facts embedded in ${(embedMs / 1000).toFixed(1)} s`);
      const run = await ask(ranker);
      hybrid = { model: options.vectors.describe, embedMs, ...summaries(run.results), meanMs: run.meanMs, results: run.results };
    }
    return {
      size,
      liveFacts: facts.length,
      dialogueObservations: built.dialogueObservations,
      fillerObservations: built.fillerObservations,
      buildMs,
      questions: questions.length,
      ...summaries(results),
      meanMs,
      results,
      hybrid,
    };
  } finally {
    memory.close();
  }
}

function resultOf(question: ConversationQuestion, expectedIds: string[], rankedIds: string[], ms: number, top: string[], missing: string[]): ConversationResult {
  return {
    id: question.id,
    kind: question.kind,
    lang: question.lang,
    // The kinds share the fixture's result shape; only the label differs.
    category: question.kind as unknown as QuestionResult['category'],
    tags: [],
    query: question.query,
    asOf: null,
    historyCue: null,
    expectedIds,
    rankedIds,
    recall: Object.fromEntries(KS.map((k) => [k, recallAtK(expectedIds, rankedIds, k)])),
    ms,
    top,
    missing,
  };
}

const pct = (x: number | undefined) => `${((x ?? 0) * 100).toFixed(1)}%`.padStart(6);
function delta(now: number, then: number | undefined): string {
  if (then === undefined) return '     —';
  const points = Math.round((now - then) * 1000) / 10;
  return `${points < 0 ? '−' : '+'}${Math.abs(points).toFixed(1)}`.padStart(6);
}

/** The figures of one run as last-release-figures.ts records them. */
export function figuresOf(report: ConversationReport): Record<Kind, { r5: number; r10: number }> {
  const round = (x: number | undefined) => Math.round((x ?? 0) * 10_000) / 10_000;
  return Object.fromEntries(KINDS.map((k) => [k, { r5: round(report.byKind[k].recall[5]), r10: round(report.byKind[k].recall[10]) }])) as Record<Kind, { r5: number; r10: number }>;
}

export function formatConversations(reports: readonly ConversationReport[], last: RecordedFigures = LAST_RELEASE_FIGURES): string {
  const lines = [`\n== conversation set (full-text, no vectors; no asOf: a time in the question is retrieval's to read)`];
  lines.push(`   last recorded: ${last.recorded ? `${last.recorded}, ${last.machine}` : 'none yet'} (last-release-figures.ts); Δ in points of recall`);
  lines.push(`${'size'.padEnd(9)} ${'facts'.padStart(8)} ${'kind'.padEnd(11)} ${'n'.padStart(4)}  ${'R@5'.padStart(6)}  ${'R@10'.padStart(6)}  ${'last@5'.padStart(6)}  ${'last@10'.padStart(7)}  ${'Δ@5'.padStart(6)}  ${'Δ@10'.padStart(6)}`);
  for (const r of reports) {
    const recorded = last.sizes[r.size];
    const row = (label: string, s: Summary, then?: { r5: number; r10: number }) => {
      const [r5, r10] = [s.recall[5] ?? 0, s.recall[10] ?? 0];
      return `${r.size.toLocaleString('en-US').padEnd(9)} ${r.liveFacts.toLocaleString('en-US').padStart(8)} ${label.padEnd(11)} ${String(s.questions).padStart(4)}  ${pct(r5)}  ${pct(r10)}  ${then ? pct(then.r5) : '     —'}  ${then ? pct(then.r10).padStart(7) : '      —'}  ${delta(r5, then?.r5)}  ${delta(r10, then?.r10)}`;
    };
    for (const k of KINDS) lines.push(row(k, r.byKind[k], recorded?.[k]));
    lines.push(row('en', r.byLang.en));
    lines.push(row('ja', r.byLang.ja));
    lines.push(row('ALL', r.overall));
  }
  for (const r of reports) lines.push(`  ${r.size.toLocaleString('en-US').padEnd(9)} mean ${r.meanMs.toFixed(1)} ms per question; built in ${(r.buildMs / 1000).toFixed(1)} s`);
  const hybrids = reports.filter((r) => r.hybrid);
  if (hybrids.length) lines.push(formatHybrid(hybrids));
  return lines.join('\n');
}

/** Hybrid beside full text, per kind and language: fusion must not fall below its best part. */
function formatHybrid(reports: readonly ConversationReport[]): string {
  const lines = [`\n== conversation set, hybrid (full text + ${reports[0]!.hybrid!.model}) beside full text; Δ = hybrid − text, in points`];
  lines.push(`${'size'.padEnd(9)} ${'kind'.padEnd(11)} ${'n'.padStart(4)}  ${'text@5'.padStart(6)}  ${'hyb@5'.padStart(6)}  ${'Δ@5'.padStart(6)}  ${'text@10'.padStart(7)}  ${'hyb@10'.padStart(6)}  ${'Δ@10'.padStart(6)}`);
  for (const r of reports) {
    const h = r.hybrid!;
    const row = (label: string, text: Summary, hybrid: Summary) => {
      const [t5, t10, h5, h10] = [text.recall[5] ?? 0, text.recall[10] ?? 0, hybrid.recall[5] ?? 0, hybrid.recall[10] ?? 0];
      return `${r.size.toLocaleString('en-US').padEnd(9)} ${label.padEnd(11)} ${String(text.questions).padStart(4)}  ${pct(t5)}  ${pct(h5)}  ${delta(h5, t5)}  ${pct(t10).padStart(7)}  ${pct(h10)}  ${delta(h10, t10)}`;
    };
    for (const k of KINDS) lines.push(row(k, r.byKind[k], h.byKind[k]));
    lines.push(row('en', r.byLang.en, h.byLang.en));
    lines.push(row('ja', r.byLang.ja, h.byLang.ja));
    lines.push(row('ALL', r.overall, h.overall));
    lines.push(`  ${r.size.toLocaleString('en-US').padEnd(9)} hybrid mean ${h.meanMs.toFixed(1)} ms per question (the in-memory cosine ranker, not LanceDB); ${r.liveFacts.toLocaleString('en-US')} facts embedded in ${(h.embedMs / 1000).toFixed(1)} s`);
  }
  return lines.join('\n');
}

/** The misses at k=10 of one size, the first `max`. */
export function formatConversationMisses(report: ConversationReport, max = 8): string {
  const missed = report.results.filter((r) => (r.recall[LIMIT] ?? 0) < 1);
  const lines = [`\n== conversations at ${report.size.toLocaleString('en-US')}: ${missed.length} questions missed evidence at k=${LIMIT}${missed.length > max ? ` (first ${max})` : ''}`];
  for (const r of missed.slice(0, max)) {
    lines.push(`  [${r.id} ${r.kind}] ${r.query}  (R@10 ${pct(r.recall[LIMIT])})\n      missing: ${r.missing.join(' | ')}\n      top: ${r.top.join(' | ') || '(nothing)'}`);
  }
  return lines.join('\n');
}
