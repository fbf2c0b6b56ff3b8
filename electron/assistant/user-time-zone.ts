/**
 * The zone the user lives in, shared by ingestion (which day "昨日" or "9月1日" was when a message was
 * written, for messages that do not carry their own zone), retrieval (which day "on 2026-09-10" or
 * "去年" names in a question), the forms and commands that take times, and every time shown.
 *
 * Where it comes from, first that applies: the app's setting or the CLI's --tz (configureTimeZone),
 * $TEMPORA_TZ (an IANA name or a fixed offset like "+09:00"), the system's zone.
 */
import { isKnownZone, unknownZoneMessage } from '../../shared/time-zone';

export type TimeZoneSource = 'setting' | 'environment' | 'system';

let configured: string | null = null;

/** Sets (or with null, clears) the zone chosen by the user. Throws RangeError for an unknown zone. */
export function configureTimeZone(zone: string | null): void {
  if (zone !== null && !isKnownZone(zone.trim())) throw new RangeError(unknownZoneMessage(zone));
  configured = zone === null ? null : zone.trim();
}

export function userTimeZone(): string {
  return userTimeZoneAndSource().timeZone;
}

export function userTimeZoneAndSource(): { timeZone: string; source: TimeZoneSource } {
  if (configured !== null) return { timeZone: configured, source: 'setting' };
  const environment = process.env.TEMPORA_TZ?.trim();
  if (environment && isKnownZone(environment)) return { timeZone: environment, source: 'environment' };
  return { timeZone: systemTimeZone(), source: 'system' };
}

export function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
