/**
 * Close a fact: it stops being true at the given time (kept in the history, not deleted). The time
 * starts as today's date in the user's zone, in the locale's order, and is sent as typed: a date, a time or a phrase
 * ("yesterday", "先週") that main reads in that zone; its message, when it refuses, is shown under it.
 * A refusal about anything else (busy, say) is kept as the error, and said by its kind.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import type { FactRecord } from '../../../shared/memory-schema';
import { formatAt } from '../../../shared/time-format';
import { errorField } from '../api/client';
import { useApi } from '../app/api-context';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { inFormWords } from '../common/field-error';
import { escapeCancels, useFocusFirstField, useFocusOnError } from '../common/form-focus';
import { TimeTextField } from '../common/TimeTextField';

export function FactCloseForm({ fact, onClosed, onCancel }: { fact: FactRecord; onClosed(fact: FactRecord): void; onCancel(): void }) {
  const api = useApi();
  const format = useTimeFormat();
  const id = useId();
  // Today, in the locale's order ("2 Dec 2026", "Dec 2, 2026"): main reads it back as that day in the zone.
  const [at, setAt] = useState(() => formatAt(new Date().toISOString(), 'day', format));
  const [error, setError] = useState<Error | null>(null);
  const aboutAt = errorField(error) === 'at';
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstField(form);
  useFocusOnError(form, error);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      onClosed(await api.closeFact({ id: fact.id, at: at.trim(), locale: format.locale }));
    } catch (e) {
      setError(inFormWords(e, { at: 'No longer true from', valid_at: 'True from' }, { text: { at: at.trim() }, locale: format.locale, timeZone: format.timeZone }));
    }
  };
  return (
    <form ref={form} className="card fact-form" onSubmit={submit} onKeyDown={escapeCancels(onCancel)} aria-labelledby="close-title">
      <h2 id="close-title">Close this fact</h2>
      <p className="muted small">It stays in the memory as something that was true until then.</p>
      <TimeTextField id={`${id}-at`} label="No longer true from" value={at} onChange={setAt} zoneName={format.zoneName} error={aboutAt ? error : null} />
      <ErrorText error={aboutAt ? null : error} />
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
