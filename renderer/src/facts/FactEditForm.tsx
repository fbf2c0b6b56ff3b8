/**
 * Edit a fact: its sentence, object, valid_at and invalid_at (empty = still true). Only changed
 * fields are sent; times are read as UTC; the API's message is shown as is when it refuses.
 */
import { useId, useState, type FormEvent } from 'react';
import type { ApiRequest } from '../../../shared/api-contract';
import type { FactRecord } from '../../../shared/memory-schema';
import { errorMessage } from '../api/client';
import { useApi } from '../app/api-context';
import { ErrorText } from '../common/ErrorText';
import { normaliseTime } from '../common/time-input';

export function FactEditForm({ fact, onSaved, onCancel }: { fact: FactRecord; onSaved(fact: FactRecord): void; onCancel(): void }) {
  const api = useApi();
  const id = useId();
  const [text, setText] = useState(fact.fact);
  const [object, setObject] = useState(fact.object);
  const [validAt, setValidAt] = useState(fact.valid_at);
  const [invalidAt, setInvalidAt] = useState(fact.invalid_at ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const request: ApiRequest<'editFact'> = { id: fact.id };
    if (text !== fact.fact) request.fact = text;
    if (object !== fact.object) request.object = object;
    if (validAt.trim() !== fact.valid_at) request.valid_at = normaliseTime(validAt);
    if (invalidAt.trim() !== (fact.invalid_at ?? '')) request.invalid_at = invalidAt.trim() === '' ? null : normaliseTime(invalidAt);
    setSaving(true);
    setError(null);
    try {
      onSaved(await api.editFact(request));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="card fact-form" onSubmit={submit} aria-labelledby="edit-title">
      <h2 id="edit-title">Edit this fact</h2>
      <p className="muted small">The current version is kept in the history; the edit becomes a new version. Times are UTC (2026-09-01 or 2026-09-01 09:30).</p>
      <div className="field">
        <label htmlFor={`${id}-fact`}>Fact</label>
        <textarea id={`${id}-fact`} value={text} onChange={(e) => setText(e.target.value)} rows={2} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-object`}>Object</label>
        <input id={`${id}-object`} value={object} onChange={(e) => setObject(e.target.value)} />
      </div>
      <div className="form-row">
        <div className="field">
          <label htmlFor={`${id}-valid`}>True from (valid_at)</label>
          <input id={`${id}-valid`} value={validAt} onChange={(e) => setValidAt(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-invalid`}>True until (invalid_at, empty = still true)</label>
          <input id={`${id}-invalid`} value={invalidAt} onChange={(e) => setInvalidAt(e.target.value)} placeholder="still true" />
        </div>
      </div>
      <ErrorText message={error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
