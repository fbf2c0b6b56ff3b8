/**
 * "What changed", a page at a time (the API's changeFeed: a keyset page read by index, so each
 * costs the same whatever the memory's size); the next page with Show more. A memoryChanged makes
 * the loaded pages stale (query key under 'memory').
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { TemporaApi } from '../../../shared/api-contract';
import type { ValueChange } from '../../../shared/change-feed-contract';
import { memoryKeys } from '../app/query-keys';

export const CHANGE_PAGE = 50;

export interface ChangeFeed {
  changes: readonly ValueChange[];
  loading: boolean;
  error: unknown;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
}

export function useChangeFeed(api: TemporaApi, entity: string): ChangeFeed {
  const feed = useInfiniteQuery({
    queryKey: [...memoryKeys.all, 'changes', { entity }] as const,
    queryFn: ({ pageParam }) => api.changeFeed({ limit: CHANGE_PAGE, ...(entity ? { entity } : {}), ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const pages = feed.data?.pages;
  const changes = useMemo(() => (pages ? pages.flatMap((p) => p.changes) : []), [pages]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = feed;
  return {
    changes,
    loading: feed.isPending,
    error: feed.error,
    hasMore: hasNextPage,
    loadingMore: isFetchingNextPage,
    loadMore: () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
  };
}

/** The changes in runs of the same heading (a month in the user's zone, or a year for times said as a year), in order. */
export function groupByHeading<T>(items: readonly T[], headingOf: (item: T) => string): { heading: string; items: T[] }[] {
  const groups: { heading: string; items: T[] }[] = [];
  for (const item of items) {
    const heading = headingOf(item);
    const last = groups[groups.length - 1];
    if (last && last.heading === heading) last.items.push(item);
    else groups.push({ heading, items: [item] });
  }
  return groups;
}
