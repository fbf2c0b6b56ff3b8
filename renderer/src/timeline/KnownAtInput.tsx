/**
 * The "known at" moment as 24-hour text in the user's zone ("2026-09-01 10:00"; a date alone is its
 * start), applied on Enter or when the field is left; empty means now. A text field rather than
 * datetime-local, whose picker follows the browser's locale (12-hour in en-US).
 */
import { useEffect, useId, useState } from 'react';
import { instantOfLocalValue, toLocalInputValue } from '../common/time-input';

interface Props {
  knownAt: string | null;
  /** The zone the text is read in (one Intl knows) and its name as the setting gives it. */
  timeZone: string;
  zoneName: string;
  onKnownAt(iso: string | null): void;
}

const shown = (iso: string | null, zone: string) => (iso ? toLocalInputValue(iso, zone).replace('T', ' ') : '');

export function KnownAtInput({ knownAt, timeZone, zoneName, onKnownAt }: Props) {
  const id = useId();
  const [text, setText] = useState(() => shown(knownAt, timeZone));
  const [bad, setBad] = useState(false);
  useEffect(() => {
    setText(shown(knownAt, timeZone));
    setBad(false);
  }, [knownAt, timeZone]);

  const apply = () => {
    if (text.trim() === '') {
      setBad(false);
      if (knownAt !== null) onKnownAt(null);
      return;
    }
    const iso = instantOfLocalValue(text, timeZone);
    setBad(iso === null);
    if (iso !== null && iso !== knownAt) onKnownAt(iso);
  };
  return (
    <label className="field-inline">
      Known at ({zoneName})
      <input
        type="text"
        inputMode="numeric"
        className="known-at-input"
        placeholder="YYYY-MM-DD HH:MM"
        size={16}
        value={text}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={bad ? true : undefined}
        aria-describedby={`${id}-help`}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === 'Enter') apply();
        }}
      />
      <span id={`${id}-help`} className="visually-hidden">
        {bad ? 'Not a time: write it like 2026-09-01 10:00. ' : ''}Shows the memory as it was held at that moment, 24-hour, in {zoneName}; empty means now.
      </span>
    </label>
  );
}
