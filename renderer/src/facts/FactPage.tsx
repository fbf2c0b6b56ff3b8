/** A fact's page: what it says, both time axes, versions, sources, closing links; edit, close, forget. */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { endHeldBack } from '../../../shared/end-held-back';
import type { FactRecord } from '../../../shared/memory-schema';
import { closeWord, formatSaid, isPast } from '../../../shared/time-format';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { navigate } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { FactTriple } from '../common/FactTriple';
import { formatInterval, formatTime, plural } from '../common/format';
import { ZoneNote } from '../common/ZoneNote';
import { FactBadges } from './FactBadges';
import { FactCloseForm } from './FactCloseForm';
import { FactEditForm } from './FactEditForm';
import { FactForgetDialog } from './FactForgetDialog';
import { leaveFactsNote } from './facts-note';
import { FactLinks, FactSources } from './FactSources';
import { FactVersions } from './FactVersions';
import { SlotHistory, useSlotHistory } from './SlotHistory';

type Mode = 'view' | 'edit' | 'close';
/** Where the focus goes when a form closes: the button that opened it (Cancel, Escape), or the heading (saved). */
type FocusAfter = 'edit' | 'close' | 'heading';

/** A message for the next fact page (an edit lands on the new version's page). */
let flash: string | null = null;
function takeFlash(): string | null {
  const message = flash;
  flash = null;
  return message;
}

