/**
 * Retrieval quality (`npm run eval`): builds the fixture memory (fixture-memory.ts), runs every
 * question (questions.ts) through `retrieve` with limit 10 and reports recall@5 and recall@10 —
 * the share of each question's expected facts found in the top k hits, averaged — and the share of
 * questions fully answered, by category and tag, for:
 *   (a) full-text only (text + entities + episodes, no vectors), always;
 *   (b) hybrid (plus vectors), only with a real embedding model:
 *       --embedding-model PATH (or TEMPORA_EVAL_EMBEDDING_MODEL=PATH), a GGUF loaded through
 *       ModelHost; every live fact sentence is embedded and ranked by cosine similarity.
 *       --embedding-model use-en: the Universal Sentence Encoder from npm (sentence-encoder.ts;
 *       English only), a real model on a machine that reaches no GGUF embedding model.
 *       --query-prefix / --document-prefix add the model's instruction prefixes
 *       (e.g. "search_query: " / "search_document: " for nomic-embed).
 *   (c) --random-vectors: hybrid with a seeded random vector list — the chance floor a model's
 *       hybrid numbers must beat (fusion lets any vector list fill slots full text leaves empty).
 * Then it lists the questions that missed expected facts at k=10, with the reason for each miss.
 *
 *   npm run eval                      tables and misses
 *   npm run -s eval -- --json         one JSON object (summaries, per-question results, misses);
 *                                     -s keeps npm's banner off stdout
 *   npm run eval -- --all             also every question's top hits
 *
 * Then the generated memories at scale (scale-eval.ts): 1k, 10k and 100k observations (~100k
 * facts; about a minute in all), questions that hinge on common words, on a named date and on a
 * period, recall per category, and the repeatability check (same top 10 on a store with other ids).
 *   npm run eval -- --size 100000     only that size (repeatable: --size 1k --size 10k)
 *   npm run eval -- --no-scale        the fixture only
 *   npm run eval -- --scale-only      the generated memories only
 *
 * And the conversation set (conversations/): eight long two-person dialogues over months, English
 * and Japanese, told through observe, at the same sizes (the dialogues plus filler facts), its
 * questions in five kinds (single, multi-hop, temporal, two-people, paraphrase), recall@5/@10 per
 * kind beside the figures last recorded (conversations/last-release-figures.ts). In the default run
 * and --scale-only; --no-scale leaves it out.
 *   npm run eval -- --conversations   the conversation set only (sizes as above)
 *   npm run eval -- --conversations --no-scale   the dialogues alone, without filler
 *
 * Extraction quality instead (extraction/run-extraction.ts): the learning path over ~200 messages.
 *   npm run eval -- --extraction --model PATH    (--scripted: the perfect scripted model; --limit N, --json, --misses)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Memory } from '../../electron/memory/index';
import type { VectorRanker } from '../../electron/assistant/retrieval/retrieve';
import { buildEvalMemory, EVAL_NOW, FIXTURE_SESSIONS, fixtureObservationCount } from './fixture-memory';
import { EVAL_QUESTIONS, CATEGORIES } from './questions';
import { fixtureRepeatability } from './repeatability';
import { DEFAULT_SCALE_SIZES, formatScale, formatScaleMisses, runScale, type ScaleReport } from './scale-eval';
import { formatConversationMisses, formatConversations, runConversations, type ConversationReport } from './conversations/conversations-eval';
import { loadSentenceEncoder, SENTENCE_ENCODER_NAME } from './sentence-encoder';
import { breakdown, describeQuery, diagnoseMisses, embeddingRanker, KS, randomRanker, LIMIT, liveFacts, resolveQuestions, runQuestion, type Breakdown, type Miss, type QuestionResult, type ResolvedQuestion, type Summary } from './eval-set';

interface ModeReport {
  mode: 'full-text' | 'hybrid' | 'random-vectors';
  breakdown: Breakdown;
  meanMs: number;
  results: QuestionResult[];
  misses: { id: string; category: string; query: string; terms: string; history: string | null; misses: Miss[] }[];
  note: string | null;
}

const { values: args } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    all: { type: 'boolean', default: false },
    'random-vectors': { type: 'boolean', default: false },
    'embedding-model': { type: 'string' },
    'query-prefix': { type: 'string', default: '' },
    'document-prefix': { type: 'string', default: '' },
    size: { type: 'string', multiple: true },
    'no-scale': { type: 'boolean', default: false },
    'scale-only': { type: 'boolean', default: false },
    conversations: { type: 'boolean', default: false },
    // the extraction evaluation (extraction/run-extraction.ts)
    extraction: { type: 'boolean', default: false },
    model: { type: 'string' },
    scripted: { type: 'boolean', default: false },
    limit: { type: 'string' },
    lang: { type: 'string' },
    category: { type: 'string' },
    threads: { type: 'string' },
    misses: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

/** "100000", "100k", "1m" → a number of observations. */
function parseSize(text: string): number {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim().replaceAll('_', '').replaceAll(',', ''));
  if (!m) throw new Error(`--size ${JSON.stringify(text)}: a number of observations like 10000 or 10k`);
  return Math.round(Number(m[1]) * (m[2]?.toLowerCase() === 'k' ? 1_000 : m[2]?.toLowerCase() === 'm' ? 1_000_000 : 1));
}
const scaleSizes = args['no-scale'] ? [] : args.size?.length ? args.size.flatMap((s) => s.split(',')).map(parseSize) : [...DEFAULT_SCALE_SIZES];

