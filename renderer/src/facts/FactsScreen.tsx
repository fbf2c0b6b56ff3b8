/**
 * Facts: search (hybrid, Japanese too) or list with filters, paged in SQL (use-fact-results.ts), in a
 * virtualised list that asks for the next page as it scrolls; a row opens the fact's page. The
 * entity and predicate fields ask for names as the user types (NameField.tsx), never for every entity.
 */
import { useEffect, useRef, useState } from 'react';
import { useApi } from '../app/api-context';
import { navigate } from '../app/router';
import { ErrorText } from '../common/ErrorText';
import { useTimeFormat } from '../app/time-format';
import { formatCount, plural } from '../common/format';
import { momentWords } from '../common/MomentInput';
import { VirtualList } from '../common/VirtualList';
import { useFactFilters, type FactFilters } from './fact-filters';
import { useFactResults, useHistoryCount } from './use-fact-results';
import { FactFilterBar } from './FactFilterBar';
import { FactRow } from './FactRow';
import { rememberOpened, takeFactsNote, takeOpened } from './facts-note';
import type { NotNow } from '../../../shared/search-not-now';
import { notNowWords } from './not-now';
import { ZoneNote } from '../common/ZoneNote';

export function FactsScreen() {
  const api = useApi();
  const [filters, update] = useFactFilters();
  const format = useTimeFormat();
  const result = useFactResults(api, filters, format.timeZone, format.known);
  const items = result.items;
  const total = result.total;
  const unread = result.error != null && items.length === 0;
  const filtered = filters.query !== '' || filters.entity !== '' || filters.predicate !== '';
  const empty = items.length === 0 && !result.isFetching && !unread;
  // An empty list of what is true now may still have a history: asked only then, it says which.
  const inHistory = useHistoryCount(api, empty && !filtered && filters.mode === 'current' && filters.asOf === '');
  // What was just done on a fact's page that took it away ("Forgotten: …"): said here, with the focus
  // on it, so the list it lands on (the search of before, maybe empty now) is not all there is.
  const [note] = useState(takeFactsNote);
  const noteRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => noteRef.current?.focus(), []);
  // Back from a fact opened here: the focus on its row again (VirtualList's returnTo).
  const [back] = useState(takeOpened);
  // To History from an empty list's "Show History": the focus on History's own choice, where the
  // list it switched to is chosen (the button it was on goes with the empty list).
  const screen = useRef<HTMLDivElement>(null);
  const showHistory = () => {
    update({ mode: 'history' });
    screen.current?.querySelector<HTMLInputElement>('input[name="fact-mode"][value="history"]')?.focus();
  };
  const open = (id: string) => {
    rememberOpened(id);
    navigate({ screen: 'fact', id });
  };

  return (
    <div ref={screen} className="facts-screen">
      <header className="screen-header">
        <h1>Facts</h1>
        <p className="muted">
          {filters.mode === 'current' ? 'What is true' : 'Every version, closed and replaced ones too'}
          {filters.asOf ? ` as of ${momentWords(filters.asOf, filters.asOfSaid, format)}` : filters.mode === 'current' ? ' now' : ''}.{' '}
          <ZoneNote zoneName={format.zoneName} />
        </p>
      </header>
      {note && (
        <p ref={noteRef} role="status" className="note" tabIndex={-1}>
          {note}
        </p>
      )}
      <FactFilterBar filters={filters} onChange={update} />
      <ErrorText error={result.error} />
      {/* A list that could not be read says so above, and neither a count nor an empty memory. */}
      <p className="muted small result-count" role="status">
        {unread ? '' : result.isPending ? 'Loading…' : countWords(total, result.limited)}
        {!unread && result.note ? ` · ${result.note}` : ''}
      </p>
      {items.length === 0 && !result.isFetching ? (
        unread ? null : (
          <p className="muted empty">
            <EmptyWords filters={filters} filtered={filtered} inHistory={inHistory} notNow={result.notNow} notNowPending={result.notNowPending} onHistory={showHistory} />
          </p>
        )
      ) : (
        <VirtualList
          items={items}
          rowHeight={64}
          measureRows
          label="Facts"
          className="fact-list"
          busy={result.stale}
          getKey={(item) => item.fact.id}
          onActivate={(item) => open(item.fact.id)}
          returnTo={back}
          renderRow={(item) => <FactRow fact={item.fact} onOpen={() => rememberOpened(item.fact.id)} />}
          onEndReached={result.loadMore}
        />
      )}
    </div>
  );
}

/** How many facts the list holds; a search that reached its limit says these are its first matches, not all. */
function countWords(total: number, limited: boolean): string {
  return limited ? `The first ${formatCount(total)} facts that match; narrow the search to see others` : plural(total, 'fact');
}

interface EmptyProps {
  filters: FactFilters;
  filtered: boolean;
  /** How many facts the History view holds (asked for an empty current list with no filter); null until known. */
  inHistory: number | null;
  /** A search of now that found nothing: the matches History holds, before now and later (null: none asked or known). */
  notNow: NotNow | null;
  notNowPending: boolean;
  onHistory(): void;
}

/**
 * What an empty list says: nothing true now matches the search though facts true before or later do
 * (with a way to History); nothing matches the filters; nothing true at the as-of moment; nothing
 * true now though History holds facts (with a way there); or, only when History is empty too, that
 * there are no facts yet.
 */
function EmptyWords({ filters, filtered, inHistory, notNow, notNowPending, onHistory }: EmptyProps) {
  const format = useTimeFormat();
  if (notNowPending) return null;
  const elsewhere = notNow && notNowWords(filters.query.trim(), notNow);
  if (elsewhere) {
    return (
      <>
        {elsewhere}{' '}
        <button type="button" className="link-button" onClick={onHistory}>
          Show History
        </button>
      </>
    );
  }
  if (filtered) return 'Nothing matches.';
  if (filters.mode === 'current' && filters.asOf !== '') return `No facts are true as of ${momentWords(filters.asOf, filters.asOfSaid, format)}.`;
  if (filters.mode === 'current' && inHistory === null) return null;
  if (filters.mode === 'current' && inHistory !== 0) {
    return (
      <>
        No facts are true now. History holds {plural(inHistory ?? 0, 'fact')}, closed and replaced ones too.{' '}
        <button type="button" className="link-button" onClick={onHistory}>
          Show History
        </button>
      </>
    );
  }
  return 'No facts yet. Chat with Tempora, or import a memory file in Export / Import.';
}
