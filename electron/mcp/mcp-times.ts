/**
 * Times as a calling agent writes them — ISO-8601 or a phrase ("yesterday", "先週", "2026-09-01") —
 * read in the user's zone at the moment of the call, the way the UI and the CLI read them. A time
 * that is not one is a MemoryInputError naming the argument, which becomes a tool error.
 */
import { readMomentInput, readTimeInput } from '../assistant/index';
import type { Precision } from '../../shared/memory-schema';
import type { IsoTime } from '../../shared/time';

export interface ReadTime {
  /** ISO-8601 UTC with milliseconds. */
  at: IsoTime;
  precision: Precision;
}

/** `text` read for the argument `field` in `zone` (the user's); undefined stays undefined. */
export function readTime(text: string | undefined, field: string, now: IsoTime, zone: string): ReadTime | undefined {
  return text === undefined ? undefined : readTimeInput(text, field, now, zone);
}

/** A moment asked about (as_of, known_at): a day, week, month or year means its end, or now while it lasts. */
export function readMoment(text: string | undefined, field: string, now: IsoTime, zone: string): ReadTime | undefined {
  return text === undefined ? undefined : readMomentInput(text, field, now, zone);
}