if (args.help) {
  console.log('usage: npm run eval -- [--json] [--all] [--random-vectors] [--embedding-model PATH|use-en] [--query-prefix TEXT] [--document-prefix TEXT] [--size N]... [--no-scale] [--scale-only] [--conversations]');
  console.log('       npm run eval -- --extraction (--model PATH | --scripted) [--json] [--limit N] [--lang en|ja] [--category NAME] [--threads N] [--misses]');
  process.exit(0);
}

async function runMode(memory: Memory, questions: ResolvedQuestion[], mode: ModeReport['mode'], vectors: VectorRanker | null, note: string | null): Promise<ModeReport> {
  const results: QuestionResult[] = [];
  for (const question of questions) results.push(await runQuestion(memory, question, vectors));
  const misses: ModeReport['misses'] = [];
  for (const [i, result] of results.entries()) {
    if ((result.recall[LIMIT] ?? 0) === 1) continue;
    const question = questions[i]!;
    misses.push({
      id: question.id,
      category: question.category,
      query: question.query,
      terms: describeQuery(question.query),
      history: result.historyCue,
      misses: await diagnoseMisses(memory, question, result, vectors),
    });
  }
  const meanMs = results.reduce((s, r) => s + r.ms, 0) / Math.max(1, results.length);
  return { mode, breakdown: breakdown(results), meanMs, results, misses, note };
}

/** An embedding model the eval can run: a GGUF through ModelHost, or `use-en` (sentence-encoder.ts). */
interface EvalEmbedder {
  embed(texts: string[]): Promise<Float32Array[]>;
  describe: string;
  /** Its numbers mean nothing (a tiny file or < 128 dims). */
  toy: boolean;
  close(): Promise<void>;
}

/** Loads the embedding model given, or says why hybrid is skipped. */
async function loadEmbedder(): Promise<EvalEmbedder | { skipped: string }> {
  const path = args['embedding-model'] ?? process.env.TEMPORA_EVAL_EMBEDDING_MODEL;
  if (!path) {
    return { skipped: `no embedding model given (--embedding-model PATH or TEMPORA_EVAL_EMBEDDING_MODEL; --embedding-model ${SENTENCE_ENCODER_NAME} loads the Universal Sentence Encoder from npm, English only): vector recall is only meaningful with a real embedding model` };
  }
  if (path === SENTENCE_ENCODER_NAME) {
    // Vectors made before are kept by text: a second run of the 100k set embeds nothing again.
    const encoder = await loadSentenceEncoder({ cache: join(tmpdir(), 'tempora-eval-use-en.vectors') });
    return { embed: (texts) => encoder.embed(texts), describe: encoder.describe, toy: false, close: async () => undefined };
  }
  const { ModelHost } = await import('../../electron/llm/model-host');
  const { disposeLlamaRuntime } = await import('../../electron/llm/llama-runtime');
  const stateDir = mkdtempSync(join(tmpdir(), 'tempora-eval-'));
  const host = new ModelHost({ statePath: join(stateDir, 'model-state.json') });
  const close = async () => {
    await host.dispose();
    await disposeLlamaRuntime();
    rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    const info = await host.loadEmbeddingModel(path);
    const toy = info.embeddingLength < 128 || info.sizeBytes < 10 * 1024 * 1024;
    const describe = `${info.name ?? info.path} (${info.architecture}, ${info.embeddingLength} dims, ${(info.sizeBytes / 1024 / 1024).toFixed(1)} MiB)`;
    return { embed: (texts) => host.embed(texts), describe, toy, close };
  } catch (error) {
    await close().catch(() => undefined);
    return { skipped: `could not load the embedding model ${path}: ${(error as Error).message}` };
  }
}

