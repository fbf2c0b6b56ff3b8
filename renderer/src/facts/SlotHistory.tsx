/**
 * On a fact's page: every value its slot (subject · predicate) held over time, newest first, with
 * when each was true — "me · manager" changed 60 times — a page at a time (the API's slotHistory,
 * a keyset page read by the slot's index), more with Show more. The page's own fact is marked.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import type { FactRecord } from '../../../shared/memory-schema';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { formatInterval, pluralise } from '../common/format';
import { queryError } from '../common/query-error';

export const SLOT_PAGE = 20;

export function SlotHistory({ fact }: { fact: FactRecord }) {
  const api = useApi();
  const format = useTimeFormat();
  const history = useInfiniteQuery({
    queryKey: [...memoryKeys.all, 'slot-history', fact.id] as const,
    queryFn: ({ pageParam }) => api.slotHistory({ factId: fact.id, limit: SLOT_PAGE, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
  const pages = history.data?.pages;
  const values = pages ? pages.flatMap((p) => p.facts) : [];
  const total = pages?.[0]?.total ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;
  return (
    <section aria-labelledby="slot-history-title" className="slot-history">
      <h2 id="slot-history-title">
        History of {fact.subject} · {fact.predicate}
        {pages ? ` (${pluralise(total, 'value')})` : ''}
      </h2>
      <ErrorText message={queryError(history.error)} />
      {history.isPending && <p className="muted">Loading…</p>}
      <ol className="slot-values">
        {values.map((v) => (
          <li key={v.id} className={v.id === fact.id ? 'current' : ''} aria-current={v.id === fact.id ? 'true' : undefined}>
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
