/**
 * A text field for a time as a person writes it ("2026-09-01", "2026-09-01 10:00", "yesterday",
 * "先週"), sent as typed for main to read in the user's zone, with a date picker beside it that
 * writes the picked day into the text (the text still takes phrases); a hint under it says so,
 * and main's message about this field, when it refuses the value, is shown right under it.
 */
import { ErrorText } from './ErrorText';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  /** The zone the text is read in, named in the hint. */
  zoneName: string;
  /** main's message about this field, if it refused it. */
  error: string | null;
  placeholder?: string;
}

export function TimeTextField({ id, label, value, onChange, zoneName, error, placeholder }: Props) {
  const day = /^\d{4}-\d{2}-\d{2}/.exec(value.trim())?.[0] ?? '';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <span className="time-text-field">
        <input
          id={id}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={placeholder}
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
        />
        <input type="date" className="date-picker" aria-label="Pick a date" title={`Pick a date for “${label}”`} value={day} onChange={(e) => e.target.value && onChange(e.target.value)} />
      </span>
      <span id={`${id}-hint`} className="muted small field-hint">
        A date, a time, or words like “yesterday” — read in {zoneName}
      </span>
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}
