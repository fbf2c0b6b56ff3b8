/**
 * Form fields for times, in the user's zone: the value a date or datetime-local input shows for an
 * instant and the instant its value names, and the readable text an edit field starts with
 * ("2026-09-01", "2026-09-01 10:00", "2026-03"), which main reads back as typed.
 */
import type { Precision } from '../../../shared/memory-schema';
import { startOfDay, wallOf, wallToUtc, type WallTime } from './zoned-time';

export const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dateOf = (w: WallTime) => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;

/** Whether the fields name a real calendar time (no 31 September, no 24:00). */
function isReal(w: WallTime): boolean {
  if (w.month < 1 || w.month > 12 || w.day < 1 || w.hour > 23 || w.minute > 59 || (w.second ?? 0) > 59) return false;
  const days = new Date(Date.UTC(2000, w.month, 0)).getUTCDate(); // in a leap year
  const leap = w.year % 4 === 0 && (w.year % 100 !== 0 || w.year % 400 === 0);
  return w.day <= (w.month === 2 && !leap ? 28 : days);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * The instant (ISO, UTC) that a date or datetime-local value names in `zone`: "2026-09-01T10:00"
 * → that wall time there, "2026-09-01" → the start of that day there; null when it is not one.
 */
export function instantOfLocalValue(value: string, zone: string): string | null {
  const m = LOCAL.exec(value.trim());
  if (!m) return null;
  const w: WallTime = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4] ?? 0), minute: Number(m[5] ?? 0), second: Number(m[6] ?? 0) };
  if (!isReal(w)) return null;
  return new Date(wallToUtc(w, zone)).toISOString();
}

/** The value of an <input type="date"> for an instant: its calendar day in `zone`. */
export function toDateInputValue(iso: string | number, zone: string): string {
  return dateOf(wallOf(new Date(iso).getTime(), zone));
}

/** The value of an <input type="datetime-local"> for an instant, 24-hour, in `zone`: "2026-09-01T10:00". */
export function toLocalInputValue(iso: string, zone: string): string {
  const w = wallOf(new Date(iso).getTime(), zone);
  return `${dateOf(w)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** The start of today in `zone`, as ISO (UTC). */
export function startOfToday(zone: string, now = Date.now()): string {
  return new Date(startOfDay(now, zone)).toISOString();
}

/**
 * What an edit field starts with for a time said at `precision`, readable and read back the same
 * by main: "2026" (year), "2026-03" (month), "2026-09-01" (day), "2026-09-01 10:00" (instant; with
 * seconds when it has them).
 */
export function editValue(iso: string, precision: Precision, zone: string): string {
  const ms = new Date(iso).getTime();
  if (Number.isNaN(ms)) return iso;
  const w = wallOf(ms, zone);
  switch (precision) {
    case 'year':
      return pad(w.year, 4);
    case 'month':
      return `${pad(w.year, 4)}-${pad(w.month)}`;
    case 'day':
      return dateOf(w);
    default: {
      const seconds = w.second ? `:${pad(w.second)}` : '';
      return `${dateOf(w)} ${pad(w.hour)}:${pad(w.minute)}${seconds}`;
    }
  }
}
