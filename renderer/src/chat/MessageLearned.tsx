/**
 * Under a user's message: while it is being learned, a quiet marker (waiting, learning, parked with
 * its reason, or not learned in a conversation that is not remembered); once learned, what it
 * changed — facts remembered, facts closed with their intervals, duplicates confirmed, each a link
 * to the fact — and Undo, which takes all of it back in one write; after Undo, "Undone · Redo" and
 * what Undo did. Redo applies the same learning again (kept with the message), without the model.
 * The keyboard's focus goes from Undo to Redo and back (to the note when there is no Redo): the
 * buttons wait with aria-disabled, since a focused button disabled drops the focus to the page.
 */
import { useEffect, useRef, useState } from 'react';
import type { MessageLearning } from '../../../shared/learning-contract';
import { undoSummary } from '../../../shared/learning-contract';
import type { FactRecord } from '../../../shared/memory-schema';
import { useApi } from '../app/api-context';
import { factHref, hrefOf } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { formatInterval, tripleOf } from '../common/format';

function Chips({ label, facts, interval }: { label: string; facts: readonly FactRecord[]; interval?: boolean }) {
  const format = useTimeFormat();
  if (facts.length === 0) return null;
  return (
    <div className={`learned-group learned-${label.toLowerCase()}`}>
      <span className="used-label">{label}:</span>
      <ul>
        {facts.map((f) => (
          <li key={f.id}>
            <a className="fact-chip" href={factHref(f.id)} title={f.fact}>
              {tripleOf(f)}
              {interval && <span className="chip-closed"> ({formatInterval(f, format)})</span>}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function MessageLearned({ learning, onChanged }: { learning: MessageLearning | null | undefined; onChanged(): void }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  /** Where the focus goes once the message's learning shows what Undo or Redo did. */
  const focusNext = useRef<'undone' | 'learned' | null>(null);
  const undoButton = useRef<HTMLButtonElement>(null);
  const redoButton = useRef<HTMLButtonElement>(null);
  const undoneNote = useRef<HTMLDivElement>(null);
  const state = learning?.state;
  useEffect(() => {
    if (focusNext.current === null || focusNext.current !== state) return;
    focusNext.current = null;
    if (state === 'undone') (redoButton.current ?? undoneNote.current)?.focus();
    else undoButton.current?.focus();
  }, [state]);
  if (!learning) return null;
  const act = async (call: 'undoLearning' | 'redoLearning') => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await api[call]({ episodeId: learning.episodeId });
      focusNext.current = call === 'undoLearning' ? 'undone' : 'learned';
      onChanged();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  switch (learning.state) {
    case 'pending':
      return <p className="learn-marker" data-state="pending" title={learning.error ?? undefined}>{learning.error ? 'waiting to be learned again' : 'waiting to be learned'}</p>;
    case 'learning':
      return (
        <p className="learn-marker" data-state="learning">
          <span className="pulse" aria-hidden="true" /> learning…
        </p>
      );
    case 'parked':
      return (
        <p className="learn-marker warn" data-state="parked">
          could not be learned: {learning.error} · <a href={hrefOf({ screen: 'settings', section: 'parked' })}>parked messages</a>
        </p>
      );
    case 'off':
      return <p className="learn-marker" data-state="off">not learned: this conversation is not remembered</p>;
    case 'review':
      return (
        <p className="learn-marker" data-state="review">
          waiting for your review · <a href={hrefOf({ screen: 'review' })}>Review</a>
        </p>
      );
    case 'rejected':
      return (
        <p className="learn-marker" data-state="rejected">
          rejected in review: nothing of it was remembered
        </p>
      );
    case 'undone':
      return (
        <div className="undone" data-state="undone" ref={undoneNote} tabIndex={-1}>
          <p className="learn-marker">
            Undone
            {learning.canRedo && (
              <>
                {' · '}
                <button ref={redoButton} type="button" className="link-button redo-learning" aria-disabled={busy} onClick={() => void act('redoLearning')} title="Learn again what this message taught, as it was learned (no model call)">
                  Redo
                </button>
              </>
            )}
          </p>
          {learning.undo && <p className="learn-marker undo-report">{undoSummary(learning.undo)}</p>}
          <ErrorText error={error} />
        </div>
      );
    case 'learned': {
      const nothing = learning.added.length + learning.closed.length + learning.confirmed.length === 0;
      return (
        <div className="learned" data-state="learned" aria-label="What Tempora learned">
          {!learning.recorded && <span className="learn-marker">learned</span>}
          {learning.recorded && nothing && <span className="learn-marker">learned nothing new</span>}
          <Chips label="Learned" facts={learning.added} />
          <Chips label="Closed" facts={learning.closed} interval />
          <Chips label="Confirmed" facts={learning.confirmed} />
          {learning.canUndo && !nothing && (
            <button ref={undoButton} type="button" className="link-button undo-learning" aria-disabled={busy} onClick={() => void act('undoLearning')} title="Forget what this message added and reopen what it closed">
              Undo
            </button>
          )}
          <ErrorText error={error} />
        </div>
      );
    }
  }
}
