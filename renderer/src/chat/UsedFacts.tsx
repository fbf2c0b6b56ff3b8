/** Under an answer: the facts it was given, each a link to the fact's page. */
import type { FactRecord } from '../../../shared/memory-schema';
import { useApi } from '../app/api-context';
import { factHref } from '../app/router';
import { tripleOf } from '../common/format';
import { useLoad } from '../common/use-load';

export function UsedFacts({ factIds }: { factIds: readonly string[] }) {
  const api = useApi();
  const key = factIds.join(',');
  const facts = useLoad(
    () => Promise.all(factIds.map((id) => api.factDetails({ id }).then((d): FactRecord | null => d.fact, () => null))),
    [api, key],
  );
  if (factIds.length === 0) return <p className="used-facts none">No remembered facts were used.</p>;
  return (
    <div className="used-facts">
      <span className="used-label">Used {factIds.length === 1 ? '1 fact' : `${factIds.length} facts`}:</span>
      <ul>
        {factIds.map((id, index) => {
          const fact = facts.data?.[index];
          return (
            <li key={id}>
              {fact === null ? (
                <span className="fact-chip gone" title="This fact has been forgotten">
                  forgotten fact
                </span>
              ) : (
                <a className="fact-chip" href={factHref(id)} title={fact?.fact ?? id}>
                  {fact ? tripleOf(fact) : '…'}
                  {fact?.invalid_at ? <span className="chip-closed"> (until {fact.invalid_at.slice(0, 10)})</span> : null}
                </a>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
