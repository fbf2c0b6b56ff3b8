/**
 * When nothing true now matches a question about now, what the memory still holds that does: facts
 * that were true before (ended) and facts still to come (a plan, a trip next month), told apart. The
 * `tempora search` command and MCP's search_memory say it the same way, each with its own way to
 * see them (--history, include_history).
 */
import type { SearchResponse } from '../../shared/api-contract';
import type { SearchQuery } from './memory-search';

export interface NotNow {
  /** Facts whose matching versions all lie before now. */
  before: number;
  /** Facts with a version held now that begins after now. */
  later: number;
}

/** Nothing true now matched a question about now (no time asked or named, no history): another time may still hold it. */
export function asksNow(found: SearchResponse, request: SearchQuery): boolean {
  return found.hits.length === 0 && !found.history && !found.time && request.asOf === undefined && request.knownAt === undefined;
}

/** The facts (not versions) a history search found, by whether they lie before now or after it. */
export function notNow(history: SearchResponse, now: string): NotNow {
  const later = new Set<string>();
  const all = new Set<string>();
  for (const { fact } of history.hits) {
    all.add(fact.id);
    if (fact.expired_at === null && Date.parse(fact.valid_at) > Date.parse(now)) later.add(fact.id);
  }
  return { before: all.size - later.size, later: later.size };
}

/**
 * 'No facts true now match "Berlin"; 1 fact that will be true later does: add --history to see it.'
 * `see` says how to see them. Null when there is none.
 */
export function notNowWords(query: string, counts: NotNow, see: string): string | null {
  const total = counts.before + counts.later;
  if (total === 0) return null;
  const facts = (n: number) => `${n} ${n === 1 ? 'fact' : 'facts'}`;
  const were = (n: number) => `${n === 1 ? 'was' : 'were'} true before`;
  const willBe = 'will be true later';
  const which =
    counts.later === 0
      ? `${facts(counts.before)} that ${were(counts.before)}`
      : counts.before === 0
        ? `${facts(counts.later)} that ${willBe}`
        : `${facts(counts.before)} that ${were(counts.before)} and ${counts.later} that ${willBe}`;
  return `No facts true now match ${JSON.stringify(query)}; ${which} ${total === 1 ? 'does' : 'do'}: ${see} to see ${total === 1 ? 'it' : 'them'}.`;
}
