/**
 * The time-zone setting of the app: kept in settings.json next to the memory, applied at start,
 * changed from the UI. Every time the engine reads (forms, questions) or shows is in this zone.
 */
import type { TimeSettings } from '../../shared/api-contract';
import { configureTimeZone, systemTimeZone, userTimeZoneAndSource } from '../assistant/index';
import { isKnownZone, unknownZoneMessage } from '../../shared/time-zone';
import { MemoryInputError } from '../memory/index';
import { readSettings, writeSettings } from './engine-settings';

/**
 * Applies the stored zone, when there is one (else the zone already configured — a CLI's --tz — or
 * $TEMPORA_TZ or the system's stays); a stored zone this machine does not know is ignored.
 */
export function applyTimeZoneSetting(dataDir: string): void {
  const stored = readSettings(dataDir).timeZone;
  if (stored === null) return;
  if (isKnownZone(stored)) return configureTimeZone(stored);
  console.warn(`tempora: the time zone in settings.json (${JSON.stringify(stored)}) is unknown here; using ${systemTimeZone()}`);
  configureTimeZone(null);
}

export function timeSettings(): TimeSettings {
  return { ...userTimeZoneAndSource(), systemTimeZone: systemTimeZone() };
}

/** Stores and applies the user's zone (null: back to $TEMPORA_TZ or the system's). Refuses an unknown zone, changing nothing. */
export function setTimeZone(dataDir: string, timeZone: string | null): TimeSettings {
  if (timeZone !== null && !isKnownZone(timeZone)) {
    throw new MemoryInputError(`timeZone: ${unknownZoneMessage(timeZone)}`, 'timeZone');
  }
  writeSettings(dataDir, { ...readSettings(dataDir), timeZone });
  configureTimeZone(timeZone);
  return timeSettings();
}
