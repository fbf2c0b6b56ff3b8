/** The messages a fact came from (its provenance), and the facts it is linked to by closing. */
import type { EpisodeRecord, FactRecord } from '../../../shared/memory-schema';
import { factHref, hrefOf } from '../app/router';
import { formatInterval, formatTime } from '../common/format';

export function FactSources({ episodes }: { episodes: readonly EpisodeRecord[] }) {
  return (
    <section aria-labelledby="sources-title">
      <h2 id="sources-title">Source messages ({episodes.length})</h2>
      {episodes.length === 0 && <p className="muted">No source message (imported or entered directly).</p>}
      <ul className="sources">
        {episodes.map((e) => (
          <li key={e.id}>
            <div className="muted small">
              {e.role} · said {formatTime(e.reference_time)}
              {e.conversation_id && (
                <>
                  {' · '}
                  <a href={hrefOf({ screen: 'chat', conversationId: e.conversation_id })}>open conversation</a>
                </>
              )}
            </div>
            <blockquote>{e.content}</blockquote>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function FactLinks({ closedBy, closed }: { closedBy: FactRecord | null; closed: readonly FactRecord[] }) {
  if (!closedBy && closed.length === 0) return null;
  return (
    <section aria-labelledby="links-title" className="fact-links">
      <h2 id="links-title">Closing links</h2>
      {closedBy && (
        <p>
          <span className="badge closed">closed by</span> <a href={factHref(closedBy.id)}>{closedBy.fact}</a> <span className="muted small">({formatInterval(closedBy)})</span>
        </p>
      )}
      {closed.map((f) => (
        <p key={f.id}>
          <span className="badge">closed</span> <a href={factHref(f.id)}>{f.fact}</a> <span className="muted small">({formatInterval(f)})</span>
        </p>
      ))}
    </section>
  );
}
