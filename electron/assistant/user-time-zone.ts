/**
 * The zone the user lives in, shared by ingestion (which day "昨日" or "9月1日" was when a message was
 * written) and retrieval (which day "on 2026-09-10" or "去年" names in a question).
 */
import { resolveTimeExpression } from '../memory/index';

/**
 * TEMPORA_TZ (an IANA name or a fixed offset like "+09:00") when set and valid, else the system's
 * zone. Episodes do not store the writer's zone yet; when they do, this gives way to the stored offset.
 */
export function userTimeZone(): string {
  const configured = process.env.TEMPORA_TZ?.trim();
  if (configured && configured !== checkedZone.name) checkedZone = { name: configured, valid: isKnownZone(configured) };
  if (configured && checkedZone.valid) return configured;
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The last TEMPORA_TZ checked: callers ask for the zone once per fact, the check runs once per value. */
let checkedZone: { name: string; valid: boolean } = { name: '', valid: false };

function isKnownZone(zone: string): boolean {
  try {
    resolveTimeExpression('now', { instant: '2000-01-01T00:00:00Z', zone });
    return true;
  } catch {
    return false; // an unknown zone name: the system's is used
  }
}
