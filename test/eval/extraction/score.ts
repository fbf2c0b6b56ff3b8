/**
 * Scores message outcomes. Per message, expected and stored facts are paired greedily by how many
 * components agree (subject, predicate, object, dates; ties: the earlier fact), one to one, pairs
 * with nothing in common left unpaired. Then, per component and for whole facts:
 *   recall    = expected facts whose partner agrees on it / expected facts,
 *   precision = stored facts whose partner agrees on it / stored facts counted,
 * where a stored fact an earlier message also cites (merged or closed by this one) counts only when
 * it is paired. Plus, per category: `nothing learned` for messages with nothing to learn, and the
 * contradictions the cases name: resolved / (resolved + still open), with the earlier facts that
 * were never stored (`missing`) counted apart. 0/0 is null ("—").
 */
import { CATEGORIES, type Category } from './case-schema';
import { compare, hits, isFull, type ComponentMatch } from './fact-match';
import type { MessageOutcome } from './run-scenarios';

export const COMPONENTS = ['subject', 'predicate', 'object', 'date', 'fact'] as const;
export type Component = (typeof COMPONENTS)[number];

export interface Tally {
  messages: number;
  expected: number;
  predicted: number;
  /** Per component: expected facts recalled / stored facts correct. */
  recalled: Record<Component, number>;
  correct: Record<Component, number>;
  emptyMessages: number;
  emptyClean: number;
  resolved: number;
  open: number;
  missing: number;
  failed: number;
  modelCalls: number;
  ms: number;
}

export interface Scores {
  messages: number;
  expected: number;
  predicted: number;
  recall: Record<Component, number | null>;
  precision: Record<Component, number | null>;
  /** Messages with nothing to learn where nothing was learned, of those messages. */
  nothingLearned: number | null;
  contradictions: { resolved: number; open: number; missing: number; rate: number | null };
  failed: number;
  modelCallsPerMessage: number | null;
  msPerMessage: number | null;
}

export interface MessageScore {
  pairs: { expected: number; predicted: number; match: ComponentMatch }[];
  /** Stored facts counted for precision (fresh ones, and touched ones that were paired). */
  counted: number;
}

const zeroes = (): Record<Component, number> => ({ subject: 0, predicate: 0, object: 0, date: 0, fact: 0 });

export function emptyTally(): Tally {
  return { messages: 0, expected: 0, predicted: 0, recalled: zeroes(), correct: zeroes(), emptyMessages: 0, emptyClean: 0, resolved: 0, open: 0, missing: 0, failed: 0, modelCalls: 0, ms: 0 };
}

export function scoreMessage(outcome: MessageOutcome): MessageScore {
  const candidates: MessageScore['pairs'] = [];
  outcome.expected.forEach((e, i) => outcome.predicted.forEach((p, j) => candidates.push({ expected: i, predicted: j, match: compare(e, p.fact, outcome.said) })));
  candidates.sort((a, b) => hits(b.match) - hits(a.match) || a.expected - b.expected || a.predicted - b.predicted);
  const pairs: MessageScore['pairs'] = [];
  const usedE = new Set<number>();
  const usedP = new Set<number>();
  for (const c of candidates) {
    if (hits(c.match) === 0 || usedE.has(c.expected) || usedP.has(c.predicted)) continue;
    usedE.add(c.expected);
    usedP.add(c.predicted);
    pairs.push(c);
  }
  const counted = outcome.predicted.filter((p, j) => !p.touched || usedP.has(j)).length;
  return { pairs, counted };
}

export function addToTally(tally: Tally, outcome: MessageOutcome): void {
  const { pairs, counted } = scoreMessage(outcome);
  tally.messages += 1;
  tally.expected += outcome.expected.length;
  tally.predicted += counted;
  for (const { match } of pairs) {
    for (const c of COMPONENTS) {
      const ok = c === 'fact' ? isFull(match) : match[c];
      if (ok) {
        tally.recalled[c] += 1;
        tally.correct[c] += 1;
      }
    }
  }
  if (outcome.expected.length === 0) {
    tally.emptyMessages += 1;
    if (counted === 0) tally.emptyClean += 1;
  }
  for (const closing of outcome.closings) tally[closing.state] += 1;
  if (outcome.error !== null) tally.failed += 1;
  tally.modelCalls += outcome.usage.modelCalls;
  tally.ms += outcome.ms;
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : n / d);

export function scoresOf(t: Tally): Scores {
  const recall = zeroes() as Record<Component, number | null>;
  const precision = zeroes() as Record<Component, number | null>;
  for (const c of COMPONENTS) {
    recall[c] = ratio(t.recalled[c], t.expected);
    precision[c] = ratio(t.correct[c], t.predicted);
  }
  return {
    messages: t.messages,
    expected: t.expected,
    predicted: t.predicted,
    recall,
    precision,
    nothingLearned: ratio(t.emptyClean, t.emptyMessages),
    contradictions: { resolved: t.resolved, open: t.open, missing: t.missing, rate: ratio(t.resolved, t.resolved + t.open) },
    failed: t.failed,
    modelCallsPerMessage: ratio(t.modelCalls, t.messages),
    msPerMessage: ratio(t.ms, t.messages),
  };
}

export interface Report {
  overall: Scores;
  byCategory: Record<Category, Scores>;
  byLanguage: Record<'en' | 'ja', Scores>;
}

export function report(outcomes: readonly MessageOutcome[]): Report {
  const overall = emptyTally();
  const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, emptyTally()])) as Record<Category, Tally>;
  const byLanguage = { en: emptyTally(), ja: emptyTally() };
  for (const o of outcomes) {
    addToTally(overall, o);
    addToTally(byCategory[o.category], o);
    addToTally(byLanguage[o.lang], o);
  }
  return {
    overall: scoresOf(overall),
    byCategory: Object.fromEntries(CATEGORIES.map((c) => [c, scoresOf(byCategory[c])])) as Record<Category, Scores>,
    byLanguage: { en: scoresOf(byLanguage.en), ja: scoresOf(byLanguage.ja) },
  };
}
