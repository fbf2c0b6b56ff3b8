/**
 * The one control for a time a person types: the edit and close forms, and the Timeline's as-of and
 * known-at. It takes what people write ("yesterday", "1 June 2026", "2026-06-01", "6月1日"), which
 * main reads in the user's zone; a hint under it gives an example in the locale's own order (no
 * native date picker: its order follows the browser's build, month-first in an en-GB locale), and
 * the message about this field, when it cannot be read, is shown right under it, in words, linked
 * to the field by aria-describedby. That message is about the text it was given for: once the text
 * changes it goes (until the next error), wherever the error is kept.
 */
import { useState } from 'react';
import { formatAt } from '../../../shared/time-format';
import { useTimeFormat } from '../app/time-format';
import { ErrorText } from './ErrorText';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  /** The zone the text is read in, named in the hint. */
  zoneName: string;
  /** What is wrong with this field, if it could not be read or was refused: the error (ErrorText says it by its kind) or a message. */
  error: unknown;
  placeholder?: string;
  /** Enter or leaving the field: for a field applied as typed (the Timeline's as-of and known-at). */
  onCommit?(): void;
  /** More words for the hint ("empty means now"). */
  hintExtra?: string;
  className?: string;
}

/** An example day for hints, in the locale's order: "1 Jun 2026", "Jun 1, 2026", "2026年6月1日". */
const EXAMPLE = '2026-06-01T12:00:00.000Z';

/** What the field takes, with an example in the locale's order. */
export function timeHint(locale: string, timeZone: string): string {
  return `A date like ${formatAt(EXAMPLE, 'day', { locale, timeZone })}, a time, or words like “yesterday”`;
}

export function TimeTextField({ id, label, value, onChange, zoneName, error, placeholder, onCommit, hintExtra, className }: Props) {
  const format = useTimeFormat();
  // The error the text has changed since: no longer shown (a new error is another object, and shows).
  const [outdated, setOutdated] = useState<unknown>(null);
  const shownError = error && error !== outdated ? error : null;
  return (
    <div className={`field time-field${className ? ` ${className}` : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        onChange={(e) => {
          if (shownError) setOutdated(shownError);
          onChange(e.target.value);
        }}
        onBlur={onCommit}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && onCommit) {
            e.preventDefault();
            onCommit();
          }
        }}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={shownError ? true : undefined}
        aria-describedby={`${id}-hint${shownError ? ` ${id}-error` : ''}`}
      />
      <span id={`${id}-hint`} className="muted small field-hint">
        {timeHint(format.locale, format.timeZone)} — read in {zoneName}
        {hintExtra ? `; ${hintExtra}` : ''}
      </span>
      <ErrorText id={`${id}-error`} error={shownError} />
    </div>
  );
}
