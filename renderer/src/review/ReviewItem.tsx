/**
 * One message waiting for review: what was said (with a link to it in its conversation), the facts
 * it proposes, and Approve / Reject for the whole message. The item is focusable; with it focused,
 * A approves, R rejects, E opens the first kept fact's fields (the screen moves focus with ↑/↓, j/k).
 */
import { useState, type KeyboardEvent } from 'react';
import type { PendingReview, ReviewEdit } from '../../../shared/review-contract';
import { useApi } from '../app/api-context';
import { hrefOf } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { formatCount, formatTime, plural } from '../common/format';
import { draftOf, editOf, ProposedFactRow, type FactDraft } from './ProposedFactRow';

export function ReviewItem({ review, onDecided }: { review: PendingReview; onDecided: () => void }) {
  const api = useApi();
  const format = useTimeFormat();
  const [drafts, setDrafts] = useState<FactDraft[]>(() => review.facts.map(draftOf));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const kept = drafts.filter((d) => d.keep).length;

  const decide = async (approve: boolean) => {
    setBusy(true);
    setError(null);
    try {
      if (approve) {
        const edits = review.facts.map((f, i) => editOf(f, drafts[i]!)).filter((e): e is ReviewEdit => e !== undefined);
        await api.approveReview({ episodeId: review.episodeId, edits });
      } else await api.rejectReview({ episodeId: review.episodeId });
      onDecided();
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey || busy) return;
    const key = event.key.toLowerCase();
    if (key === 'a') void decide(true);
    else if (key === 'r') void decide(false);
    else if (key === 'e') {
      const first = drafts.findIndex((d) => d.keep);
      if (first >= 0) setDrafts(drafts.map((d, i) => (i === first ? { ...d, editing: true } : d)));
    } else return;
    event.preventDefault();
  };

  const where = review.conversationId ? hrefOf({ screen: 'chat', conversationId: review.conversationId, messageId: review.episodeId }) : null;
  return (
    <article className="card review-item" tabIndex={0} onKeyDown={onKeyDown} aria-label={`Waiting for review: ${review.content.slice(0, 80)}`} data-testid="review-item" aria-busy={busy}>
      <header className="review-head">
        <blockquote className="review-message">{review.content}</blockquote>
        <p className="muted small">
          {review.agent !== null && <span data-testid="review-agent">from agent {review.agent} · </span>}
          {formatTime(review.referenceTime, format)}
          {where && (
            <>
              {' · '}
              <a href={where}>{review.conversationTitle ? `in “${review.conversationTitle}”` : 'open in chat'}</a>
            </>
          )}
        </p>
      </header>
      {review.facts.length === 0 ? (
        <p className="muted">Nothing to remember in this message.</p>
      ) : (
        <ul className="proposed-facts">
          {review.facts.map((f, i) => (
            <ProposedFactRow key={f.index} fact={f} draft={drafts[i]!} onChange={(d) => setDrafts(drafts.map((x, j) => (j === i ? d : x)))} />
          ))}
        </ul>
      )}
      <ErrorText error={error} />
      <div className="form-actions">
        <button type="button" className="primary" disabled={busy} onClick={() => void decide(true)} aria-keyshortcuts="A">
          {review.facts.length === 0 || kept === review.facts.length ? 'Approve' : kept === 0 ? 'Approve none' : `Approve ${formatCount(kept)} of ${plural(review.facts.length, 'fact')}`}
        </button>
        <button type="button" disabled={busy} onClick={() => void decide(false)} aria-keyshortcuts="R">
          Reject
        </button>
      </div>
    </article>
  );
}
