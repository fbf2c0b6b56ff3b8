/**
 * When a search of what is true now finds nothing, what History still holds that matches: facts
 * that were true before (ended) and facts still to come (a plan next year), told apart — what
 * `tempora search` and MCP's search_memory say (electron/engine/search-not-now.ts, which the page
 * cannot import), in the Facts screen's own words.
 */
import type { SearchResponse } from '../../../shared/api-contract';
import { formatCount, plural } from '../common/format';

export interface NotNow {
  /** Facts whose matching versions all lie before now. */
  before: number;
  /** Facts held now that begin after now. */
  later: number;
}

/**
 * Whether an empty search asked about now: no as-of, not History, and no time named in the
 * question ("Berlin last year" is answered as of then, and says so itself).
 */
export function asksNow(found: SearchResponse, asOf: string | undefined): boolean {
  return found.hits.length === 0 && !found.history && !found.time && asOf === undefined;
}

/** The facts (by id) a History search found, by whether they lie before `now` or after it. */
export function notNow(history: SearchResponse, now: number = Date.now()): NotNow {
  const later = new Set<string>();
  const all = new Set<string>();
  for (const { fact } of history.hits) {
    all.add(fact.id);
    if (fact.expired_at === null && Date.parse(fact.valid_at) > now) later.add(fact.id);
  }
  return { before: all.size - later.size, later: later.size };
}

/**
 * 'Nothing true now matches “Berlin”. 1 fact that will be true later does.' (the screen adds its
 * way to History); null when History holds none either.
 */
export function notNowWords(query: string, counts: NotNow): string | null {
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
  return `Nothing true now matches “${query}”. ${which} ${total === 1 ? 'does' : 'do'}.`;
}
