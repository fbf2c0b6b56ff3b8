/**
 * Review before remembering: the setting (off by default) and the inbox of learned messages that
 * wait for the user's word. Keyboard first: ↓/↑ or j/k move between messages, A approves the
 * focused one, R rejects it, E opens its first fact's fields. After a decision the next message
 * takes the focus.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { PendingReview, ReviewSettings } from '../../../shared/review-contract';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { errorMessage } from '../api/client';
import { ErrorText } from '../common/ErrorText';
import { pluralise } from '../common/format';
import { queryError } from '../common/query-error';
import { ReviewItem } from './ReviewItem';

export const reviewKeys = {
  settings: [...memoryKeys.all, 'review', 'settings'] as const,
  pending: [...memoryKeys.all, 'review', 'pending'] as const,
};

function ReviewSetting({ settings }: { settings: ReviewSettings | undefined }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  // The box follows the click at once (a refetch in flight cannot undo it); if main refuses, it goes back and says why.
  const [pending, setPending] = useState<boolean | null>(null);
  const toggle = async (enabled: boolean) => {
    setError(null);
    setPending(enabled);
    try {
      queryClient.setQueryData(reviewKeys.settings, await api.setReviewBeforeRemembering({ enabled }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setPending(null);
    }
  };
  return (
    <div className="review-setting">
      <label className="checkbox">
        <input type="checkbox" checked={pending ?? settings?.reviewBeforeRemembering ?? false} disabled={!settings} onChange={(e) => void toggle(e.target.checked)} data-testid="review-enabled" /> Review what Tempora learns before it is remembered
      </label>
      <p className="muted small">While on, what the model takes from each message waits here. Nothing waiting is remembered or given to the chat model until you approve it.</p>
      <ErrorText message={error} />
    </div>
  );
}

export function ReviewScreen() {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: reviewKeys.settings, queryFn: () => api.reviewSettings({}) });
  const pending = useQuery<PendingReview[]>({ queryKey: reviewKeys.pending, queryFn: () => api.pendingReviews({}) });
  const list = useRef<HTMLDivElement>(null);

  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[data-testid="review-item"]') ?? [])];
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const key = event.key;
    if (!['ArrowDown', 'ArrowUp', 'j', 'k'].includes(key) || (event.target as HTMLElement).closest('input, textarea, button')) return;
    const all = items();
    const at = all.findIndex((el) => el === document.activeElement);
    const next = key === 'ArrowDown' || key === 'j' ? Math.min(all.length - 1, at + 1) : Math.max(0, at - 1);
    all[next]?.focus();
    event.preventDefault();
  };
  // The next message (then at the decided one's place) takes the focus once the list shown no longer
  // has the decided one: after React commits it, not when the fetch resolves (the cache tells its
  // observers a moment later, and focusing the old item then loses the focus as it leaves).
  const focusAfter = useRef<{ index: number; episodeId: string } | null>(null);
  useEffect(() => {
    const after = focusAfter.current;
    if (!after || !pending.data || pending.data.some((r) => r.episodeId === after.episodeId)) return;
    focusAfter.current = null;
    (items()[after.index] ?? items()[after.index - 1])?.focus();
  }, [pending.data]);
  const decided = (index: number, episodeId: string) => {
    focusAfter.current = { index, episodeId };
    void queryClient.invalidateQueries({ queryKey: [...memoryKeys.all, 'review'] });
  };

  const reviews = pending.data ?? [];
  return (
    <div className="review-screen">
      <header className="screen-header">
        <h1>Review</h1>
        <p className="muted" role="status">
          {pending.data ? (reviews.length ? `${pluralise(reviews.length, 'message')} waiting` : 'Nothing waiting for review.') : 'Loading…'}
        </p>
      </header>
      <ReviewSetting settings={settings.data} />
      {pending.error && <ErrorText message={queryError(pending.error)} />}
      {reviews.length > 0 && <p className="muted small">Keys: ↓/↑ or j/k move · A approve · R reject · E edit the first fact.</p>}
      <div className="review-list" ref={list} onKeyDown={onKeyDown}>
        {reviews.map((review, i) => (
          <ReviewItem key={review.episodeId} review={review} onDecided={() => decided(i, review.episodeId)} />
        ))}
      </div>
    </div>
  );
}
