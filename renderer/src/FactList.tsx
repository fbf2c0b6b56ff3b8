import type { FactRecord } from '../../shared/memory-schema';
import { isoDate } from '../../shared/time';

export function FactList({ facts }: { facts: readonly FactRecord[] }) {
  if (facts.length === 0) {
    return (
      <p className="status">
        No facts yet. Add some with <code>npm run tempora -- observe FILE.jsonl</code>.
      </p>
    );
  }
  return (
    <ul className="facts" aria-label="Current facts">
      {facts.map((fact) => (
        <li key={fact.id} className="fact">
          <div className="triple">
            <span className="subject">{fact.subject}</span>
            <span className="sep" aria-hidden="true">·</span>
            <span className="predicate">{fact.predicate}</span>
            <span className="sep" aria-hidden="true">·</span>
            <span className="object">{fact.object}</span>
          </div>
          <div className="sentence">{fact.fact}</div>
          <div className="interval">
            <time dateTime={fact.valid_at} title={fact.valid_at}>
              {isoDate(fact.valid_at)}
            </time>
            <span aria-label="until"> → </span>
            {fact.invalid_at === null ? (
              <span className="open">now</span>
            ) : (
              <time dateTime={fact.invalid_at} title={fact.invalid_at}>
                {isoDate(fact.invalid_at)}
              </time>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
