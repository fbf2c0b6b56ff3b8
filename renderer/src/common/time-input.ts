/** Turning what the user typed into the API's canonical UTC times, and back for form fields. */
import { toIsoUtc } from '../../../shared/time';

/**
 * "2026-09-01", "2026-09-01 10:00", "2026-09-01T10:00:00Z" → "2026-09-01T10:00:00.000Z" (no zone = UTC).
 * Text that cannot be read is returned as typed, so the API's own message explains what is wrong.
 */
export function normaliseTime(text: string): string {
  try {
    return toIsoUtc(text);
  } catch {
    return text.trim();
  }
}

/** Like normaliseTime but null when it cannot be read (for controls that must not send junk). */
export function tryParseTime(text: string): string | null {
  try {
    return toIsoUtc(text);
  } catch {
    return null;
  }
}

/** The value of an <input type="datetime-local"> (read as UTC) for an ISO time: "2026-09-01T10:00". */
export function toLocalInputValue(iso: string): string {
  return iso.slice(0, 16);
}

/** The value of an <input type="date"> for an ISO time. */
export function toDateInputValue(iso: string): string {
  return iso.slice(0, 10);
}

export const DAY_MS = 86_400_000;

