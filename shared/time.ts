/**
 * Time and interval math shared by every side. All stored times are ISO-8601 UTC strings with
 * milliseconds ("2026-09-01T01:00:00.000Z"): they sort lexicographically, so SQL compares them as text.
 */
import { readNumericDate } from './numeric-date';
import { hasZoneSuffix } from './time-zone';

/**
 * A stored time in canonical form ("2026-09-01T01:00:00.000Z"). A template-literal type, so the compiler
 * refuses plain text, a date-only string and a string of unknown origin: a time reaches memory only
 * through a checked producer (toIsoUtc, the isIsoUtc guard, the zod isoTime schema,
 * isoFromDate/isoFromMs/nowIso) or as a canonical literal written out in full (issue 26, item 3).
 */
export type IsoTime = `${number}-${number}-${number}T${number}:${number}:${number}.${number}Z`;

/** The first and last instants a time may be: four-digit UTC years, the only ones that sort as text. */
export const MIN_ISO_TIME: IsoTime = '0000-01-01T00:00:00.000Z';
export const MAX_ISO_TIME: IsoTime = '9999-12-31T23:59:59.999Z';
const MIN_MS = Date.parse(MIN_ISO_TIME);
const MAX_MS = Date.parse(MAX_ISO_TIME);

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Parses an ISO-8601 date or date-time (date-only means 00:00 UTC) and returns canonical UTC ms form.
 * A time whose UTC instant falls outside MIN_ISO_TIME … MAX_ISO_TIME ("0000-01-01T00:00:00+01:00"
 * is 23:00 UTC on the last day of year -1) is refused: it would be written with a six-digit signed
 * year, which sorts wrongly as text and which no export check accepts.
 */
export function toIsoUtc(input: string): IsoTime {
  const text = input.trim();
  if (!ISO_LIKE.test(text)) throw new RangeError(`not an ISO-8601 date or time: ${JSON.stringify(input)}`);
  // Month 13, 30 February, hour 24, offset +25:00: said in the words every time argument uses.
  const numeric = readNumericDate(text);
  if (numeric !== null && 'fault' in numeric) throw new RangeError(`${text} ${numeric.fault}`);
  const dateOnly = text.length === 10;
  const hasZone = hasZoneSuffix(text);
  // A time without a zone is read as UTC so the result never depends on the machine's time zone.
  const ms = Date.parse(dateOnly ? `${text}T00:00:00Z` : `${text.replace(' ', 'T')}${hasZone ? '' : 'Z'}`);
  if (Number.isNaN(ms)) throw new RangeError(`impossible date: ${JSON.stringify(input)}`);
  // Date.parse rolls 2026-02-30 over to March: reject dates whose calendar fields do not survive.
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999.
  const probe = new Date(0);
  probe.setUTCFullYear(y, m - 1, d);
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) {
    throw new RangeError(`impossible date: ${JSON.stringify(input)}`);
  }
  if (ms < MIN_MS) throw new RangeError(`out of range: ${JSON.stringify(input)} is before ${MIN_ISO_TIME} UTC (the earliest time Tempora stores)`);
  if (ms > MAX_MS) throw new RangeError(`out of range: ${JSON.stringify(input)} is after ${MAX_ISO_TIME} UTC (the latest time Tempora stores)`);
  return isoFromDate(new Date(ms));
}

/**
 * The canonical form of a Date: what Date#toISOString writes for years 0000–9999. A Date outside
 * MIN_ISO_TIME … MAX_ISO_TIME (or an invalid one) is refused rather than written with a signed year.
 */
export function isoFromDate(date: Date): IsoTime {
  if (Number.isNaN(date.getTime())) throw new RangeError('not a date and time: the Date is invalid');
  const text = date.toISOString();
  if (isIsoUtc(text)) return text;
  throw new RangeError(`out of range: ${date.toISOString()} is outside ${MIN_ISO_TIME} … ${MAX_ISO_TIME} UTC`);
}

/**
 * The moment a day, month or year asked about stands for ("as of 30 November", "on 30 November"),
 * given the start of the period after it: its last millisecond but one. An end held through a period
 * is stored at that period's last millisecond (so that it reads as the period said, "until
 * November"), and a fact true until then is true at the moment asked.
 */
export function momentAskedBefore(nextStartMs: number): IsoTime {
  return isoFromMs(nextStartMs - 2);
}

/** The canonical form of an instant in epoch milliseconds. */
export function isoFromMs(ms: number): IsoTime {
  return isoFromDate(new Date(ms));
}

/**
 * Text that must already be a canonical time (read back from a store, a file this program wrote or a
 * generator that writes Date#toISOString): checked by isIsoUtc without parsing, refused in words if not.
 */
export function isoTimeOf(text: string, what = 'time'): IsoTime {
  if (isIsoUtc(text)) return text;
  throw new RangeError(`${what}: ${JSON.stringify(text)} is not a stored time (like 2026-09-01T01:00:00.000Z)`);
}

/** The present instant, canonical. */
export function nowIso(): IsoTime {
  return isoFromDate(new Date());
}

/** Offsets of the digits in "2026-09-01T01:00:00.000Z". */
const DIGITS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22];
const SEPARATORS: [number, number][] = [[4, 45], [7, 45], [10, 84], [13, 58], [16, 58], [19, 46], [23, 90]]; // - - T : : . Z

function twoDigits(value: string, at: number): number {
  return (value.charCodeAt(at) - 48) * 10 + value.charCodeAt(at + 1) - 48;
}

/**
 * True only for canonical UTC-with-milliseconds strings of real instants (2026-02-30 is refused),
 * from MIN_ISO_TIME to MAX_ISO_TIME: the four-digit year leaves out the signed six-digit years
 * ("-000001-12-31T23:00:00.000Z", "+010000-01-01T00:00:00.000Z") that toIsoUtc refuses.
 * Checked character by character, without Date or a regex: imports call it for every time of
 * every record (half a million at 100k facts).
 */
export function isIsoUtc(value: string): value is IsoTime {
  if (value.length !== 24) return false;
  for (const i of DIGITS) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  for (const [i, code] of SEPARATORS) if (value.charCodeAt(i) !== code) return false;
  const year = twoDigits(value, 0) * 100 + twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  if (month < 1 || month > 12 || day < 1 || twoDigits(value, 11) > 23 || twoDigits(value, 14) > 59 || twoDigits(value, 17) > 59) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  return day <= days;
}

/** "2026-09-15" for display: the UTC calendar date of an instant. */
export function isoDate(t: IsoTime): string {
  return t.slice(0, 10);
}
