/**
 * The as-of panel's count, one sentence as people say it: how many facts were true at the moment,
 * then how many the panel shows (the pages it read: "showing the first 100", Show more reads the rest) or, with a
 * filter, how many of them match it. "are true now" while the cursor follows the clock, "were true
 * then" for a moment before it, "will be true then" for one after it. Every number in the locale's
 * one format (formatCount), the filter in the quotes the app uses for what the user typed.
 *
 *   134 facts are true now · showing the first 100
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
 * How many more facts Show more brings into the list: a page, or fewer when fewer are left to read.
 * The list is the pages read ("170 facts are true now · showing the first 100" is "Show 70 more");
 * with a filter, Show more reads the next facts for matches.
 */
export function asOfMoreCount({ total, loaded }: Pick<AsOfCount, 'total' | 'loaded'>, page: number): number {
  return Math.max(0, Math.min(page, total - loaded));
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
  // The list is the pages read, newest first: what it shows is always their first facts.
  if (filter === '') return all ? [head] : [head, `showing the first ${n(shown)}`];
  const quoted = `“${filter}”`;
  const match = (x: number) => (x === 1 ? 'matches' : 'match');
  if (all) {
    if (one) return [head, `${shown > 0 ? 'it matches' : 'it does not match'} ${quoted}`];
    return [head, `${shown === 0 ? 'none' : n(shown)} ${match(shown)} ${quoted}`];
  }
  // Pages still to load: the matches among those loaded.
  return [head, `${shown === 0 ? 'none' : n(shown)} of the first ${n(loaded)} ${match(shown)} ${quoted}`];
}
