/**
 * Display helpers. Times are shown in the user's zone, formatted for the locale, as precisely as
 * they were said (shared/time-format.ts does the formatting; these take the format from
 * useTimeFormat()).
 */
import type { FactRecord } from '../../../shared/memory-schema';
import { formatAt, formatInstant, formatInterval as intervalOf, type TimeFormat } from '../../../shared/time-format';
import { isStartOfDay } from './zoned-time';

export type { TimeFormat };

/** An instant, to the minute, in the zone: "Sep 1, 2026, 10:00". */
export function formatTime(iso: string, format: TimeFormat): string {
  return formatInstant(iso, format);
}

/** A moment picked on a day grid (as-of, known-at): "Sep 10, 2026" at a midnight of the zone, else to the minute. */
export function formatMoment(at: string | number, format: TimeFormat): string {
  const ms = new Date(at).getTime();
  if (Number.isNaN(ms)) return String(at);
  return formatAt(new Date(ms).toISOString(), isStartOfDay(ms, format.timeZone) ? 'day' : 'instant', format);
}

/** When a fact became true, as precisely as it was said: "March 2026", "Sep 1, 2026, 10:00". */
export function formatStart(fact: Pick<FactRecord, 'valid_at' | 'valid_at_precision'>, format: TimeFormat): string {
  return formatAt(fact.valid_at, fact.valid_at_precision, format);
}

/** When a closed fact stopped being true, as precisely as it was said; '' for an open one. */
export function formatEnd(fact: Pick<FactRecord, 'invalid_at' | 'invalid_at_precision'>, format: TimeFormat): string {
  return fact.invalid_at === null ? '' : formatAt(fact.invalid_at, fact.invalid_at_precision ?? 'instant', format);
}

/** "since March 2026", "from Sep 1 to Sep 15, 2026". */
export function formatInterval(fact: Pick<FactRecord, 'valid_at' | 'valid_at_precision' | 'invalid_at' | 'invalid_at_precision'>, format: TimeFormat): string {
  return intervalOf(fact, format);
}

export { formatBytes } from '../../../shared/format-bytes';

/** "subject · predicate · object" */
export function tripleOf(fact: Pick<FactRecord, 'subject' | 'predicate' | 'object'>): string {
  return `${fact.subject} · ${fact.predicate} · ${fact.object}`;
}

export function pluralise(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
