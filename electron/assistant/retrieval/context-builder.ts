/**
 * Turns retrieved facts into the block of memory the chat model reads: current facts first, then
 * (when asked for) history with each interval written out — "from 2026-09-01 until 2026-09-15",
 * "since 2026-09-15, current" — in the facts' own language, cut to a token budget.
 */
import type { FactRecord } from '../../../shared/memory-schema';
import { isoDate } from '../../../shared/time';

export interface ContextBlock {
  text: string;
  /** The facts that made it into the block, in order. */
  factIds: string[];
  /** Facts left out for lack of budget. */
  dropped: number;
  tokens: number;
}

export interface ContextOptions {
  /** Tokens the block may take. */
  budget: number;
  countTokens: (text: string) => number;
  now: string;
}

export function describeInterval(fact: Pick<FactRecord, 'valid_at' | 'invalid_at'>, now: string): string {
  if (fact.invalid_at === null) return `since ${isoDate(fact.valid_at)}, current`;
  if (fact.invalid_at <= now) return `from ${isoDate(fact.valid_at)} until ${isoDate(fact.invalid_at)}`;
  return `from ${isoDate(fact.valid_at)}, until ${isoDate(fact.invalid_at)} (planned)`;
}

export function isCurrent(fact: FactRecord, now: string): boolean {
  return fact.expired_at === null && fact.valid_at <= now && (fact.invalid_at === null || fact.invalid_at > now);
}

/** Facts in retrieval order; current ones are listed first, history after, each group in its order. */
export function buildContext(facts: FactRecord[], options: ContextOptions): ContextBlock {
  const current = facts.filter((f) => isCurrent(f, options.now));
  const history = facts.filter((f) => !isCurrent(f, options.now) && f.expired_at === null);
  const header = `What you remember about the user (today is ${isoDate(options.now)}):`;
  const lines: string[] = [header];
  const factIds: string[] = [];
  let tokens = options.countTokens(header);
  let dropped = 0;
  const section = (title: string, group: FactRecord[]) => {
    let titled = false;
    for (const f of group) {
      const line = `- ${f.fact} (${describeInterval(f, options.now)})`;
      const cost = options.countTokens(line) + 1 + (titled ? 0 : options.countTokens(title) + 1);
      if (tokens + cost > options.budget) {
        dropped++;
        continue;
      }
      if (!titled) lines.push(title);
      titled = true;
      lines.push(line);
      factIds.push(f.id);
      tokens += cost;
    }
  };
  section('Current facts:', current);
  section('History (no longer true, or not yet):', history);
  if (factIds.length === 0) return { text: '', factIds, dropped, tokens: 0 };
  return { text: lines.join('\n'), factIds, dropped, tokens };
}
