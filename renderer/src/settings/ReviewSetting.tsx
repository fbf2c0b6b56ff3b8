/**
 * Review before remembering, the setting (off by default; the memory keeps it): shown in Settings
 * and above the Review inbox. The box follows the click at once; if main refuses, it goes back and
 * says why.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ReviewSettings } from '../../../shared/review-contract';
import { useApi } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { hrefOf } from '../app/router';
import { ErrorText } from '../common/ErrorText';

export const reviewKeys = {
  settings: [...memoryKeys.all, 'review', 'settings'] as const,
  pending: [...memoryKeys.all, 'review', 'pending'] as const,
};

export function ReviewSetting({ settings, inReview = false }: { settings: ReviewSettings | undefined; inReview?: boolean }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  // (A refetch in flight cannot undo the click.)
  const [pending, setPending] = useState<boolean | null>(null);
  const toggle = async (enabled: boolean) => {
    setError(null);
    setPending(enabled);
    try {
      queryClient.setQueryData(reviewKeys.settings, await api.setReviewBeforeRemembering({ enabled }));
    } catch (e) {
      setError(e);
    } finally {
      setPending(null);
    }
  };
  return (
    <div className="review-setting">
      <label className="checkbox">
        <input type="checkbox" checked={pending ?? settings?.reviewBeforeRemembering ?? false} disabled={!settings} onChange={(e) => void toggle(e.target.checked)} data-testid="review-enabled" /> Review what Tempora learns before it is remembered
      </label>
      <p className="muted small">
        While on, what the model takes from each message waits {inReview ? 'here' : <a href={hrefOf({ screen: 'review' })}>in Review</a>}. Nothing waiting is remembered or given to the chat model until you approve it.
      </p>
      <ErrorText error={error} />
    </div>
  );
}
