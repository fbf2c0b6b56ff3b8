/**
 * On a fact's page: every value its slot (subject · predicate) held over time, newest first, with
 * when each was true — "me · manager" changed 60 times — a page at a time (the API's slotHistory,
 * a keyset page read by the slot's index), more with Show more. The page's own fact is marked.
 * The page asks for it as it opens (useSlotHistory), beside the fact's details, not after them.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { TemporaApi } from '../../../shared/api-contract';
import { sayPredicate } from '../../../shared/predicate-words';
import { memoryKeys } from '../app/query-keys';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { formatInterval, plural } from '../common/format';

export const SLOT_PAGE = 20;

export function useSlotHistory(api: TemporaApi, factId: string) {
  return useInfiniteQuery({
    queryKey: [...memoryKeys.all, 'slot-history', factId] as const,
    queryFn: ({ pageParam }) => api.slotHistory({ factId, limit: SLOT_PAGE, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
}

export function SlotHistory({ factId, history }: { factId: string; history: ReturnType<typeof useSlotHistory> }) {
  const format = useTimeFormat();
  const pages = history.data?.pages;
  const values = pages ? pages.flatMap((p) => p.facts) : [];
  const first = pages?.[0];
  const total = first?.total ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  return (
    <section aria-labelledby="slot-history-title" className="slot-history">
      <h2 id="slot-history-title">{first ? `History of ${first.subject} · ${sayPredicate(first.predicate)} (${plural(total, 'value')})` : 'History of this slot'}</h2>
      <ErrorText error={history.error} />
      {history.isPending && <p className="muted">Loading…</p>}
      <ol className="slot-values">
        {values.map((v) => (
          <li key={v.id} className={v.id === factId ? 'current' : ''} aria-current={v.id === factId ? 'true' : undefined}>
            <a href={factHref(v.id)}>{v.object}</a> <span className="muted small">{formatInterval(v, format)}</span>
          </li>
        ))}
      </ol>
      {hasNextPage && (
        <button type="button" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
          {isFetchingNextPage ? 'Loading…' : `Show more (${(total - values.length).toLocaleString(format.locale)} older)`}
        </button>
      )}
    </section>
  );
}
