/** One fact in the list (fixed height, for the virtualised list). */
import type { FactRecord } from '../../../shared/memory-schema';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { formatInterval } from '../common/format';
import { FactTriple } from '../common/FactTriple';
import { FactBadges } from './FactBadges';

/** `onOpen`: the row's link was followed (a click), before the fact's page opens. */
export function FactRow({ fact, onOpen }: { fact: FactRecord; onOpen?(): void }) {
  const format = useTimeFormat();
  return (
    <a className={`fact-row${fact.expired_at ? ' expired' : ''}`} href={factHref(fact.id)} tabIndex={-1} onClick={onOpen}>
      <span className="fact-row-text">{fact.fact}</span>
      <span className="fact-row-meta">
        <span className="triple">
          <FactTriple fact={fact} />
        </span>
        <span className="interval">{formatInterval(fact, format)}</span>
        <FactBadges fact={fact} />
      </span>
    </a>
  );
}
