/**
 * Edit a fact: its sentence, object, valid_at and invalid_at (empty = still true). The times start
 * as readable text in the user's zone and locale ("1 Sep 2026", "March 2026", "1 Sep 2026, 10:00") and are sent as
 * typed — a date, a time or a phrase ("yesterday", "先週") that main reads in that zone. Only changed
 * fields are sent; when main refuses one, its message is shown under that field. What the form
 * keeps is the error itself (in the form's words: inFormWords), so a refusal that is about no field
 * (busy, say) is said by its kind.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import type { ApiRequest } from '../../../shared/api-contract';
import type { FactRecord, Precision } from '../../../shared/memory-schema';
import { formatAt, formatSaid, type TimeFormat } from '../../../shared/time-format';
import { errorField } from '../api/client';
import { useApi } from '../app/api-context';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from '../common/ErrorText';
import { inFormWords } from '../common/field-error';
import { escapeCancels, useFocusFirstField, useFocusOnError } from '../common/form-focus';
import { TimeTextField } from '../common/TimeTextField';

/** The form's words for the fields main may name in a refusal. */
const LABELS: Record<string, string> = { fact: 'Fact', object: 'Object', valid_at: 'True from', invalid_at: 'True until' };

/** A time for its field: an instant to the minute (main reads it back the same), a date said as every screen shows it. */
const timeField = (at: string, precision: Precision, format: TimeFormat) => (precision === 'instant' ? formatAt(at, precision, format) : formatSaid(at, precision, format));

/** `endGiven`: the edit set an end (true) or took it away (null); undefined when it left the end alone. */
export function FactEditForm({ fact, onSaved, onCancel }: { fact: FactRecord; onSaved(fact: FactRecord, endGiven: true | null | undefined): void; onCancel(): void }) {
  const api = useApi();
  const format = useTimeFormat();
  const id = useId();
  const [initial] = useState(() => ({
    // In the locale's order, at the precision said ("March 2026", "15 Sep 2026, 10:00"), a day, month
    // or year as the date it was said (as every screen shows it); only a field changed is sent.
    validAt: timeField(fact.valid_at, fact.valid_at_precision, format),
    invalidAt: fact.invalid_at === null ? '' : timeField(fact.invalid_at, fact.invalid_at_precision ?? 'instant', format),
  }));
  const [text, setText] = useState(fact.fact);
  const [object, setObject] = useState(fact.object);
  const [validAt, setValidAt] = useState(initial.validAt);
  const [invalidAt, setInvalidAt] = useState(initial.invalidAt);
  const [error, setError] = useState<Error | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  useFocusFirstField(form);
  useFocusOnError(form, error);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The page's locale: a refusal says its times as this page says them.
    const request: ApiRequest<'editFact'> = { id: fact.id, locale: format.locale };
    if (text !== fact.fact) request.fact = text;
    if (object !== fact.object) request.object = object;
    if (validAt.trim() !== initial.validAt) request.valid_at = validAt.trim();
    if (invalidAt.trim() !== initial.invalidAt) request.invalid_at = invalidAt.trim() === '' ? null : invalidAt.trim();
    setSaving(true);
    setError(null);
    try {
      onSaved(await api.editFact(request), request.invalid_at === undefined ? undefined : request.invalid_at === null ? null : true);
    } catch (e) {
      // A time that cannot be read is said as every time field says it (as typed, examples in the locale's order).
      const times = { ...(request.valid_at !== undefined && { valid_at: request.valid_at }), ...(typeof request.invalid_at === 'string' && { invalid_at: request.invalid_at }) };
      setError(inFormWords(e, LABELS, { text: times, locale: format.locale, timeZone: format.timeZone }));
    } finally {
      setSaving(false);
    }
  };
  const errorAbout = errorField(error);
  const errorAt = (field: string) => (errorAbout === field ? error : null);

  return (
    <form ref={form} className="card fact-form" onSubmit={submit} onKeyDown={escapeCancels(onCancel)} aria-labelledby="edit-title">
      <h2 id="edit-title">Edit this fact</h2>
      <p className="muted small">The current version is kept in the history; the edit becomes a new version.</p>
      <div className="field">
        <label htmlFor={`${id}-fact`}>Fact</label>
        <textarea id={`${id}-fact`} value={text} onChange={(e) => setText(e.target.value)} rows={2} aria-invalid={errorAt('fact') ? true : undefined} />
        <ErrorText error={errorAt('fact')} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-object`}>Object</label>
        <input id={`${id}-object`} value={object} onChange={(e) => setObject(e.target.value)} aria-invalid={errorAt('object') ? true : undefined} />
        <ErrorText error={errorAt('object')} />
      </div>
      <div className="form-row">
        <TimeTextField id={`${id}-valid`} label="True from" value={validAt} onChange={setValidAt} zoneName={format.zoneName} error={errorAt('valid_at')} />
        <TimeTextField
          id={`${id}-invalid`}
          label="True until (empty: still true)"
          value={invalidAt}
          onChange={setInvalidAt}
          zoneName={format.zoneName}
          error={errorAt('invalid_at')}
          placeholder="still true"
        />
      </div>
      <ErrorText error={errorAbout !== undefined && errorAbout in LABELS ? null : error} />
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
