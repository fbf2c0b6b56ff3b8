/**
 * `npm run eval -- --extraction --model PATH`: the extraction evaluation (cases-*.ts) through the
 * real learning path with a GGUF chat model loaded by ModelHost, or with `--scripted` the perfect
 * scripted model (the ceiling; no model file needed). Prints the table (report-format.ts) or, with
 * --json, one JSON object: the report, the run's settings and each message's outcome.
 *
 *   npm run eval -- --extraction --model ~/models/Qwen2.5-3B-Instruct-Q4_K_M.gguf
 *   npm run -s eval -- --extraction --model M.gguf --json > extraction.json
 *   --limit N        about N messages: whole scenarios, taken in turn from each language and category
 *   --lang en|ja     one language;  --category NAME: one category (statement, change, ...)
 *   --threads N      llama.cpp threads (default TEMPORA_THREADS, else the physical cores)
 *   --misses         list every message that was not perfect, with what differed
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StructuredModel } from '../../../electron/llm/ports';
import { CATEGORIES, type Category, type Scenario } from './case-schema';
import { EXTRACTION_SCENARIOS, userMessageCount } from './cases';
import { perfectModel } from './perfect-model';
import { formatMisses, formatReport } from './report-format';
import { runScenarios, type MessageOutcome } from './run-scenarios';
import { report, type Report } from './score';

export interface ExtractionEvalOptions {
  model?: string;
  scripted?: boolean;
  limit?: number;
  lang?: string;
  category?: string;
  threads?: number;
  /** llama.cpp GPU backend; false for CPU only (the tests). */
  gpu?: false;
  /** Per model call, ms (default 180 s: a big model on a small CPU is slow). */
  timeoutMs?: number;
  json?: boolean;
  misses?: boolean;
  log?: (line: string) => void;
}

export interface ExtractionEvalResult {
  model: { path: string; name: string | null; sizeBytes: number; loadMs: number } | 'scripted';
  scenarios: number;
  report: Report;
  outcomes: MessageOutcome[];
}

/** Whole scenarios, one from each (language, category) group in turn, until about `limit` user messages. */
export function pickScenarios(all: readonly Scenario[], options: { limit?: number; lang?: string; category?: string }): Scenario[] {
  const wanted = all.filter((s) => (!options.lang || s.lang === options.lang) && (!options.category || s.category === options.category || s.messages.some((m) => m.category === options.category)));
  if (options.limit === undefined) return wanted;
  // category by category, English and Japanese in turn
  const queues = CATEGORIES.flatMap((c) => (['en', 'ja'] as const).map((lang) => wanted.filter((s) => s.category === c && s.lang === lang))).filter((q) => q.length);
  const picked: Scenario[] = [];
  let messages = 0;
  while (messages < options.limit && queues.some((q) => q.length)) {
    for (const q of queues) {
      if (messages >= options.limit) break;
      const next = q.shift();
      if (!next) continue;
      picked.push(next);
      messages += userMessageCount([next]);
    }
  }
  return picked;
}

export async function runExtractionEval(options: ExtractionEvalOptions): Promise<ExtractionEvalResult> {
  const log = options.log ?? (() => undefined);
  const scenarios = pickScenarios(EXTRACTION_SCENARIOS, options);
  if (!scenarios.length) throw new Error('no scenario matches --lang/--category');
  if (options.scripted) {
    const outcomes = await runScenarios(scenarios, { model: (s) => perfectModel(s) });
    return { model: 'scripted', scenarios: scenarios.length, report: report(outcomes), outcomes };
  }
  if (!options.model) throw new Error('--extraction needs --model PATH (a GGUF chat model) or --scripted');
  const { ModelHost } = await import('../../../electron/llm/model-host');
  const { disposeLlamaRuntime } = await import('../../../electron/llm/llama-runtime');
  const stateDir = mkdtempSync(join(tmpdir(), 'tempora-extraction-eval-'));
  const host = new ModelHost({ statePath: join(stateDir, 'model-state.json'), runtime: { ...(options.threads ? { threads: options.threads } : {}), ...(options.gpu === false ? { gpu: false } : {}) }, parallelCalls: 1 });
  try {
    const info = await host.loadChatModel(options.model);
    log(`loaded ${info.name ?? info.path} (${(info.sizeBytes / 1024 / 1024).toFixed(0)} MiB, ${info.threads} threads, gpu ${String(info.gpu)}) in ${Math.round(info.loadMs)} ms; ${userMessageCount(scenarios)} messages in ${scenarios.length} scenarios`);
    const model: StructuredModel = host;
    let done = 0;
    const outcomes = await runScenarios(scenarios, {
      model: () => model,
      timeoutMs: options.timeoutMs ?? 180_000,
      onMessage: (o) => {
        done += 1;
        if (done % 10 === 0) log(`  ${done} messages…`);
        if (o.error) log(`  ${o.scenario}#${o.index}: ${o.error}`);
      },
    });
    return { model: { path: info.path, name: info.name, sizeBytes: info.sizeBytes, loadMs: info.loadMs }, scenarios: scenarios.length, report: report(outcomes), outcomes };
  } finally {
    await host.dispose();
    await disposeLlamaRuntime();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

function parseLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--limit ${JSON.stringify(text)}: a positive number of messages`);
  return n;
}

type CommandArgs = { model?: string; scripted?: boolean; limit?: string; lang?: string; category?: string; threads?: string; json?: boolean; misses?: boolean };

/** The command: parsed options from test/eval/run.ts in, the table or JSON out; a bad option or model file is one line on stderr and exit code 1. */
export async function extractionCommand(args: CommandArgs): Promise<void> {
  try {
    await command(args);
  } catch (error) {
    console.error(`eval --extraction: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

async function command(args: CommandArgs): Promise<void> {
  const threads = args.threads === undefined ? undefined : parseLimit(args.threads);
  if (args.category && !CATEGORIES.includes(args.category as Category)) throw new Error(`--category ${args.category}: one of ${CATEGORIES.join(', ')}`);
  if (args.lang && args.lang !== 'en' && args.lang !== 'ja') throw new Error(`--lang ${args.lang}: en or ja`);
  const result = await runExtractionEval({
    ...(args.model ? { model: args.model } : {}),
    scripted: args.scripted ?? false,
    ...(args.limit ? { limit: parseLimit(args.limit) } : {}),
    ...(args.lang ? { lang: args.lang } : {}),
    ...(args.category ? { category: args.category } : {}),
    ...(threads ? { threads } : {}),
    log: args.json ? (line) => console.error(line) : (line) => console.log(line),
  });
  if (args.json) {
    console.log(JSON.stringify({ model: result.model, scenarios: result.scenarios, report: result.report, outcomes: result.outcomes }, null, 2));
    return;
  }
  const name = result.model === 'scripted' ? 'the perfect scripted model' : (result.model.name ?? result.model.path);
  console.log(formatReport(result.report, `\nExtraction evaluation: ${result.report.overall.messages} messages in ${result.scenarios} scenarios, ${name}.`));
  if (args.misses) console.log(formatMisses(result.outcomes));
}
