/**
 * The time-zone setting of the app: kept with the other settings in the memory (shared/settings-schema.ts),
 * read when an engine opens, changed from the UI. The engine holds the chosen zone and passes the user's zone to every
 * call that reads (forms, questions, messages) or shows a time.
 */
import type { TimeSettings } from '../../shared/api-contract';
import { isKnownZone, systemTimeZone, unknownZoneMessage } from '../../shared/time-zone';
import { resolveUserTimeZone } from '../assistant/index';
import { MemoryInputError, type Memory } from '../memory/index';

/** The zone stored in the settings, or null when there is none; a stored zone this machine does not know is ignored. */
export function storedTimeZone(memory: Pick<Memory, 'settings'>): string | null {
  const stored = memory.settings.read().timeZone;
  if (stored === null || isKnownZone(stored)) return stored;
  console.warn(`tempora: the time zone in the settings (${JSON.stringify(stored)}) is unknown here; using ${resolveUserTimeZone(null).timeZone}`);
  return null;
}

/** What the time settings read: the zone chosen (else $TEMPORA_TZ or the system's), where it came from, the system's. */
export function timeSettingsOf(chosen: string | null): TimeSettings {
  return { ...resolveUserTimeZone(chosen), systemTimeZone: systemTimeZone() };
}

/** Stores the user's zone (null: back to $TEMPORA_TZ or the system's). Refuses an unknown zone, changing nothing. */
export function storeTimeZone(memory: Pick<Memory, 'settings'>, timeZone: string | null): void {
  if (timeZone !== null && !isKnownZone(timeZone)) throw new MemoryInputError(`timeZone: ${unknownZoneMessage(timeZone)}`, 'timeZone');
  memory.settings.update({ timeZone });
}
