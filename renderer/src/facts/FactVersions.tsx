/**
 * Every version of a fact (edits, merges, closings), newest first, with both time axes, and for
 * each what changed from the one before (field: before → after, in the user's zone at the
 * precision it was said) and why: your edit, closed by another fact, re-resolved because another
 * fact was edited, imported, learned from a message (shared/fact-history.ts).
 */
import { describeChange, describeReason, versionChanges, type VersionChange, type WriteCause } from '../../../shared/fact-history';
import type { EpisodeRecord, FactRecord } from '../../../shared/memory-schema';
import { factHref, hrefOf } from '../app/router';
import { useTimeFormat, type UserTimeFormat } from '../app/time-format';
import { formatCount, formatInterval, formatTime, objectRepeatsSentence } from '../common/format';
import { FactBadges } from './FactBadges';

export interface FactVersionsProps {
  versions: readonly FactRecord[];
  currentId: string;
  causes: Readonly<Record<string, WriteCause>>;
  /** The fact's source messages, to link a "learned from" to its conversation. */
  episodes: readonly EpisodeRecord[];
}

export function FactVersions({ versions, currentId, causes, episodes }: FactVersionsProps) {
  const format = useTimeFormat();
  // What changed is read oldest to newest; the list shows the newest first.
  const history = new Map(versionChanges(versions, causes).map((c) => [c.id, c]));
  const newestFirst = [...versions].reverse();
  return (
    <section aria-labelledby="versions-title">
      <h2 id="versions-title">Versions ({formatCount(versions.length)})</h2>
      <ol className="versions">
        {newestFirst.map((v) => (
          <li key={v.id} className={v.id === currentId ? 'current' : ''} aria-current={v.id === currentId ? 'true' : undefined} data-version={v.id}>
            <a href={factHref(v.id)}>{v.fact}</a>
            <div className="muted small">
              {objectRepeatsSentence(v) ? '' : `${v.object} · `}true {formatInterval(v, format)} · recorded {formatTime(v.created_at, format)}
              {v.expired_at ? ` → replaced ${formatTime(v.expired_at, format)}` : ' → held now'}
            </div>
            {history.has(v.id) && <VersionWhy version={v} change={history.get(v.id)!} episodes={episodes} format={format} />}
            <FactBadges fact={v} />
          </li>
        ))}
      </ol>
    </section>
  );
}

function VersionWhy({ version, change, episodes, format }: { version: FactRecord; change: VersionChange; episodes: readonly EpisodeRecord[]; format: UserTimeFormat }) {
  const reason = describeReason(change.reason, version);
  let why = <>{reason.text}</>;
  if (reason.link?.kind === 'fact') why = <a href={factHref(reason.link.id)}>{reason.text}</a>;
  if (reason.link?.kind === 'message') {
    const episode = episodes.find((e) => e.id === reason.link!.id);
    why = episode?.conversation_id ? (
      <>
        {reason.text} (<a href={hrefOf({ screen: 'chat', conversationId: episode.conversation_id })}>“{excerpt(episode.content)}”</a>)
      </>
    ) : (
      <>
        {reason.text}
        {episode ? ` (“${excerpt(episode.content)}”)` : ''}
      </>
    );
  }
  return (
    <div className="version-why small">
      <span className="version-reason">Why: {why}</span>
      {change.changes.length > 0 && (
        <ul className="version-changes">
          {change.changes.map((c) => (
            <li key={c.field}>{describeChange(c, format)}</li>
          ))}
        </ul>
      )}
      {change.previous !== null && change.changes.length === 0 && <span className="muted"> · no field changed (its links were rewritten)</span>}
    </div>
  );
}

const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);
