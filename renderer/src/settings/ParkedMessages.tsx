/**
 * The messages that could not be learned (parked after repeated failure): each with its text, its
 * conversation (a link to the message), the error in words, and Retry; "Retry parked messages"
 * beside it retries them all. #/settings/parked scrolls here.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useApi, useApiEvent } from '../app/api-context';
import { memoryKeys } from '../app/query-keys';
import { hrefOf, useRoute } from '../app/router';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { formatTime } from '../common/format';

const parkedKey = [...memoryKeys.all, 'parked'] as const;
/** listParkedMessages answers at most this many (electron/memory/store/message-learning.ts). */
const PARKED_SHOWN = 500;

export function ParkedMessages() {
  const api = useApi();
  const queryClient = useQueryClient();
  const format = useTimeFormat();
  const route = useRoute();
  const ref = useRef<HTMLElement>(null);
  const parked = useQuery({ queryKey: parkedKey, queryFn: () => api.listParkedMessages({}) });
  const [error, setError] = useState<unknown>(null);
  // Asked again when the parked count no longer matches the list (not on every job of a long queue).
  useApiEvent('ingestionProgress', (payload) => {
    if (Math.min(payload.counts.parked, PARKED_SHOWN) !== parked.data?.length) void queryClient.invalidateQueries({ queryKey: parkedKey });
  });
  const linked = route.screen === 'settings' && route.section === 'parked';
  useEffect(() => {
    if (linked && parked.data) ref.current?.scrollIntoView({ block: 'start' });
  }, [linked, parked.data]);

  const retry = async (episodeId: string) => {
    setError(null);
    try {
      await api.retryParkedMessage({ episodeId });
      await queryClient.invalidateQueries({ queryKey: parkedKey });
    } catch (e) {
      setError(e);
    }
  };

  const list = parked.data ?? [];
  return (
    <section ref={ref} className={`parked-messages${linked ? ' linked' : ''}`} aria-labelledby="parked-title">
      <h3 id="parked-title">Parked messages ({list.length})</h3>
      <ErrorText error={parked.error ?? error} />
      {list.length === 0 && <p className="muted small">None: every message was learned or is waiting its turn.</p>}
      <ul>
        {list.map((m) => (
          <li key={m.episodeId} className="parked-message">
            <blockquote>{m.content}</blockquote>
            <div className="muted small">
              {m.role} · said {formatTime(m.referenceTime, format)}
              {m.conversationId && (
                <>
                  {' · in '}
                  <a href={hrefOf({ screen: 'chat', conversationId: m.conversationId, messageId: m.episodeId })}>{m.conversationTitle ?? m.conversationId}</a>
                </>
              )}
            </div>
            <p className="parked-error">
              Failed {m.attempts === 1 ? 'once' : `${m.attempts} times`}: {m.error}
            </p>
            <button type="button" onClick={() => void retry(m.episodeId)} aria-label={`Retry “${m.content.slice(0, 40)}”`}>
              Retry
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
