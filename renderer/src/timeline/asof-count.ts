/**
 * The as-of panel's count, one sentence as people say it: how many facts were true at the moment,
 * then how many the panel shows ("showing the first 100": Show more loads the rest) or, with a
 * filter, how many of them match it. "are true now" while the cursor follows the clock, "were true
 * then" for a moment before it, "will be true then" for one after it. Every number in the locale's
 * one format (formatCount), the filter in the quotes the app uses for what the user typed.
 *
 *   134 facts are true now · showing the first 100
 *   500 facts are true now · showing the first 100 and 30 from the chart’s rows
 *   817 facts were true then · 16 of the first 400 match “harbour”
 *   107 facts were true then · none match “tokyo”
 *   No facts were true then
 *
 * Until the moment's answer comes, no figure at all (the one on screen is another moment's):
 *
 *   Counting the facts true then…
 */
import { formatCount } from '../common/format';

/** The as-of moment as the count says it: now (following the clock), before now, or after it. */
export type MomentTense = 'now' | 'past' | 'future';

/** `now`: the clock; `following`: the cursor is now, moving with the clock. */
export function tenseOf(asOf: number, now: number, following: boolean): MomentTense {
  if (following) return 'now';
  return asOf <= now ? 'past' : 'future';
}

export interface AsOfCount {
  /** How many facts were true at the moment, in all. */
  total: number;
  /** How many of them the pages loaded so far hold. */
  loaded: number;
  /** Whether pages are still to load. */
  hasMore: boolean;
  /** How many the panel lists: with a filter, those that match it. */
  shown: number;
  /** The timeline's row filter, trimmed; '' for none. */
  filter: string;
  tense: MomentTense;
}

/** Whether every fact true at the moment is listed: nothing more to show (no filter hides any). */
export function everyFactShown({ total, hasMore, shown, filter }: Pick<AsOfCount, 'total' | 'hasMore' | 'shown' | 'filter'>): boolean {
  return !hasMore || (filter === '' && shown >= total);
}

/**
 * How many more facts Show more brings into the list: a page, or fewer when fewer are left — those
 * true at the moment that the list does not show yet. The list may show more than the pages loaded
 * (the chart's rows hold facts of later pages): "170 facts are true now · showing 120" is "Show 50
 * more", never "Show 70 more". With a filter, Show more reads the next facts for matches: as many as
 * are left to read.
 */
export function asOfMoreCount({ total, loaded, shown, filter }: Pick<AsOfCount, 'total' | 'loaded' | 'shown' | 'filter'>, page: number): number {
  const listed = filter === '' ? Math.max(shown, loaded) : loaded;
  return Math.max(0, Math.min(page, total - listed));
}

/** The count line while the moment's answer is on its way: no figure, only that it is being counted. */
export function asOfCountingWords(tense: MomentTense): string {
  return `Counting the facts true ${tense === 'now' ? 'now' : 'then'}…`;
}

/** The count in one sentence; `locale` for the numbers (the browser's unless given). */
export function asOfCountWords(count: AsOfCount, locale?: string): string {
  return asOfCountParts(count, locale).join(' · ');
}

/** The sentence's two parts, how many were true and what is shown of them, for a line that wraps between them. */
export function asOfCountParts(count: AsOfCount, locale?: string): [string] | [string, string] {
  const { total, loaded, shown, filter, tense } = count;
  const n = (x: number) => formatCount(x, locale);
  const when = tense === 'now' ? 'now' : 'then';
  if (total === 0) return [`No facts ${tense === 'now' ? 'are' : tense === 'past' ? 'were' : 'will be'} true ${when}`];
  const one = total === 1;
  const verb = tense === 'now' ? (one ? 'is' : 'are') : tense === 'past' ? (one ? 'was' : 'were') : 'will be';
  const head = `${n(total)} ${one ? 'fact' : 'facts'} ${verb} true ${when}`;
  const all = everyFactShown(count);
  if (filter === '') {
    if (all) return [head];
    // More listed than the pages read: the rest are facts of the chart's rows, named as such (a bare
    // "showing 143" became "showing the first 100" once the chart scrolled, with nothing said why).
    return [head, shown <= loaded ? `showing the first ${n(shown)}` : `showing the first ${n(loaded)} and ${n(shown - loaded)} from the chart’s rows`];
  }
  const quoted = `“${filter}”`;
  const match = (x: number) => (x === 1 ? 'matches' : 'match');
  if (all) {
    if (one) return [head, `${shown > 0 ? 'it matches' : 'it does not match'} ${quoted}`];
    return [head, `${shown === 0 ? 'none' : n(shown)} ${match(shown)} ${quoted}`];
  }
  // Pages still to load: the matches among those loaded, unless the chart's rows listed more.
  if (shown > loaded) return [head, `showing ${n(shown)} that match ${quoted}`];
  return [head, `${shown === 0 ? 'none' : n(shown)} of the first ${n(loaded)} ${match(shown)} ${quoted}`];
}
