/**
 * What changed: the memory's changes in valid time (when they changed in the world), newest first,
 * grouped by month in the user's zone — "October 2025 · me · manager: Aiko Tanaka → Kenji Sato" —
 * each a link to the fact and to the message that said it; filtered by an entity (the facts about
 * it); a page at a time (use-change-feed.ts), more with Show more. Changes still to come (an end
 * said as "until March 2027") are folded under one line above them, the soonest named: the screen
 * opens on what has changed, not on next year.
 */
import { useEffect, useState } from 'react';
import type { ValueChange } from '../../../shared/change-feed-contract';
import { sayPredicate } from '../../../shared/predicate-words';
import { formatAt, formatSaid } from '../../../shared/time-format';
import { useApi } from '../app/api-context';
import { factHref, hrefOf } from '../app/router';
import { useTimeFormat, type UserTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { plural } from '../common/format';
import { ZoneNote } from '../common/ZoneNote';
import { NameField } from '../facts/NameField';
import { groupByHeading, useChangeFeed } from './use-change-feed';

/** The month it changed in, in the user's zone (a month or year said: as said, formatSaid); a time said as a year is its year. */
const headingOf = (c: ValueChange, format: UserTimeFormat) => (c.precision === 'month' || c.precision === 'year' ? formatSaid(c.at, c.precision, format) : formatAt(c.at, 'month', format));

export function ChangesScreen() {
  const api = useApi();
  const format = useTimeFormat();
  const [typed, setTyped] = useState('');
  const [entity, setEntity] = useState('');
  // The filter is asked for once typing rests, not on every key.
  useEffect(() => {
    const timer = setTimeout(() => setEntity(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const feed = useChangeFeed(api, entity);
  // Newest first: the changes still to come lead the list.
  const [now] = useState(() => Date.now());
  const firstPast = feed.changes.findIndex((c) => Date.parse(c.at) <= now);
  const coming = firstPast < 0 ? feed.changes : feed.changes.slice(0, firstPast);
  const past = firstPast < 0 ? [] : feed.changes.slice(firstPast);
  const months = (changes: readonly ValueChange[], key: string) =>
    groupByHeading(changes, (c) => headingOf(c, format)).map((group, i) => <ChangeMonth key={`${key}-${group.heading}-${i}`} id={`change-${key}-${i}`} heading={group.heading} changes={group.items} format={format} />);
  const soonest = coming.at(-1);

  return (
    <div className="changes-screen">
      <header className="screen-header">
        <h1>What changed</h1>
        <p className="muted">
          When things changed in the world, newest first. <ZoneNote zoneName={format.zoneName} />
        </p>
      </header>
      <div className="toolbar" role="search" aria-label="Filter changes">
        <NameField kind="entity" label="About" listId="change-entity-names" value={typed} onChange={setTyped} />
      </div>
      <ErrorText error={feed.error} />
      {!feed.loading && !feed.error && feed.changes.length === 0 && (
        <p className="muted" role="status">
          {entity ? `Nothing has changed about “${entity}” — or the memory knows no one by that name.` : 'Nothing has changed yet: the memory holds no facts.'}
        </p>
      )}
      {feed.loading && <p className="muted">Loading…</p>}
      {soonest && (
        <details className="changes-coming">
          <summary>
            {plural(coming.length, 'change')} still to come{feed.hasMore && past.length === 0 ? ' (and more)' : ''} — the soonest {soonest.kind === 'ended' ? 'ends' : 'begins'} {formatSaid(soonest.at, soonest.precision, format)}: {soonest.subject} · {sayPredicate(soonest.predicate)}
          </summary>
          {months(coming, 'coming')}
        </details>
      )}
      {months(past, 'past')}
      {feed.hasMore && (
        <p>
          <button type="button" onClick={feed.loadMore} disabled={feed.loadingMore}>
            {feed.loadingMore ? 'Loading…' : 'Show more'}
          </button>
        </p>
      )}
    </div>
  );
}

const KIND_LABEL: Record<ValueChange['kind'], string> = { replaced: 'changed', added: 'new', ended: 'ended' };
/** "ended" only for an end in the past; one still to come (said as "until 31 Dec 2026") "ends": still true, not struck through. */
const endsLater = (c: ValueChange) => c.kind === 'ended' && Date.parse(c.at) > Date.now();

function ChangeMonth({ id, heading, changes, format }: { id: string; heading: string; changes: readonly ValueChange[]; format: UserTimeFormat }) {
  return (
    <section className="change-month" aria-labelledby={id}>
      <h2 id={id}>{heading}</h2>
      <ol className="change-list">
        {changes.map((c) => (
          <ChangeRow key={`${c.kind}-${c.factId}`} change={c} format={format} />
        ))}
      </ol>
    </section>
  );
}

function ChangeRow({ change: c, format }: { change: ValueChange; format: UserTimeFormat }) {
  const ends = endsLater(c);
  return (
    <li className={`change-row change-${ends ? 'ends' : c.kind}`} data-fact={c.factId}>
      <span className="change-when muted small">{formatSaid(c.at, c.precision, format)}</span>
      <span className={`badge change-kind ${c.kind === 'ended' && !ends ? 'closed' : ''}`}>{ends ? 'ends' : KIND_LABEL[c.kind]}</span>
      <a className="change-what" href={factHref(c.factId)}>
        <span className="subject">{c.subject}</span> · <span className="predicate">{sayPredicate(c.predicate)}</span>: <ChangeValues change={c} />
      </a>
      {c.episodeId && c.conversationId && (
        <a className="change-message small" href={hrefOf({ screen: 'chat', conversationId: c.conversationId, messageId: c.episodeId })}>
          message
        </a>
      )}
    </li>
  );
}

function ChangeValues({ change: c }: { change: ValueChange }) {
  if (c.kind === 'replaced') {
    return (
      <>
        <span className="change-before">{c.before}</span> → <span className="change-after">{c.after}</span>
      </>
    );
  }
  if (c.kind === 'ended') return <span className="change-before">{c.before}</span>;
  return <span className="change-after">{c.after}</span>;
}
