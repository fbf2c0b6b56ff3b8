/**
 * Times as the models read them: days of the user's zone (or the zone a message was written in), in
 * English words, written by the one interval formatter the screens and the CLI use
 * (shared/time-format.ts) — "since 15 Sep 2026", "1 Sep – 15 Sep 2026", "from 1 Jan 2027 (planned)".
 */
import type { FactRecord, Precision } from '../../../shared/memory-schema';
import { formatAt, formatInterval, type TimeFormat } from '../../../shared/time-format';
import { zoneId } from '../../../shared/time-zone';

/** The model reads days, in English words, in the zone: a time said to the minute is the day it falls on there; a month or a year stays one. */
export const modelFormat = (zone: string): TimeFormat => ({ timeZone: zoneId(zone) ?? 'UTC', locale: 'en-GB', instantsAsDays: true });

const said = (precision: Precision | null | undefined): Precision => precision ?? 'instant';

export type Timed = Pick<FactRecord, 'valid_at' | 'invalid_at'> & Partial<Pick<FactRecord, 'valid_at_precision' | 'invalid_at_precision'>>;

/** True from a time still to come: neither current nor history. */
export function isPlanned(fact: Pick<FactRecord, 'valid_at'>, now: string): boolean {
  return fact.valid_at > now;
}

/** A day in the zone: "2 Dec 2026". */
export function formatDay(at: string, zone: string): string {
  return formatAt(at, 'day', modelFormat(zone));
}

/**
 * "since 15 Sep 2026", "1 Sep – 15 Sep 2026", "since 1 Sep 2026, until 31 Dec 2026", "from 1 Jan 2027
 * (planned)": the screens' formatter, in days of the zone.
 */
export function describeInterval(fact: Timed, now: string, zone = 'UTC'): string {
  const text = formatInterval(
    { valid_at: fact.valid_at, valid_at_precision: said(fact.valid_at_precision), invalid_at: fact.invalid_at, invalid_at_precision: fact.invalid_at === null ? null : said(fact.invalid_at_precision) },
    modelFormat(zone),
    now,
  );
  return isPlanned(fact, now) ? `${text} (planned)` : text;
}
