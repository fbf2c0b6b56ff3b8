/**
 * The Facts screen's words for a search of now that only another time matches (the counting is
 * shared/search-not-now.ts, as `tempora search` and MCP's search_memory count): the screen adds its
 * way to History.
 */
import { notNowMatches, type NotNow } from '../../../shared/search-not-now';

/** 'Nothing true now matches “Berlin”. 1 fact that will be true later does.'; null when History holds none either. */
export function notNowWords(query: string, counts: NotNow): string | null {
  const matches = notNowMatches(counts);
  return matches === null ? null : `Nothing true now matches “${query}”. ${matches}.`;
}
