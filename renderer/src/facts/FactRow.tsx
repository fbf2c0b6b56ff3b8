/** One fact in the list (fixed height, for the virtualised list). */
import type { FactRecord } from '../../../shared/memory-schema';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { formatInterval } from '../common/format';
import { FactBadges } from './FactBadges';

export function FactRow({ fact, score }: { fact: FactRecord; score?: number }) {
  const format = useTimeFormat();
  return (
    <a className={`fact-row${fact.expired_at ? ' expired' : ''}`} href={factHref(fact.id)} tabIndex={-1}>
      <span className="fact-row-text">{fact.fact}</span>
      <span className="fact-row-meta">
        <span className="triple">
          <span className="subject">{fact.subject}</span> · <span className="predicate">{fact.predicate}</span> · <span className="object">{fact.object}</span>
        </span>
        <span className="interval">{formatInterval(fact, format)}</span>
        <FactBadges fact={fact} />
        {score !== undefined && <span className="muted small">score {score.toFixed(3)}</span>}
      </span>
    </a>
  );
}
