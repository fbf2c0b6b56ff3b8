/** Close a fact: it stops being true at the given time (kept in the history, not deleted). */
import { useId, useState, type FormEvent } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { errorMessage } from '../api/client';
import { useApi } from '../app/api-context';
import { ErrorText } from '../common/ErrorText';
import { formatTime } from '../common/format';
import { normaliseTime } from '../common/time-input';

export function FactCloseForm({ fact, onClosed, onCancel }: { fact: FactRecord; onClosed(fact: FactRecord): void; onCancel(): void }) {
  const api = useApi();
  const id = useId();
  const [at, setAt] = useState(() => formatTime(new Date().toISOString().slice(0, 10) + 'T00:00:00.000Z'));
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      onClosed(await api.closeFact({ id: fact.id, at: normaliseTime(at) }));
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <form className="card fact-form" onSubmit={submit} aria-labelledby="close-title">
      <h2 id="close-title">Close this fact</h2>
      <p className="muted small">It stays in the memory as something that was true until then. Time in UTC.</p>
      <div className="field">
        <label htmlFor={`${id}-at`}>No longer true from</label>
        <input id={`${id}-at`} value={at} onChange={(e) => setAt(e.target.value)} />
      </div>
      <ErrorText message={error} />
      <div className="form-actions">
        <button type="submit" className="primary">
          Close fact
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
