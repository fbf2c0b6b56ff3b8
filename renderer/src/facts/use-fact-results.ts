/**
 * What the Facts screen shows for its filters. Words are a search — the hybrid retrieval's best
 * matches, ranked — and the entity and predicate filters narrow that same search (they never switch
 * it to another matcher, so refining a search keeps its hits). Without words, the engine filters in
 * SQL and answers in pages (listFacts: every filter applied before the limit, and the total),
 * fetched as the list scrolls.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ListFactsRequest, TemporaApi } from '../../../shared/api-contract';
import type { FactRecord } from '../../../shared/memory-schema';
import { memoryKeys } from '../app/query-keys';
import type { FactFilters } from './fact-filters';
import { asksNow, notNow, type NotNow } from '../../../shared/search-not-now';

export const FACT_PAGE_SIZE = 200;
/** A search's best matches, at most: more may match (the engine does not count them). */
export const SEARCH_LIMIT = 200;

export interface FactResults {
  items: { fact: FactRecord }[];
  /** How many facts match in all (more than `items` while pages are still to come). */
  total: number;
  /** Whether a search reached its limit: `total` is then how many it shows, not how many match. */
  limited: boolean;
  note: string | null;
  isPending: boolean;
  isFetching: boolean;
  /** Whether the rows are the previous filters' answer, kept on screen while these filters' is on its way. */
  stale: boolean;
  error: unknown;
  /** Asks for the next page, if there is one and none is on its way. */
  loadMore(): void;
  /** A search of now that found nothing: what History holds that matches, before now and later (null: not asked, not known yet, or unread). */
  notNow: NotNow | null;
  /** Whether History is being asked that (the empty list waits for it rather than say "Nothing matches." first). */
  notNowPending: boolean;
}

/** Words make a search (ranked; the filters narrow it); without words the filters page in SQL. */
export function isSearch(f: FactFilters): boolean {
  return f.query.trim() !== '';
}

/** The list's request for the filters (the as-of is the instant main read from what was typed). */
export function listRequest(f: FactFilters): ListFactsRequest {
  const history = f.mode === 'history';
  return {
    history: history || undefined,
    // Every list the newest first: the current facts by when they became true, history by version.
    newestFirst: true,
    asOf: f.asOf || undefined,
    text: f.query.trim() || undefined,
    entity: f.entity.trim() || undefined,
    predicate: f.predicate.trim() || undefined,
  };
}

async function searchFacts(api: TemporaApi, f: FactFilters) {
  const { asOf, history, entity, predicate } = listRequest(f);
  const found = await api.search({ query: f.query.trim(), asOf, history, entity, predicate, limit: SEARCH_LIMIT });
  // The engine's note already says why vectors were not used: one line, not the same thing twice.
  const note = found.note ?? (found.vectorsUsed ? null : 'Word search only (no embedding model loaded).');
  // Best match first; the ranking's scores are the engine's business, not the reader's.
  return { items: found.hits.map((h) => ({ fact: h.fact })), note, asksNow: asksNow(found, { asOf }) };
}

/** The same search in History (the same filters), its facts counted by whether they lie before now or later. */
async function searchNotNow(api: TemporaApi, f: FactFilters): Promise<NotNow> {
  const { entity, predicate } = listRequest(f);
  return notNow(await api.search({ query: f.query.trim(), history: true, entity, predicate, limit: SEARCH_LIMIT }), Date.now());
}

/**
 * How many facts the History view holds (its own count: every version, closed and replaced ones
 * too), asked only when `enabled` (a current list with no filter came back empty); null until known.
 */
export function useHistoryCount(api: TemporaApi, enabled: boolean): number | null {
  const request = { history: true, newestFirst: true } as const;
  const counted = useQuery({
    queryKey: memoryKeys.factList({ ...request, count: true }),
    queryFn: async () => (await api.listFacts({ ...request, limit: 1 })).total,
    enabled,
  });
  return counted.data ?? null;
}

export function useFactResults(api: TemporaApi, filters: FactFilters, zone: string, zoneKnown: boolean): FactResults {
  const search = isSearch(filters);
  const ready = zoneKnown || filters.asOf === '';
  const key = { ...filters, timeZone: zone };
  // While new filters load, the list shows the previous answer.
  const searched = useQuery({
    queryKey: memoryKeys.factList({ ...key, search: true }),
    queryFn: () => searchFacts(api, filters),
    placeholderData: keepPreviousData,
    enabled: ready && search,
  });
  const paged = useInfiniteQuery({
    queryKey: memoryKeys.factList({ ...key, search: false }),
    queryFn: ({ pageParam }) => api.listFacts({ ...listRequest(filters), limit: FACT_PAGE_SIZE, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.facts.length, 0);
      return last.facts.length === FACT_PAGE_SIZE && loaded < last.total ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
    enabled: ready && !search,
  });
  // Nothing true now matched (and the answer is this search's own, not the one before it kept on
  // screen): History is asked whether another time holds a match.
  const askedElsewhere = searched.data?.asksNow === true && !searched.isPlaceholderData;
  const elsewhere = useQuery({
    queryKey: memoryKeys.factList({ ...key, search: true, notNow: true }),
    queryFn: () => searchNotNow(api, filters),
    enabled: ready && search && askedElsewhere,
  });
  const pages = paged.data?.pages;
  const listed = useMemo(() => (pages ?? []).flatMap((p) => p.facts.map((fact) => ({ fact }))), [pages]);
  if (search) {
    const items = searched.data?.items ?? [];
    return {
      items,
      total: items.length,
      limited: items.length >= SEARCH_LIMIT,
      note: searched.data?.note ?? null,
      isPending: searched.isPending,
      isFetching: searched.isFetching,
      stale: searched.isPlaceholderData,
      error: searched.error,
      loadMore: () => undefined,
      notNow: askedElsewhere ? (elsewhere.data ?? null) : null,
      notNowPending: askedElsewhere && elsewhere.isPending && elsewhere.fetchStatus !== 'idle',
    };
  }
  return {
    items: listed,
    total: pages?.[0]?.total ?? 0,
    limited: false,
    note: null,
    notNow: null,
    notNowPending: false,
    isPending: paged.isPending,
    isFetching: paged.isFetching,
    stale: paged.isPlaceholderData,
    error: paged.error,
    loadMore: () => {
      if (paged.hasNextPage && !paged.isFetchingNextPage) void paged.fetchNextPage();
    },
  };
}
