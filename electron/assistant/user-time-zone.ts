/**
 * The zone the user lives in, for ingestion (which day "昨日" or "9月1日" was when a message was
 * written, for messages that do not carry their own zone), retrieval (which day "on 2026-09-10" or
 * "去年" names in a question), the forms and commands that take times, and every time shown.
 *
 * Where it comes from, first that applies: the zone the user chose (the app's setting, the CLI's
 * --tz), $TEMPORA_TZ (an IANA name or a fixed offset like "+09:00"), the system's zone. Nothing here
 * holds it: the engine (or the CLI's run) keeps the choice and passes the zone to every call.
 */
import { isKnownZone, systemTimeZone } from '../../shared/time-zone';

export type TimeZoneSource = 'setting' | 'environment' | 'system';

export interface UserTimeZone {
  timeZone: string;
  source: TimeZoneSource;
  /** $TEMPORA_TZ when it is set but names no zone: ignored, and said so (the CLI refuses it). */
  ignoredEnvironment: string | null;
}

/** The user's zone and where it came from, for a chosen zone (null: none chosen) and an environment. */
export function resolveUserTimeZone(chosen: string | null, env: NodeJS.ProcessEnv = process.env): UserTimeZone {
  const environment = env.TEMPORA_TZ?.trim();
  const known = environment ? isKnownZone(environment) : false;
  const ignoredEnvironment = environment && !known ? environment : null;
  if (chosen !== null) return { timeZone: chosen.trim(), source: 'setting', ignoredEnvironment };
  if (environment && known) return { timeZone: environment, source: 'environment', ignoredEnvironment };
  return { timeZone: systemTimeZone(), source: 'system', ignoredEnvironment };
}

/** The zone when none was chosen: $TEMPORA_TZ, else the system's (the default of calls made without one). */
export function defaultTimeZone(): string {
  return resolveUserTimeZone(null).timeZone;
}
