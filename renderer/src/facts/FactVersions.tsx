/** Every version of a fact (edits, merges), oldest first, with both time axes. */
import type { FactRecord } from '../../../shared/memory-schema';
import { factHref } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { formatInterval, formatTime } from '../common/format';
import { FactBadges } from './FactBadges';

export function FactVersions({ versions, currentId }: { versions: readonly FactRecord[]; currentId: string }) {
  const format = useTimeFormat();
  return (
    <section aria-labelledby="versions-title">
      <h2 id="versions-title">Versions ({versions.length})</h2>
      <ol className="versions">
        {versions.map((v) => (
          <li key={v.id} className={v.id === currentId ? 'current' : ''} aria-current={v.id === currentId ? 'true' : undefined}>
            <a href={factHref(v.id)}>{v.fact}</a>
            <div className="muted small">
              {v.object} · true {formatInterval(v, format)} · recorded {formatTime(v.created_at, format)}
              {v.expired_at ? ` → replaced ${formatTime(v.expired_at, format)}` : ' → held now'}
            </div>
            <FactBadges fact={v} />
          </li>
        ))}
      </ol>
    </section>
  );
}
