/**
 * The Timeline's as-of field: the one time control (TimeTextField), read by main (readTime) as
 * MomentInput reads it, keeping how the moment was said: a month or a year typed is shown back as
 * the month or the year ("March 2025", "2025年3月"), the cursor at its end; "today" (今日), "now",
 * or a month or year that holds now, follows the clock, as the Facts list's as-of does: the field
 * empties to now. Empty means now. What cannot be read is said under the field.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { formatAt, type TimeFormat } from '../../../shared/time-format';
import { errorField, errorMessage, isApiError } from '../api/client';
import { useApi } from '../app/api-context';
import { useTimeFormat } from '../app/time-format';
import { formatMoment } from '../common/format';
import { unreadableTime } from '../common/MomentInput';
import { TimeTextField } from '../common/TimeTextField';

export type SaidAs = 'month' | 'year' | null;

/** The as-of moment in words: "now" (following the clock), "March 2025" (typed as a month), else the moment. */
export function asOfWords(asOf: number | null, said: SaidAs, format: TimeFormat): string {
  if (asOf === null) return 'now';
  return said ? formatAt(new Date(asOf).toISOString(), said, format) : formatMoment(asOf, format);
}

interface Props {
  /** The cursor; null: now, following the clock. */
  asOf: number | null;
  said: SaidAs;
  onAsOf(at: number | null, said: SaidAs): void;
}

export function AsOfField({ asOf, said, onAsOf }: Props) {
  const api = useApi();
  const format = useTimeFormat();
  const id = useId();
  const shown = asOf === null ? '' : asOfWords(asOf, said, format);
  const [text, setText] = useState(shown);
  const [error, setError] = useState<string | null>(null);
  // Only the latest reading counts: a slow answer for text since changed is dropped.
  const reading = useRef(0);
  useEffect(() => {
    setText(shown);
    setError(null);
  }, [shown]);

  const commit = () => {
    const typed = text.trim();
    const ticket = ++reading.current;
    if (typed === shown) return setError(null);
    if (typed === '') {
      setError(null);
      if (asOf !== null) onAsOf(null, null);
      return;
    }
    api.readTime({ text: typed, field: 'as_of' }).then(
      (read) => {
        if (ticket !== reading.current) return;
        setError(null);
        const at = read.now ? null : Date.parse(read.at);
        const as: SaidAs = read.now || (read.precision !== 'month' && read.precision !== 'year') ? null : read.precision;
        if (at === asOf && as === said) setText(shown);
        else onAsOf(at, as);
      },
      (e: unknown) => {
        if (ticket !== reading.current) return;
        // As MomentInput says it: a fault main can name in its words, text that is no time with examples.
        const aboutText = isApiError(e) && (e.code === 'invalid_input' || e.code === 'invalid_request') && (errorField(e) === 'as_of' || errorField(e) === 'text');
        const message = errorMessage(e);
        const fault = message.startsWith('as_of: ') ? message.slice('as_of: '.length) : message;
        setError(!aboutText ? message : /^not a time\b/.test(fault) ? unreadableTime(typed, format.locale, format.timeZone) : fault);
      },
    );
  };

  return (
    <TimeTextField
      id={id}
      label={`As of (${format.zoneName})`}
      value={text}
      onChange={setText}
      onCommit={commit}
      zoneName={format.zoneName}
      error={error}
      placeholder="now"
      hintExtra="empty means now"
      className="field-inline"
    />
  );
}
