/**
 * Drives the real learning path over the scenarios: each on a fresh in-memory Memory, its messages
 * stored in order in one conversation (the assistant's without learning, as the chat stores them),
 * and each user message learned at once with `prepareIngest` (extraction, entity resolution,
 * judgement) and `Memory.applyIngestion`. After each message it reads what the memory holds:
 * - the message's facts: live versions citing it; one that an earlier message of the scenario also
 *   cites was only touched (merged, or closed by this one) and is no false positive;
 * - for each fact the case says this message closes: whether the earlier fact is no longer current
 *   and, when the case says when, closed then.
 */
import type { StructuredModel } from '../../../electron/llm/ports';
import { openMemory, type JobUsage, type Memory } from '../../../electron/memory/index';
import { prepareIngest } from '../../../electron/assistant/ingestion/ingest-message';
import type { FactRecord } from '../../../shared/memory-schema';
import type { CaseMessage, Category, ExpectedClosing, ExpectedFact, Scenario } from './case-schema';
import { dateMatches, objectMatches, predicateMatches, subjectMatches } from './fact-match';

export interface PredictedFact {
  fact: FactRecord;
  /** Also cited by an earlier user message of the scenario. */
  touched: boolean;
}

export type ClosingState = 'resolved' | 'open' | 'missing';

export interface ClosingOutcome {
  closing: ExpectedClosing;
  state: ClosingState;
}

export interface MessageOutcome {
  scenario: string;
  index: number;
  lang: Scenario['lang'];
  category: Category;
  content: string;
  said: { time: string; zone: string };
  expected: ExpectedFact[];
  predicted: PredictedFact[];
  closings: ClosingOutcome[];
  usage: JobUsage;
  ms: number;
  error: string | null;
}

export interface RunOptions {
  /** The model for one scenario (the scripted ones are built from it; a real one is shared). */
  model: (scenario: Scenario) => StructuredModel;
  timeoutMs?: number;
  onMessage?: (outcome: MessageOutcome) => void;
}

export async function runScenarios(scenarios: readonly Scenario[], options: RunOptions): Promise<MessageOutcome[]> {
  const outcomes: MessageOutcome[] = [];
  for (const s of scenarios) {
    const memory = openMemory({ dataDir: ':memory:' });
    try {
      outcomes.push(...(await runScenario(memory, s, options)));
    } finally {
      memory.close();
    }
  }
  return outcomes;
}

async function runScenario(memory: Memory, s: Scenario, options: RunOptions): Promise<MessageOutcome[]> {
  const model = options.model(s);
  const outcomes: MessageOutcome[] = [];
  const userEpisodes: string[] = [];
  const episodeOf: string[] = [];
  for (const [index, message] of s.messages.entries()) {
    const { episode, job } = memory.messages.append({ role: message.role, content: message.content, time: message.time, timeZone: s.zone, conversation: s.id, learn: message.role === 'user' });
    episodeOf[index] = episode.id;
    if (message.role !== 'user' || !job) continue;
    const usage: JobUsage = { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
    const started = performance.now();
    let error: string | null = null;
    try {
      const prepared = await prepareIngest(memory, model, episode, { usage, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
      memory.messages.applyIngestion(job.id, prepared.learning, prepared.usage);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      memory.jobs.fail(job.id, error, usage);
    }
    const ms = performance.now() - started;
    const live = memory.transfer.export().facts.filter((f) => f.expired_at === null);
    const earlier = new Set(userEpisodes);
    const predicted = live.filter((f) => f.episode_ids.includes(episode.id)).map((f) => ({ fact: f, touched: f.episode_ids.some((id) => earlier.has(id)) }));
    const closings = message.closes.map((closing) => ({ closing, state: closed(s, closing, message, live, episodeOf) }));
    const outcome: MessageOutcome = {
      scenario: s.id,
      index,
      lang: s.lang,
      category: message.category ?? s.category,
      content: message.content,
      said: { time: message.time, zone: s.zone },
      expected: message.expect,
      predicted,
      closings,
      usage,
      ms,
      error,
    };
    options.onMessage?.(outcome);
    outcomes.push(outcome);
    userEpisodes.push(episode.id);
  }
  return outcomes;
}

/**
 * What became of the earlier fact: `missing` when no live fact citing its message says it (subject,
 * predicate, object: it was never stored as said, so there is nothing to judge); `open` when one is
 * still current at this message's time (for a corrected date, one with the old date); `resolved`
 * otherwise — and, when the case says when, one of them closed then.
 */
function closed(s: Scenario, closing: ExpectedClosing, message: CaseMessage, live: FactRecord[], episodeOf: string[]): ClosingState {
  const target = s.messages[closing.message]!;
  const old = target.expect[closing.fact]!;
  const cited = live.filter((f) => f.episode_ids.includes(episodeOf[closing.message]!) && subjectMatches(old, f) && predicateMatches(old, f) && objectMatches(old, f));
  if (!cited.length) return 'missing';
  const now = Date.parse(message.time);
  // A corrected date keeps subject, predicate and object: then only a fact with the old date is the old one.
  const dateCorrection = message.expect.some((e) => subjectMatches(e, { subject: old.subject }) && predicateMatches(e, { predicate: old.predicate }) && objectMatches(e, { object: old.object }));
  const oldSaid = { time: target.time, zone: s.zone };
  const isOld = (f: FactRecord) => !dateCorrection || old.valid === 'before' || dateMatches(old.valid, f.valid_at, f.valid_at_precision, oldSaid);
  if (cited.some((f) => isOld(f) && (f.invalid_at === null || Date.parse(f.invalid_at) > now))) return 'open';
  if (closing.at === undefined) return 'resolved';
  const at = closing.at;
  return cited.some((f) => f.invalid_at !== null && dateMatches(at, f.invalid_at, f.invalid_at_precision ?? 'instant', { time: message.time, zone: s.zone })) ? 'resolved' : 'open';
}
