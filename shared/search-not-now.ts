/**
 * When nothing true now matches a search of now, what the memory still holds that does: facts that
 * were true before (ended) and facts still to come (a plan, a trip next month), told apart. Counted
 * once here for every face: `tempora search` and MCP's search_memory say it with how to see them
 * (--history, include_history), the Facts screen with its History button.
 */
import type { SearchResponse } from './api-contract';
import { formatCount, plural } from './count-words';

export interface NotNow {
  /** Facts whose matching versions all lie before now. */
  before: number;
  /** Facts with a version held now that begins after now. */
  later: number;
}

/**
 * Whether an empty search asked about now: no as-of or known-at, not history, and no time named in
 * the question ("Berlin last year" is answered as of then, and says so itself).
 */
export function asksNow(found: SearchResponse, asked: { asOf?: string | undefined; knownAt?: string | undefined }): boolean {
  return found.hits.length === 0 && !found.history && !found.time && asked.asOf === undefined && asked.knownAt === undefined;
}

/** The facts (not versions) a history search found, by whether they lie before `now` (ms) or after it. */
export function notNow(history: SearchResponse, now: number): NotNow {
  const later = new Set<string>();
  const all = new Set<string>();
  for (const { fact } of history.hits) {
    all.add(fact.id);
    if (fact.expired_at === null && Date.parse(fact.valid_at) > now) later.add(fact.id);
  }
  return { before: all.size - later.size, later: later.size };
}

/**
 * "1 fact that was true before does", "2 facts that were true before and 1 that will be true later
 * do"; null when there is none.
 */
export function notNowMatches(counts: NotNow): string | null {
  const total = counts.before + counts.later;
  if (total === 0) return null;
  const were = (n: number) => `${n === 1 ? 'was' : 'were'} true before`;
  const willBe = 'will be true later';
  const which =
    counts.later === 0
      ? `${plural(counts.before, 'fact')} that ${were(counts.before)}`
      : counts.before === 0
        ? `${plural(counts.later, 'fact')} that ${willBe}`
        : `${plural(counts.before, 'fact')} that ${were(counts.before)} and ${formatCount(counts.later)} that ${willBe}`;
  return `${which} ${total === 1 ? 'does' : 'do'}`;
}

/**
 * 'No facts true now match "Berlin"; 1 fact that will be true later does: add --history to see it.'
 * (the command line and agents; `see` says how to see them). Null when there is none.
 */
export function notNowWords(query: string, counts: NotNow, see: string): string | null {
  const matches = notNowMatches(counts);
  if (matches === null) return null;
  return `No facts true now match ${JSON.stringify(query)}; ${matches}: ${see} to see ${counts.before + counts.later === 1 ? 'it' : 'them'}.`;
}