const prefixes = () => ({ query: args['query-prefix'] ?? '', document: args['document-prefix'] ?? '' });

/** Embeds the memory's facts with the model and builds the ranker, or says why hybrid is skipped. */
async function hybridRanker(memory: Memory, embedder: EvalEmbedder | { skipped: string }): Promise<{ ranker: VectorRanker; note: string | null } | { skipped: string }> {
  if ('skipped' in embedder) return embedder;
  const started = performance.now();
  const ranker = await embeddingRanker(memory, (texts) => embedder.embed(texts), prefixes());
  const embedMs = Math.round(performance.now() - started);
  const described = `${embedder.describe}; ${liveFacts(memory).length} facts embedded in ${embedMs} ms`;
  return { ranker, note: embedder.toy ? `${described} — WARNING: this looks like a toy model (tiny file or < 128 dims): its numbers mean nothing` : described };
}

const pct = (x: number | undefined) => `${((x ?? 0) * 100).toFixed(1)}%`.padStart(6);

function tableRows(label: string, s: Summary): string {
  return `${label.padEnd(16)} ${String(s.questions).padStart(4)}  ${KS.map((k) => pct(s.recall[k])).join('  ')}  ${KS.map((k) => pct(s.answered[k])).join('  ')}`;
}

function printMode(report: ModeReport): void {
  console.log(`\n== ${report.mode}${report.note ? ` — ${report.note}` : ''} (mean ${report.meanMs.toFixed(1)} ms per question)`);
  console.log(`${'category'.padEnd(16)} ${'n'.padStart(4)}  ${KS.map((k) => `R@${k}`.padStart(6)).join('  ')}  ${KS.map((k) => `all@${k}`.padStart(6)).join('  ')}`);
  for (const category of CATEGORIES) console.log(tableRows(category, report.breakdown.byCategory[category]));
  console.log(tableRows('ALL', report.breakdown.overall));
  console.log('  by tag:');
  for (const [tag, s] of Object.entries(report.breakdown.byTag)) console.log(tableRows(`  ${tag}`, s));
}

function printMisses(report: ModeReport): void {
  console.log(`\n== ${report.mode}: ${report.misses.length} questions missed expected facts at k=${LIMIT}`);
  for (const m of report.misses) {
    console.log(`\n[${m.id} ${m.category}] ${m.query}${m.history ? `   (history: ${m.history})` : ''}`);
    console.log(`   terms: ${m.terms}`);
    for (const miss of m.misses) console.log(`   - missing "${miss.fact}" (${miss.state}): ${miss.reason}`);
  }
}

function printAll(memory: Memory, report: ModeReport): void {
  console.log(`\n== ${report.mode}: every question's top hits`);
  for (const r of report.results) {
    console.log(`\n[${r.id} ${r.category}] ${r.query}  R@5 ${pct(r.recall[5])} R@10 ${pct(r.recall[10])}`);
    r.rankedIds.forEach((id, i) => console.log(`   ${String(i + 1).padStart(2)}${r.expectedIds.includes(id) ? '*' : ' '} ${memory.facts.get(id)?.fact ?? id}`));
  }
}

