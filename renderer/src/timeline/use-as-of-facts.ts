/**
 * The facts true at the cursor for the as-of panel, a page at a time: asked for once the cursor has
 * rested a moment (a drag asks for the places it stops, not every frame), each answer a page of
 * AS_OF_PAGE with the count of all (listFacts' total), so its cost does not grow with the memory.
 */
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TemporaApi } from '../../../shared/api-contract';
import type { FactRecord } from '../../../shared/memory-schema';
import { memoryKeys } from '../app/query-keys';

/** Facts true at the cursor, a page of AS_OF_PAGE at a time (more on scroll or Show more), asked for once the cursor has rested a moment. */
export const AS_OF_PAGE = 100;
export interface AsOfFacts {
  facts: readonly FactRecord[];
  /** How many facts are true at the cursor in all (more than `facts` while pages are still to come). */
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
}
export function useAsOfFacts(api: TemporaApi, asOf: number, knownAt: string | null): AsOfFacts {
  const [settled, setSettled] = useState(asOf);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(asOf), 150);
    return () => clearTimeout(timer);
  }, [asOf]);
  const answer = useInfiniteQuery({
    queryKey: memoryKeys.timeline({ asOf: settled, knownAt, page: AS_OF_PAGE }),
    queryFn: ({ pageParam }) => api.listFacts({ asOf: new Date(settled).toISOString(), knownAt: knownAt ?? undefined, limit: AS_OF_PAGE, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.facts.length, 0);
      return last.facts.length === AS_OF_PAGE && loaded < last.total ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
  });
  const pages = answer.data?.pages;
  const facts = useMemo(() => (pages ? pages.flatMap((p) => p.facts) : NONE), [pages]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = answer;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  return { facts, total: pages?.[0]?.total ?? 0, hasMore: hasNextPage, loadingMore: isFetchingNextPage, loadMore };
}
const NONE: readonly FactRecord[] = [];
