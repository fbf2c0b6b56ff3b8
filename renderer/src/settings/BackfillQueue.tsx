/**
 * The learning of imported chat histories: progress, rate and time left, pause / resume (kept by
 * the engine across restarts) and cancel. Live chat is learned first either way. Refreshed on every
 * ingestionProgress event (at most once a second).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { BackfillStatus } from '../../../shared/chat-import';
import { useApi, useApiEvent } from '../app/api-context';
import { modelKeys } from '../app/query-keys';
import { ErrorText } from '../common/ErrorText';
import { plural } from '../common/format';

const backfillKey = [...modelKeys.all, 'backfill'] as const;

export function BackfillQueue() {
  const api = useApi();
  const client = useQueryClient();
  const status = useQuery({ queryKey: backfillKey, queryFn: () => api.backfillStatus({}) });
  const [error, setError] = useState<unknown>(null);
  const [confirming, setConfirming] = useState(false);
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useApiEvent('ingestionProgress', () => {
    if (timer.current) return;
    const wait = Math.max(0, 1000 - (Date.now() - last.current));
    timer.current = setTimeout(() => {
      timer.current = null;
      last.current = Date.now();
      void client.invalidateQueries({ queryKey: backfillKey });
    }, wait);
  });

  const act = async (fn: () => Promise<BackfillStatus>) => {
    setError(null);
    try {
      client.setQueryData(backfillKey, await fn());
    } catch (e) {
      setError(e);
    }
  };
  const s = status.data;
  if (!s || (s.total === 0 && s.cancelled === 0)) return <ErrorText error={error} />;
  const left = s.pending + s.running;
  const cancelled = s.cancelled > 0 && (
    <p className="muted small">
      {plural(s.cancelled, 'imported message')} not learned: you cancelled {s.cancelled === 1 ? 'it' : 'them'}.{' '}
      <button type="button" onClick={() => void act(async () => (await api.requeueBackfill({})).status)}>
        Learn {s.cancelled === 1 ? 'it' : 'them'} after all
      </button>
    </p>
  );
  if (s.total === 0)
    return (
      <div className="backfill-queue" aria-label="Imported chats learning">
        <h3>Learning your imported chats</h3>
        {cancelled}
        <ErrorText error={error} />
      </div>
    );
  return (
    <div className="backfill-queue" aria-label="Imported chats learning">
      <h3>Learning your imported chats</h3>
      <progress max={s.total} value={s.done + s.parked} aria-label="Imported messages learned" />
      <p role="status">
        {s.done} of {plural(s.total, 'message')} learned, {left} left
        {s.parked > 0 && `, ${s.parked} parked`}
        {s.paused ? ' — paused' : ''}
        {!s.paused && s.perMinute !== null && left > 0 && ` · ${s.perMinute} a minute`}
        {!s.paused && s.secondsLeft !== null && ` · about ${duration(s.secondsLeft)} left`}
      </p>
      <p className="muted small">Your live chats are learned first; the history waits its turn.</p>
      {cancelled}
      {left > 0 && (
        <div className="form-actions">
          {s.paused ? (
            <button type="button" onClick={() => void act(() => api.setBackfillPaused({ paused: false }))}>
              Resume
            </button>
          ) : (
            <button type="button" onClick={() => void act(() => api.setBackfillPaused({ paused: true }))}>
              Pause
            </button>
          )}
          {confirming ? (
            <>
              <button type="button" className="danger" onClick={() => void act(async () => (setConfirming(false), (await api.cancelBackfill({})).status))}>
                Stop learning {plural(left, 'message')}
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep learning
              </button>
            </>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Cancel…
            </button>
          )}
        </div>
      )}
      <ErrorText error={error} />
    </div>
  );
}

function duration(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 360) / 10} h`;
}
