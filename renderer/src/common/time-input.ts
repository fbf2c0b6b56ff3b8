/**
 * Calendar days of the user's zone for the page's own use (an export's file name, the timeline's
 * day arithmetic). Times a person types are read by main (readTime; common/MomentInput.tsx,
 * TimeTextField.tsx), never parsed here.
 */
import { wallOf, type WallTime } from './zoned-time';

export const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dateOf = (w: WallTime) => `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}`;

/** An instant's calendar day in `zone`, as YYYY-MM-DD. */
export function toDateInputValue(iso: string | number, zone: string): string {
  return dateOf(wallOf(new Date(iso).getTime(), zone));
}
