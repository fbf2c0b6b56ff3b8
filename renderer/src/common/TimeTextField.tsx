/**
 * A plain text field for a time as a person writes it ("2026-09-01", "2026-09-01 10:00",
 * "yesterday", "先週"), sent as typed for main to read in the user's zone; a hint under it says so,
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
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
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
      <span id={`${id}-hint`} className="muted small field-hint">
        A date, a time, or words like “yesterday” — read in {zoneName}
      </span>
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}