export function FactPage({ id }: { id: string }) {
  const api = useApi();
  const format = useTimeFormat();
  const details = useQuery({ queryKey: memoryKeys.fact(id), queryFn: () => api.factDetails({ id }) });
  const slotHistory = useSlotHistory(api, id);
  const [mode, setMode] = useState<Mode>('view');
  const [forgetting, setForgetting] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [note] = useState(takeFlash);
  const heading = useRef<HTMLHeadingElement>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const focusAfter = useRef<FocusAfter | null>(null);
  const headingFocused = useRef(false);
  const loaded = details.data !== undefined;

  // A fact page opened by navigation (a Timeline bar, a link, an edit's new version): the focus goes
  // to its heading once it shows, as on any change of route. Once per page: a refresh of the same
  // fact leaves the focus alone, and so does a focus the user has already put somewhere.
  useEffect(() => {
    if (!loaded || headingFocused.current) return;
    headingFocused.current = true;
    const active = document.activeElement;
    if (active === null || active === document.body || active.id === 'main') heading.current?.focus();
  }, [loaded]);

  // A form closed: the focus goes back to the button that opened it (the heading if it is gone: the
  // fact was replaced meanwhile), or to the heading after a save.
  useEffect(() => {
    if (mode !== 'view' || focusAfter.current === null) return;
    const target = { edit: editButton, close: closeButton, heading }[focusAfter.current];
    focusAfter.current = null;
    (target.current ?? heading.current)?.focus();
  }, [mode]);
  const closeForm = (after: FocusAfter) => {
    focusAfter.current = after;
    setMode('view');
  };

  const forget = async (choice: { withSources: boolean } | null) => {
    setForgetting(false);
    if (choice === null) return;
    try {
      const said = details.data?.fact.fact;
      const gone = await api.forgetFact({ id, withSources: choice.withSources });
      // The Facts screen says what went, and takes the focus there (the page it was on is gone): the
      // messages deleted with it, and those kept because other facts still come from them.
      const deleted = gone.sources.deleted.length;
      const kept = gone.sources.kept.length;
      const messages = !choice.withSources ? '' : `, with ${plural(deleted, 'message')} it came from${kept > 0 ? ` (${plural(kept, 'message')} kept: other facts come from ${kept === 1 ? 'it' : 'them'})` : ''}`;
      leaveFactsNote(said === undefined ? 'Forgotten.' : `Forgotten: “${said}”${messages}`);
      navigate({ screen: 'facts' });
    } catch (e) {
      setError(e);
    }
  };

  const d = details.data;
  if (!d) {
    return (
      <div className="fact-page">
        <p>
          <a href="#/facts">← Facts</a>
        </p>
        {details.error ? <ErrorText error={details.error} /> : <p className="muted">Loading…</p>}
      </div>
    );
  }
  const fact = d.fact;
  const latest = d.versions.find((v) => v.expired_at === null);
  const canChange = fact.expired_at === null;
  return (
    <div className="fact-page">
      <p className="breadcrumb">
        <a href="#/facts">← Facts</a> · <a href="#/timeline">Timeline</a>
      </p>
      <header className="fact-header">
        <h1 ref={heading} tabIndex={-1}>
          {fact.fact}
        </h1>
        <p className="triple-line">
          <FactTriple fact={fact} />
        </p>
        <FactBadges fact={fact} />
      </header>
      {note && <p role="status" className="note">{note}</p>}
      {!canChange && latest && (
        <p className="notice-inline">
          This version was replaced on {formatTime(fact.expired_at ?? '', format)}; the current version says true {formatInterval(latest, format)}.{' '}
          <a href={`#/facts/${encodeURIComponent(latest.id)}`}>Open the current version</a>.
        </p>
      )}
      <dl className="fact-times">
        <dt>True</dt>
        <dd>
          {formatInterval(fact, format)}
          {/* "from 16 Jan 2027" for one that starts later says it is to come; only a begun one held now is
              "still true"; a replaced one says what it held then (the banner above, what holds now). */}
          {fact.invalid_at === null && isPast(fact.valid_at) ? (canChange ? ' (still true)' : ' (open when this version was replaced)') : ''}
        </dd>
        {d.keptEnd && (
          <>
            <dt>End you gave</dt>
            <dd>{formatSaid(d.keptEnd.at, d.keptEnd.precision, format, true)} (kept: shows only if the value after it goes)</dd>
          </>
        )}
        <dt>Recorded</dt>
        <dd>
          {formatTime(fact.created_at, format)}
          {fact.expired_at ? `, replaced ${formatTime(fact.expired_at, format)}` : ' (held now)'}
        </dd>
        <dt>Values at a time</dt>
        <dd>{fact.cardinality === 'one' ? 'one (a new value closes the old one)' : 'many (values add up)'}</dd>
      </dl>
      <p className="muted small">
        <ZoneNote zoneName={format.zoneName} />
      </p>
      {canChange && mode === 'view' && (
        <div className="form-actions">
          <button ref={editButton} type="button" className="primary" onClick={() => setMode('edit')}>
            Edit
          </button>
          {fact.invalid_at === null && (
            <button ref={closeButton} type="button" onClick={() => setMode('close')}>
              Close…
            </button>
          )}
          <button type="button" className="danger" onClick={() => setForgetting(true)}>
            Forget…
          </button>
        </div>
      )}
      <ErrorText error={error} />
      {mode === 'edit' && (
        <FactEditForm
          fact={fact}
          onCancel={() => closeForm('edit')}
          onSaved={(saved, endGiven) => {
            closeForm('heading');
            const held = endGiven === undefined ? null : endHeldBack(saved, endGiven !== null, format, { to: 'user' });
            flash = held ? `Saved. ${held}` : 'Saved. The previous version is kept in Versions below.';
            navigate({ screen: 'fact', id: saved.id }, { replace: true });
          }}
        />
      )}
      {mode === 'close' && (
        <FactCloseForm
          fact={fact}
          onCancel={() => closeForm('close')}
          onClosed={(closed) => {
            closeForm('heading');
            // "Closed" only for an end that has come; one still to come is an end set ("Ends: … until 15 Jan 2027").
            flash = `${closeWord(closed)}: true ${formatInterval(closed, format)}.`;
            navigate({ screen: 'fact', id: closed.id }, { replace: true });
          }}
        />
      )}
      <FactLinks closedBy={d.closedBy} closed={d.closed} />
      <SlotHistory factId={fact.id} history={slotHistory} />
      <FactVersions versions={d.versions} currentId={fact.id} causes={d.causes} episodes={d.episodes} />
      <FactSources episodes={d.episodes} />
      <FactForgetDialog open={forgetting} fact={fact} reopens={reopenedByForget(fact, d.closed, d.closedBy)} onChoose={(choice) => void forget(choice)} />
    </div>
  );
}

/**
 * The values forgetting a fact makes current again: those of its one-valued slot it closed (held
 * now, ending where it begins), when it is itself the slot's current value (open, closed by none).
 */
function reopenedByForget(fact: FactRecord, closed: readonly FactRecord[], closedBy: FactRecord | null): FactRecord[] {
  if (fact.cardinality !== 'one' || fact.invalid_at !== null || closedBy !== null) return [];
  return closed.filter((c) => c.expired_at === null && c.invalid_at === fact.valid_at && c.subject_id === fact.subject_id && c.predicate === fact.predicate);
}
