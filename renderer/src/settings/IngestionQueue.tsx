/** The learning queue: pending / running / done / parked jobs, the last error, retry parked. */
import { useState } from 'react';
import type { ModelStatus } from '../../../shared/api-contract';
import { useApi } from '../app/api-context';
import { useIngestion } from '../app/model-status';
import { ErrorText } from '../common/ErrorText';
import { ParkedMessages } from './ParkedMessages';
import { BackfillQueue } from './BackfillQueue';
import { plural } from '../common/format';

export function IngestionQueue({ status }: { status: ModelStatus }) {
  const api = useApi();
  const { counts, lastError } = useIngestion(status.ingestion);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const retry = async () => {
    setError(null);
    try {
      const { retried } = await api.retryParkedJobs({});
      setNote(`${plural(retried, 'message')} queued again.`);
    } catch (e) {
      setError(e);
    }
  };
  const c = counts ?? status.ingestion;
  return (
    <section className="card" aria-labelledby="queue-title">
      <h2 id="queue-title">Learning queue</h2>
      <p className="muted small">Each chat message is learned in the background by the chat model; without one, messages wait here.</p>
      <dl className="counts">
        <div>
          <dt>Waiting</dt>
          <dd>{c.pending}</dd>
        </div>
        <div>
          <dt>Learning</dt>
          <dd>{c.running}</dd>
        </div>
        <div>
          <dt>Done</dt>
          <dd>{c.done}</dd>
        </div>
        <div>
          <dt>Parked</dt>
          <dd>{c.parked}</dd>
        </div>
      </dl>
      {(lastError ?? status.lastError) && <p className="muted small">Last error: {lastError ?? status.lastError}</p>}
      <button type="button" onClick={() => void retry()} disabled={c.parked === 0}>
        Retry parked messages
      </button>
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
      <ErrorText error={error} />
      <ParkedMessages />
      <BackfillQueue />
    </section>
  );
}
