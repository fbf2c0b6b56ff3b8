/** The messages a fact came from (its provenance), and the facts it is linked to by closing. */
import type { EpisodeRecord, FactRecord } from '../../../shared/memory-schema';
import { formatInstantWithZone } from '../../../shared/time-format';
import { factHref, hrefOf } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { formatCount, formatInterval, formatTime, type TimeFormat } from '../common/format';
import { displayZone, offsetMs } from '../common/zoned-time';

/** " (10:00 GMT+9 where it was written)" when the message was written in another offset than the user's. */
function writtenIn(e: EpisodeRecord, format: TimeFormat): string {
  const zone = e.time_zone ?? e.utc_offset;
  if (zone === null) return '';
  const ms = Date.parse(e.reference_time);
  const there = displayZone(zone);
  if (offsetMs(ms, there) === offsetMs(ms, format.timeZone)) return '';
  return ` (${formatInstantWithZone(e.reference_time, { ...format, timeZone: there })} where it was written)`;
}

export function FactSources({ episodes }: { episodes: readonly EpisodeRecord[] }) {
  const format = useTimeFormat();
  return (
    <section aria-labelledby="sources-title">
      <h2 id="sources-title">Source messages ({formatCount(episodes.length)})</h2>
      {episodes.length === 0 && <p className="muted">No source message (imported or entered directly).</p>}
      <ul className="sources">
        {episodes.map((e) => (
          <li key={e.id}>
            <div className="muted small">
              {e.role} · said {formatTime(e.reference_time, format)}
              {writtenIn(e, format)}
              {e.conversation_id && (
                <>
                  {' · '}
                  <a href={hrefOf({ screen: 'chat', conversationId: e.conversation_id, messageId: e.id })}>open conversation</a>
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
  const format = useTimeFormat();
  if (!closedBy && closed.length === 0) return null;
  return (
    <section aria-labelledby="links-title" className="fact-links">
      <h2 id="links-title">Closing links</h2>
      {closedBy && (
        <p>
          <span className="badge closed">closed by</span> <a href={factHref(closedBy.id)}>{closedBy.fact}</a> <span className="muted small">({formatInterval(closedBy, format)})</span>
        </p>
      )}
      {closed.map((f) => (
        <p key={f.id}>
          <span className="badge">closed</span> <a href={factHref(f.id)}>{f.fact}</a> <span className="muted small">({formatInterval(f, format)})</span>
        </p>
      ))}
    </section>
  );
}
