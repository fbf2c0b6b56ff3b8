/**
 * Under an answer: one quiet line, "Used 9 facts", a disclosure that opens on demand into the facts
 * it was given, each a link to the fact's page (read only once opened). No scores.
 */
import { useId, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import type { FactRecord } from '../../../shared/memory-schema';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { formatEnd, tripleOf } from '../common/format';
import { plural } from '../common/format';

export function UsedFacts({ factIds }: { factIds: readonly string[] }) {
  const api = useApi();
  const format = useTimeFormat();
  const [open, setOpen] = useState(false);
  const listId = useId();
  // The same queries as the facts' pages: null for a fact that can no longer be read (forgotten).
  const facts = useQueries({
    queries: factIds.map((id) => ({ queryKey: memoryKeys.fact(id), queryFn: () => api.factDetails({ id }), enabled: open })),
    combine: (results) => results.map((r): FactRecord | null | undefined => (r.isError ? null : r.data?.fact)),
  });
  if (factIds.length === 0) return <p className="used-facts none">No remembered facts were used.</p>;
  return (
    <div className="used-facts">
      <button type="button" className="link-button used-toggle" aria-expanded={open} aria-controls={open ? listId : undefined} onClick={() => setOpen(!open)}>
        Used {plural(factIds.length, 'fact')}
      </button>
      {open && (
        <ul id={listId}>
          {factIds.map((id, index) => {
            const fact = facts[index];
            return (
              <li key={id}>
                {fact === null ? (
                  <span className="fact-chip gone" title="This fact has been forgotten">
                    forgotten fact
                  </span>
                ) : (
                  <a className="fact-chip" href={factHref(id)} title={fact?.fact ?? id}>
                    {fact ? tripleOf(fact) : '…'}
                    {fact?.invalid_at ? <span className="chip-closed"> ({formatEnd(fact, format)})</span> : null}
                  </a>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
