/**
 * Review before remembering: the setting (off by default; also in Settings) and the inbox of learned messages that
 * wait for the user's word. Keyboard first: ↓/↑ or j/k move between messages, A approves the
 * focused one, R rejects it, E opens its first fact's fields. After a decision the next message
 * takes the focus; after the last, the screen's "Nothing waiting for review." does (not the page's
 * body, from which the next Tab would start at the top of the page).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { PendingReview } from '../../../shared/review-contract';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { ErrorText } from '../common/ErrorText';
import { plural } from '../common/format';
import { ReviewItem } from './ReviewItem';
import { reviewKeys, ReviewSetting } from '../settings/ReviewSetting';

export function ReviewScreen() {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: reviewKeys.settings, queryFn: () => api.reviewSettings({}) });
  const pending = useQuery<PendingReview[]>({ queryKey: reviewKeys.pending, queryFn: () => api.pendingReviews({}) });
  const list = useRef<HTMLDivElement>(null);
  const waiting = useRef<HTMLParagraphElement>(null);

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
  // observers a moment later, and focusing the old item then loses the focus as it leaves). After
  // the last one, what the screen says instead: "Nothing waiting for review."
  const focusAfter = useRef<{ index: number; episodeId: string } | null>(null);
  useEffect(() => {
    const after = focusAfter.current;
    if (!after || !pending.data || pending.data.some((r) => r.episodeId === after.episodeId)) return;
    focusAfter.current = null;
    (items()[after.index] ?? items()[after.index - 1] ?? waiting.current)?.focus();
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
        <p className="muted" role="status" ref={waiting} tabIndex={-1}>
          {pending.data ? (reviews.length ? `${plural(reviews.length, 'message')} waiting` : 'Nothing waiting for review.') : 'Loading…'}
        </p>
      </header>
      <ReviewSetting settings={settings.data} inReview />
      {pending.error && <ErrorText error={pending.error} />}
      {reviews.length > 0 && <p className="muted small">Keys: ↓/↑ or j/k move · A approve · R reject · E edit the first fact.</p>}
      <div className="review-list" ref={list} onKeyDown={onKeyDown}>
        {reviews.map((review, i) => (
          <ReviewItem key={review.episodeId} review={review} onDecided={() => decided(i, review.episodeId)} />
        ))}
      </div>
    </div>
  );
}
