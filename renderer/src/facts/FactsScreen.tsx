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
import { plural } from '../common/format';
import { momentWords } from '../common/MomentInput';
import { VirtualList } from '../common/VirtualList';
import { useFactFilters } from './fact-filters';
import { useFactResults } from './use-fact-results';
import { FactFilterBar } from './FactFilterBar';
import { FactRow } from './FactRow';
import { rememberOpened, takeFactsNote, takeOpened } from './facts-note';
import { ZoneNote } from '../common/ZoneNote';

export function FactsScreen() {
  const api = useApi();
  const [filters, update] = useFactFilters();
  const format = useTimeFormat();
  const result = useFactResults(api, filters, format.timeZone, format.known);
  const items = result.items;
  const total = result.total;
  const unread = result.error != null && items.length === 0;
  // What was just done on a fact's page that took it away ("Forgotten: …"): said here, with the focus
  // on it, so the list it lands on (the search of before, maybe empty now) is not all there is.
  const [note] = useState(takeFactsNote);
  const noteRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => noteRef.current?.focus(), []);
  // Back from a fact opened here: the focus on its row again (VirtualList's returnTo).
  const [back] = useState(takeOpened);
  const open = (id: string) => {
    rememberOpened(id);
    navigate({ screen: 'fact', id });
  };

  return (
    <div className="facts-screen">
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
        {unread ? '' : result.isPending ? 'Loading…' : plural(total, 'fact')}
        {!unread && result.note ? ` · ${result.note}` : ''}
      </p>
      {items.length === 0 && !result.isFetching ? (
        unread ? null : (
          <p className="muted empty">{filters.query || filters.entity || filters.predicate ? 'Nothing matches.' : 'No facts yet. Chat with Tempora, or import a memory file in Export / Import.'}</p>
        )
      ) : (
        <VirtualList
          items={items}
          rowHeight={64}
          measureRows
          label="Facts"
          className="fact-list"
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
