/** Display helpers. Times are shown in UTC, like the memory stores them. */
import type { FactRecord } from '../../../shared/memory-schema';

/** "2026-09-15" for midnight, else "2026-09-15 09:30" (UTC). */
export function formatTime(iso: string): string {
  const date = iso.slice(0, 10);
  const time = iso.slice(11, 16);
  return iso.slice(11, 23) === '00:00:00.000' ? date : `${date} ${time}`;
}

export function formatInterval(fact: Pick<FactRecord, 'valid_at' | 'invalid_at'>): string {
  return `${formatTime(fact.valid_at)} → ${fact.invalid_at === null ? 'now' : formatTime(fact.invalid_at)}`;
}

export { formatBytes } from '../../../shared/format-bytes';

/** "subject · predicate · object" */
export function tripleOf(fact: Pick<FactRecord, 'subject' | 'predicate' | 'object'>): string {
  return `${fact.subject} · ${fact.predicate} · ${fact.object}`;
}

/** The local calendar date as YYYY-MM-DD (for file names). */
export function localDateStamp(date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function pluralise(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
