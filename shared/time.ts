/**
 * Time and interval math shared by every side. All stored times are ISO-8601 UTC strings with
 * milliseconds ("2026-09-01T01:00:00.000Z"): they sort lexicographically, so SQL compares them as text.
 */

export type IsoTime = string;

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** Parses an ISO-8601 date or date-time (date-only means 00:00 UTC) and returns canonical UTC ms form. */
export function toIsoUtc(input: string): IsoTime {
  const text = input.trim();
  if (!ISO_LIKE.test(text)) throw new RangeError(`not an ISO-8601 date or time: ${JSON.stringify(input)}`);
  const dateOnly = text.length === 10;
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(text);
  // A time without a zone is read as UTC so the result never depends on the machine's time zone.
  const ms = Date.parse(dateOnly ? `${text}T00:00:00Z` : `${text.replace(' ', 'T')}${hasZone ? '' : 'Z'}`);
  if (Number.isNaN(ms)) throw new RangeError(`impossible date: ${JSON.stringify(input)}`);
  // Date.parse rolls 2026-02-30 over to March: reject dates whose calendar fields do not survive.
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) {
    throw new RangeError(`impossible date: ${JSON.stringify(input)}`);
  }
  return new Date(ms).toISOString();
}

/** Like toIsoUtc but returns null for null/undefined/empty. */
export function toIsoUtcOrNull(input: string | null | undefined): IsoTime | null {
  if (input === null || input === undefined || input === '') return null;
  return toIsoUtc(input);
}

const CANONICAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z$/;

/**
 * True only for canonical UTC-with-milliseconds strings of real instants (2026-02-30 is refused).
 * Checked field by field, without Date: imports call it for every time of every record.
 */
export function isIsoUtc(value: string): boolean {
  const m = CANONICAL.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

/** A half-open interval [from, until); until null = still open. */
export interface Interval {
  from: IsoTime;
  until: IsoTime | null;
}

/** True when the instant t lies in [from, until). */
export function intervalContains(interval: Interval, t: IsoTime): boolean {
  return interval.from <= t && (interval.until === null || t < interval.until);
}

/** True when two half-open intervals share at least one instant. */
export function intervalsOverlap(a: Interval, b: Interval): boolean {
  const aEndsAfterBStarts = a.until === null || b.from < a.until;
  const bEndsAfterAStarts = b.until === null || a.from < b.until;
  return aEndsAfterBStarts && bEndsAfterAStarts;
}

/** "2026-09-15" for display: the UTC calendar date of an instant. */
export function isoDate(t: IsoTime): string {
  return t.slice(0, 10);
}
