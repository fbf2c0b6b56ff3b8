/**
 * The facts true at the cursor for the as-of panel, a page at a time: asked for once the cursor has
 * rested a moment (a drag asks for the places it stops, not every frame), each answer a page of
 * AS_OF_PAGE with the count of all (listFacts' total), so its cost does not grow with the memory.
 *
 * The next page comes with Show more (loadMore: one page a press), or by itself as the list's end
 * comes into view (autoLoad). The timeline's filter is applied in the page, so a filter that hides
 * most answers leaves the list shorter than its viewport, its end always in view: by itself the
 * panel loads at most AUTO_PAGES pages beyond the first for a cursor stop, and AUTO_PAGES more each
 * time the user scrolls the list to its end — never every page of a large memory. A memoryChanged
 * refetches only the pages loaded.
 *
 * A call that fails is said, not waited on: `error` holds why, the pages already loaded kept. A
 * first page (or a refetch of the pages loaded) that failed is asked again with retry (Try again); a
 * next page that failed (`failedMore`) with Show more, never by itself as the list's end shows.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TemporaApi } from '../../../shared/api-contract';
import type { FactRecord } from '../../../shared/memory-schema';
import { memoryKeys } from '../app/query-keys';
import type { EndReached } from '../common/VirtualList';

/** Facts true at the cursor, a page of AS_OF_PAGE at a time (more on scroll or Show more), asked for once the cursor has rested a moment. */
export const AS_OF_PAGE = 100;
/** Pages the panel loads by itself beyond the first, for a cursor stop or a scroll to the end; past them, Show more. */
export const AUTO_PAGES = 3;
export interface AsOfFacts {
  facts: readonly FactRecord[];
  /** How many facts are true at the cursor in all (more than `facts` while pages are still to come). */
  total: number;
  /**
   * Whether the first page for this very moment (and known-at moment) has answered: until then
   * `total` is not known — while a new moment is asked for, `facts`, `total` and `hasMore` are
   * still the previous moment's answer (kept on screen, marked as such), never its count.
   */
  counted: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  /** Why the last call failed (the first page, a next page, or a refetch of those loaded); null while none has. */
  error: unknown;
  /** Whether what failed was a next page: the pages loaded are current, Show more asks for it again. */
  failedMore: boolean;
  /** Asks again for the pages that failed (the first) or were loaded (a refetch). */
  retry(): void;
  /** The next page, asked for by the user (Show more). */
  loadMore(): void;
  /** The next page as the list's end comes into view: at most AUTO_PAGES in a row unless the user scrolled. */
  autoLoad(reason: EndReached): void;
}
/**
 * `enabled`: false until the chart's first rows have answered (the chart is the screen's first
 * content; the panel follows). `following`: the cursor is now, moving with the clock: the answer is
 * one list asked again each minute, every page loaded (Show more's too), never a new list per minute.
 */
export function useAsOfFacts(api: TemporaApi, asOf: number, knownAt: string | null, enabled = true, following = false): AsOfFacts {
  const [settled, setSettled] = useState(asOf);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(asOf), 150);
    return () => clearTimeout(timer);
  }, [asOf]);
  const answer = useInfiniteQuery({
    queryKey: memoryKeys.timeline({ asOf: following ? 'now' : settled, knownAt, page: AS_OF_PAGE }),
    queryFn: ({ pageParam }) => api.listFacts({ asOf: new Date(following ? Date.now() : settled).toISOString(), knownAt: knownAt ?? undefined, newestFirst: true, limit: AS_OF_PAGE, offset: pageParam }),
    refetchInterval: following ? 60_000 : false,
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.facts.length, 0);
      return last.facts.length === AS_OF_PAGE && loaded < last.total ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
    enabled,
  });
  const pages = answer.data?.pages;
  const facts = useMemo(() => (pages ? pages.flatMap((p) => p.facts) : NONE), [pages]);
  const { hasNextPage, isFetchingNextPage, isPlaceholderData, fetchNextPage, isFetchNextPageError, refetch } = answer;
  // Never the next page of another cursor stop's answer (the one shown while this one loads).
  const canLoad = hasNextPage && !isFetchingNextPage && !isPlaceholderData;
  const retry = useCallback(() => void refetch(), [refetch]);
  const loadMore = useCallback(() => {
    if (canLoad) void fetchNextPage();
  }, [canLoad, fetchNextPage]);
  // Pages still to load by themselves for this cursor stop (and known-at moment).
  const stop = `${following ? 'now' : settled}|${knownAt ?? ''}`;
  const budget = useRef({ stop, left: AUTO_PAGES });
  const autoLoad = useCallback(
    ({ scrolled }: EndReached) => {
      if (budget.current.stop !== stop || scrolled) budget.current = { stop, left: AUTO_PAGES };
      // A next page that failed is asked again by the user (Show more), not as the end stays in view.
      if (!canLoad || isFetchNextPageError || budget.current.left <= 0) return;
      budget.current.left -= 1;
      void fetchNextPage();
    },
    [canLoad, isFetchNextPageError, fetchNextPage, stop],
  );
  // The answer is this moment's once the cursor has rested on it (or follows the clock) and it is no placeholder.
  const counted = pages !== undefined && !isPlaceholderData && (following || settled === asOf);
  return { facts, total: pages?.[0]?.total ?? 0, counted, hasMore: hasNextPage, loadingMore: isFetchingNextPage, error: answer.error, failedMore: isFetchNextPageError, retry, loadMore, autoLoad };
}
const NONE: readonly FactRecord[] = [];