/** The fixture's part: full text (and hybrid with a model) over the hand-written life, and its repeatability. */
async function fixtureSection(embedder: EvalEmbedder | { skipped: string }): Promise<{ json: object; print: () => void }> {
  const memory = buildEvalMemory();
  const questions = resolveQuestions(memory, EVAL_QUESTIONS);
  const facts = liveFacts(memory);
  const fixture = {
    now: EVAL_NOW,
    sessions: FIXTURE_SESSIONS.length,
    observations: fixtureObservationCount(),
    liveFacts: facts.length,
    currentFacts: facts.filter((f) => f.invalid_at === null).length,
    closedFacts: facts.filter((f) => f.invalid_at !== null).length,
    questions: questions.length,
    questionsByCategory: Object.fromEntries(CATEGORIES.map((c) => [c, questions.filter((q) => q.category === c).length])),
    expectedFacts: questions.reduce((n, q) => n + q.expectedIds.length, 0),
  };

  const reports: ModeReport[] = [await runMode(memory, questions, 'full-text', null, null)];
  if (args['random-vectors']) {
    reports.push(await runMode(memory, questions, 'random-vectors', randomRanker(memory), 'seeded random vector list: the chance floor for hybrid'));
  }
  const hybrid = await hybridRanker(memory, embedder);
  let hybridSkipped: string | null = null;
  if ('skipped' in hybrid) hybridSkipped = hybrid.skipped;
  else reports.push(await runMode(memory, questions, 'hybrid', hybrid.ranker, hybrid.note));
  // The fixture is built through observe: a second build has other (random) ids, the same facts.
  const second = buildEvalMemory();
  const repeat = await fixtureRepeatability(memory, second, EVAL_QUESTIONS);
  const repeatHybrid = await fixtureRepeatability(memory, second, EVAL_QUESTIONS, { hybrid: true });

  const print = () => {
    console.log(`Retrieval evaluation: ${fixture.questions} questions over ${fixture.liveFacts} facts (${fixture.currentFacts} current, ${fixture.closedFacts} closed) from ${fixture.observations} observations in ${fixture.sessions} sessions; now = ${EVAL_NOW}; retrieve limit ${LIMIT}.`);
    console.log(`Questions per category: ${Object.entries(fixture.questionsByCategory).map(([c, n]) => `${c} ${n}`).join(', ')}.`);
    console.log('R@k: mean share of expected facts in the top k hits; all@k: share of questions with every expected fact in the top k.');
    for (const report of reports) printMode(report);
    console.log(`\n  repeatability: the same top 10 on a second build of the fixture (other ids) for ${repeat.same}/${repeat.questions} questions (full text), ${repeatHybrid.same}/${repeatHybrid.questions} (hybrid, content-seeded vector list)`);
    for (const d of [...repeat.differing, ...repeatHybrid.differing].slice(0, 2)) console.log(`    differs: [${d.id}] ${d.query}\n      a: ${d.a.slice(0, 4).join(' | ')}\n      b: ${d.b.slice(0, 4).join(' | ')}`);
    if (hybridSkipped) console.log(`\n== hybrid: skipped — ${hybridSkipped}`);
    else if (!args['random-vectors']) console.log('\n(compare hybrid with --random-vectors, the chance floor: fusion lets any vector list fill empty slots)');
    for (const report of reports) if (report.mode !== 'random-vectors') printMisses(report);
    if (args.all) for (const report of reports) printAll(memory, report);
  };
  return { json: { fixture, limit: LIMIT, ks: KS, modes: reports, hybridSkipped, repeatability: { fullText: repeat, hybrid: repeatHybrid } }, print };
}

async function main(): Promise<void> {
  if (args.extraction) {
    const { extractionCommand } = await import('./extraction/run-extraction');
    await extractionCommand(args);
    return;
  }
  const log = args.json ? () => undefined : (line: string) => console.log(line);
  const embedder = await loadEmbedder();
  try {
    await evaluate(log, embedder);
  } finally {
    if (!('skipped' in embedder)) await embedder.close();
  }
}

async function evaluate(log: (line: string) => void, embedder: EvalEmbedder | { skipped: string }): Promise<void> {
  const fixture = args['scale-only'] || args.conversations ? null : await fixtureSection(embedder);
  if (fixture && !args.json) fixture.print();
  const scale: ScaleReport[] = [];
  const scaleRuns = args.conversations ? [] : scaleSizes;
  if (scaleRuns.length) log(`\n== building the generated memories: ${scaleRuns.map((s) => s.toLocaleString('en-US')).join(', ')} observations`);
  for (const size of scaleRuns) scale.push(await runScale(size, { log }));
  const conversations: ConversationReport[] = [];
  // --conversations asks for the set; --no-scale then means "without filler", not "nothing at all".
  const conversationSizes = args.conversations && args['no-scale'] ? [0] : scaleSizes;
  if (conversationSizes.length) log(`\n== building the conversation set: ${conversationSizes[0] === 0 ? 'its dialogues alone' : `its dialogues plus filler, ${conversationSizes.map((s) => s.toLocaleString('en-US')).join(', ')} observations`}`);
  // With a model, the conversation set is also run hybrid (every fact of each size embedded: ~7 ms a fact with use-en).
  const vectors = 'skipped' in embedder ? undefined : { embed: (texts: string[]) => embedder.embed(texts), prefixes: prefixes(), describe: embedder.describe };
  for (const size of conversationSizes) conversations.push(await runConversations(size, { log, vectors }));
  if (args.json) {
    const lean = <T extends { results: unknown }>(r: T) => ({ ...r, results: args.all ? r.results : undefined });
    console.log(JSON.stringify({ ...fixture?.json, scale: scale.map(lean), conversations: conversations.map(lean) }, null, 2));
    return;
  }
  if (scale.length) {
    console.log(formatScale(scale));
    for (const report of scale) console.log(formatScaleMisses(report, args.all ? Infinity : 8));
  }
  if (conversations.length) {
    console.log(formatConversations(conversations));
    for (const report of conversations) console.log(formatConversationMisses(report, args.all ? Infinity : 8));
  }
}

await main();
