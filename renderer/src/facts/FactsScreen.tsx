/** Facts: search (hybrid, Japanese too) or list with filters, in a virtualised list; a row opens the fact's page. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import type { TemporaApi } from '../../../shared/api-contract';
import type { FactRecord } from '../../../shared/memory-schema';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { navigate } from '../app/router';
import { ErrorText } from '../common/ErrorText';
import { queryError } from '../common/query-error';
import { useTimeFormat } from '../app/time-format';
import { formatMoment } from '../common/format';
import { instantOfLocalValue } from '../common/time-input';
import { VirtualList } from '../common/VirtualList';
import { useFactFilters, type FactFilters } from './fact-filters';
import { FactFilterBar } from './FactFilterBar';
import { FactRow } from './FactRow';
import { ZoneNote } from '../common/ZoneNote';

interface Result {
  items: { fact: FactRecord; score?: number }[];
  note: string | null;
}

/** `zone`: the user's, in which the as-of date is a day (its start). */
async function loadFacts(api: TemporaApi, f: FactFilters, zone: string): Promise<Result> {
  const asOf = f.asOf ? (instantOfLocalValue(f.asOf, zone) ?? undefined) : undefined;
  const history = f.mode === 'history' ? true : undefined;
  const query = f.query.trim();
  if (query !== '') {
    const found = await api.search({ query, asOf, history, limit: 200 });
    const entity = f.entity.trim().toLowerCase();
    const predicate = f.predicate.trim().toLowerCase();
    const items = found.hits
      .filter((h) => !entity || h.fact.subject.toLowerCase() === entity || h.fact.object.toLowerCase() === entity)
      .filter((h) => !predicate || h.fact.predicate.toLowerCase() === predicate)
      .map((h) => ({ fact: h.fact, score: h.score }));
    const notes = [found.note, found.vectorsUsed ? null : 'Word search only (no embedding model loaded).'].filter((n): n is string => !!n);
    return { items, note: notes.length > 0 ? notes.join(' ') : null };
  }
  const facts = await api.listFacts({
    history,
    asOf,
    entity: f.entity.trim() || undefined,
    predicate: f.predicate.trim() || undefined,
    limit: 200_000,
  });
  // History lists every version: show the newest first.
  if (history) facts.reverse();
  return { items: facts.map((fact) => ({ fact })), note: null };
}

export function FactsScreen() {
  const api = useApi();
  const [filters, update] = useFactFilters();
  const format = useTimeFormat();
  // While new filters load, the list shows the previous answer.
  const result = useQuery({
    queryKey: memoryKeys.factList({ ...filters, timeZone: format.timeZone }),
    queryFn: () => loadFacts(api, filters, format.timeZone),
    placeholderData: keepPreviousData,
    enabled: format.known || filters.asOf === '',
  });
  const entities = useQuery({ queryKey: memoryKeys.entities, queryFn: () => api.listEntities({}) });
  const seenPredicates = useRef(new Set<string>());
  const predicates = useMemo(() => {
    for (const item of result.data?.items ?? []) seenPredicates.current.add(item.fact.predicate);
    return [...seenPredicates.current].sort();
  }, [result.data]);
  const items = result.data?.items ?? [];

  return (
    <div className="facts-screen">
      <header className="screen-header">
        <h1>Facts</h1>
        <p className="muted">
          {filters.mode === 'current' ? 'What is true' : 'Every version, closed and replaced ones too'}
          {filters.asOf ? ` as of ${formatMoment(instantOfLocalValue(filters.asOf, format.timeZone) ?? filters.asOf, format)}` : filters.mode === 'current' ? ' now' : ''}.{' '}
          <ZoneNote zoneName={format.zoneName} />
        </p>
      </header>
      <FactFilterBar zoneName={format.zoneName} filters={filters} entities={(entities.data ?? []).map((e) => e.name)} predicates={predicates} onChange={update} />
      <ErrorText message={queryError(result.error)} />
      <p className="muted small result-count" role="status">
        {result.isPending ? 'Loading…' : `${items.length} ${items.length === 1 ? 'fact' : 'facts'}`}
        {result.data?.note ? ` · ${result.data.note}` : ''}
      </p>
      {items.length === 0 && !result.isFetching ? (
        <p className="muted empty">{filters.query ? 'Nothing matches.' : 'No facts yet. Chat with Tempora, or import a memory file in Export / Import.'}</p>
      ) : (
        <VirtualList
          items={items}
          rowHeight={64}
          label="Facts"
          className="fact-list"
          getKey={(item) => item.fact.id}
          onActivate={(item) => navigate({ screen: 'fact', id: item.fact.id })}
          renderRow={(item) => <FactRow fact={item.fact} score={item.score} />}
        />
      )}
    </div>
  );
}
