/**
 * The as-of and known-at fields (the Timeline's, the Facts filter's): the one time control (TimeTextField.tsx), showing
 * the moment in the locale's order ("1 Jun 2026", "Jun 1, 2026", "2026年6月1日"), and taking what
 * people type ("yesterday", "1 June 2026", "2026-06-01", "6月1日"), read by main in the user's zone
 * (readTime) when Enter is pressed or the field is left. What cannot be read is said under the
 * field, never ignored (a failure that is not about the text, busy say, is kept as the error and
 * said by its kind); the moment shown stays until a good one is typed. An answer for text the field
 * no longer holds (changed, or reset by Now or Today while it was read) is dropped: no error
 * outlives its text; text typed as an answer lands stays in the field. A month or a year typed is
 * handed on as said (onAt's second argument), for a field that shows it back so ("March 2025",
 * "2025年3月") rather than as its last day.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { formatAt, type TimeFormat } from '../../../shared/time-format';
import type { IsoTime } from '../../../shared/time';
import { errorField, errorMessage, isApiError, reworded } from '../api/client';
import { useApi } from '../app/api-context';
import { useTimeFormat } from '../app/time-format';
import { timeFaultWords } from './field-error';
import { formatMoment } from './format';
import { TimeTextField } from './TimeTextField';

/** How a moment was said when it was a whole month or year; null: a day or an instant. */
export type SaidAs = 'month' | 'year' | null;

/** A moment in words: "now" (null: following the clock), "March 2025" (said as a month), else the moment. */
export function momentWords(at: IsoTime | number | null, said: SaidAs, format: TimeFormat): string {
  if (at === null) return 'now';
  return said ? formatAt(typeof at === 'number' ? new Date(at).toISOString() : at, said, format) : formatMoment(at, format);
}

interface Props {
  /** "As of", "Known at": the field's label, with the zone after it. */
  label: string;
  /** The field's name for main ("as_of", "known_at"). */
  field: string;
  /** The moment shown (ISO); null: now (an empty field). */
  at: IsoTime | null;
  /** How `at` was said, to show it back so (a month, a year); absent or null: as a moment. */
  said?: SaidAs;
  /** Whether an empty field means now (known-at); else emptying it puts the moment back. */
  emptyIsNow?: boolean;
  onAt(iso: IsoTime | null, said: SaidAs): void;
  className?: string;
}

export function MomentInput({ label, field, at, said = null, emptyIsNow = false, onAt, className }: Props) {
  const api = useApi();
  const format = useTimeFormat();
  const id = useId();
  const shown = at === null ? '' : momentWords(at, said, format);
  const [text, setText] = useState(shown);
  const [error, setError] = useState<unknown>(null);
  // Only the latest reading counts: a slow answer for text since changed is dropped.
  const reading = useRef(0);
  // The text the field holds now, for an answer that comes after it changed (Now pressed as the field was left).
  const held = useRef(text);
  useEffect(() => {
    held.current = text;
  }, [text]);
  const current = (ticket: number, typed: string) => ticket === reading.current && held.current.trim() === typed;
  // A new moment shows at once, in the same render: reset in an effect, it landed after the commit,
  // and text typed in between (the cursor already moved, the field not yet) was overwritten by it.
  // The new moment's own answer renders after a keystroke that came as it landed: then the text read
  // (`answeredFor`) is no longer the field's, and what was typed since stays. A moment from elsewhere
  // (the cursor dragged, Today) is shown over it.
  const [showing, setShowing] = useState(shown);
  const [answeredFor, setAnsweredFor] = useState<string | null>(null);
  if (showing !== shown) {
    setShowing(shown);
    if (answeredFor === null || text.trim() === answeredFor) setText(shown);
    setError(null);
  }
  if (answeredFor !== null) setAnsweredFor(null);

  const commit = () => {
    const typed = text.trim();
    const ticket = ++reading.current;
    if (typed === shown) return setError(null);
    if (typed === '') {
      setError(null);
      if (emptyIsNow && at !== null) onAt(null, null);
      else setText(shown);
      return;
    }
    api.readTime({ text: typed, field }).then(
      (read) => {
        if (!current(ticket, typed)) return;
        setError(null);
        // "today" or "now" in a field where empty means now: now, following the clock, not the minute it was typed.
        const live = read.now && emptyIsNow;
        const next = live ? null : read.at;
        const as: SaidAs = live || (read.precision !== 'month' && read.precision !== 'year') ? null : read.precision;
        if (next === at && as === said) return setText(shown);
        setAnsweredFor(typed);
        onAt(next, as);
      },
      (e: unknown) => {
        if (!current(ticket, typed)) return;
        const aboutText = isApiError(e) && (e.code === 'invalid_input' || e.code === 'invalid_request') && (errorField(e) === field || errorField(e) === 'text');
        // A fault main can name ("2026-02-30 is not a date: February 2026 has 28 days", an ambiguous
        // 10/09/2026) is said in its words, as the edit forms say it; only text that is no time at all
        // gets the examples in the locale's order. Either way the error is kept (its kind with it).
        if (!aboutText) return setError(e);
        const said = errorMessage(e);
        const fault = said.startsWith(`${field}: `) ? said.slice(field.length + 2) : said;
        setError(reworded(e, timeFaultWords(fault, typed, format.locale, format.timeZone)));
      },
    );
  };

  return (
    <TimeTextField
      id={id}
      label={`${label} (${format.zoneName})`}
      value={text}
      onChange={setText}
      onCommit={commit}
      zoneName={format.zoneName}
      error={error}
      placeholder={emptyIsNow ? 'now' : undefined}
      hintExtra={emptyIsNow ? 'empty means now' : undefined}
      className={className}
    />
  );
}
