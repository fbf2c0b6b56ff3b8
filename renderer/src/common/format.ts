/**
 * Display helpers. Times are shown in the user's zone, formatted for the locale, as precisely as
 * they were said (shared/time-format.ts does the formatting; these take the format from
 * useTimeFormat()).
 */
import type { FactRecord } from '../../../shared/memory-schema';
import { sayPredicate } from '../../../shared/predicate-words';
import { formatEnding, formatInstant, formatInterval as intervalOf, formatMoment as momentOf, formatSaid, type Now, type TimeFormat } from '../../../shared/time-format';

export type { TimeFormat };

/** An instant, to the minute, in the zone: "Sep 1, 2026, 10:00". */
export function formatTime(iso: string, format: TimeFormat): string {
  return formatInstant(iso, format);
}

/** A moment picked on a day grid or typed (as-of, known-at): "Sep 10, 2026" at a midnight of the zone, else to the minute. */
export function formatMoment(at: string | number, format: TimeFormat): string {
  return momentOf(at, format);
}

/** When a fact became true, as precisely as it was said: "March 2026", "Sep 1, 2026, 10:00". */
export function formatStart(fact: Pick<FactRecord, 'valid_at' | 'valid_at_precision'>, format: TimeFormat): string {
  return formatSaid(fact.valid_at, fact.valid_at_precision, format);
}

/** How a fact's end reads now: "ended 25 May 2026" when past, "until 31 Dec 2026" when ahead; '' for an open one. */
export function formatEnd(fact: Pick<FactRecord, 'invalid_at' | 'invalid_at_precision'>, format: TimeFormat, now: Now = Date.now()): string {
  return formatEnding(fact, format, now);
}

/** "since March 2026", "1 Sep 2025 – 25 May 2026", "since 1 Sep 2025, until 31 Dec 2026" (shared/time-format.ts). */
export function formatInterval(fact: Pick<FactRecord, 'valid_at' | 'valid_at_precision' | 'invalid_at' | 'invalid_at_precision'>, format: TimeFormat, now: Now = Date.now()): string {
  return intervalOf(fact, format, now);
}

export { formatBytes } from '../../../shared/format-bytes';

/** "subject · predicate · object", the predicate in words: "Mia · lives in · Lima". */
export function tripleOf(fact: Pick<FactRecord, 'subject' | 'predicate' | 'object'>): string {
  return `${fact.subject} · ${sayPredicate(fact.predicate)} · ${fact.object}`;
}

const bareText = (text: string) => text.normalize('NFKC').trim().replace(/[\s.。!！?？]+$/u, '').toLowerCase();

/** Whether a fact's object only repeats its sentence (a note kept whole), so it need not be shown twice. */
export function objectRepeatsSentence(fact: Pick<FactRecord, 'object' | 'fact'>): boolean {
  return bareText(fact.object) === bareText(fact.fact);
}

/** Counts in words: the one module every face shares (the browser's locale here). */
export { formatCount, plural } from '../../../shared/count-words';
