/**
 * Dates written in numbers, checked before the resolver reads them: "2026-09-10", "2026/9/10",
 * "2026-09-10T09:00+09:00", "10/09/2026", "25.09.2026 10:30", "25/09".
 *
 * - A field no calendar or clock has — month 13, 30 February, hour 24, minute 60, UTC offset +25:00
 *   (offsets run to ±23:59, as ISO-8601 allows) — is a fault, said in words ("there is no month 13").
 * - Day and month in either order ("10/09/2026" in London is 10 September, in New York 9 October):
 *   read only when there is one reading — a number over 12 can only be the day ("25/09/2026",
 *   "09/25/2026"), or both numbers are the same ("09/09/2026"). When both readings are dates the
 *   text is ambiguous, a fault naming both. A two-digit year is a fault too (which century?).
 *   Separators "/", "." and "-" with a year; "/" alone without one ("25/09": the most recent 25 Sep).
 * - A date with one reading comes back written year first ("2026-09-25", "25 september"), which the
 *   resolver reads like any other.
 *
 * Used by the resolver (memory/temporal/time-expression.ts: a fault is no time; through whyNotATime
 * the one reader of typed time arguments, assistant/time-input.ts, says why: "as_of: 2026-13-01 is
 * not a date: there is no month 13") and by toIsoUtc (time.ts), so a stored time given in ISO
 * ("valid_at" in an observed line) is refused in the same words. Pure: no imports.
 */

/** A fault: the rest of a sentence after the text ("is not a date: …", "is ambiguous: …"). A reading: the text to resolve instead. */
export type NumericDate = { fault: string } | { text: string };

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const YEAR_FIRST = /^(\d{4})([-/])(\d{1,2})(?:\2(\d{1,2})(?:[t ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.\d{1,9})?)?(z|[+-]\d{2}:?\d{2})?)?)?$/iu;
const DAY_MONTH = /^(\d{1,2})([/.-])(\d{1,2})(?:\2(\d{4}|\d{2})(?:,? (\d{1,2}):(\d{2})(?::(\d{2}))?)?)?$/u;
/** 2026年2月30日, 2026年13月: a date written in Japanese (the phrase reader reads the ones that exist). */
const JA_DATE = /^(?:(\d{4})年)?(\d{1,2})月(?:(\d{1,2})日)?$/u;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Days in a month; without a year February may have 29. */
function daysIn(year: number | null, month: number): number {
  if (month === 2) return year === null || isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function dateFault(year: number | null, month: number, day: number | null): string | null {
  if (month < 1 || month > 12) return `there is no month ${month}`;
  if (day === null) return null;
  if (day < 1) return `there is no day ${day}`;
  const days = daysIn(year, month);
  // Without a year, February's 29 is a leap year's: it has 29 days at most.
  return day > days ? `${MONTHS[month - 1]}${year === null ? '' : ` ${pad(year, 4)}`} has ${year === null && month === 2 ? 'at most 29' : days} days` : null;
}

function clockFault(hour: number, minute: number, second: number, offset: string | undefined): string | null {
  if (hour > 23) return `there is no hour ${hour}`;
  if (minute > 59) return `there is no minute ${minute}`;
  if (second > 59) return `there is no second ${second}`;
  const off = offset === undefined ? null : /^[+-](\d{2}):?(\d{2})$/u.exec(offset);
  if (off && (Number(off[1]) > 23 || Number(off[2]) > 59)) return `there is no UTC offset ${offset}`;
  return null;
}

/** The text checked as a numeric date: a fault, a reading to resolve instead, or null (not one, or nothing to change). */
export function readNumericDate(text: string): NumericDate | null {
  const iso = YEAR_FIRST.exec(text);
  if (iso) {
    const [year, month, day] = [Number(iso[1]), Number(iso[3]), iso[4] === undefined ? null : Number(iso[4])];
    const date = dateFault(year, month, day);
    if (date) return { fault: `is not a date: ${date}` };
    const clock = iso[5] === undefined ? null : clockFault(Number(iso[5]), Number(iso[6]), Number(iso[7] ?? 0), iso[8]);
    return clock ? { fault: `is not a time: ${clock}` } : null;
  }
  const ja = JA_DATE.exec(text);
  if (ja) {
    // "2月30日" without a year is checked too: February has 29 days at most.
    const fault = dateFault(ja[1] === undefined ? null : Number(ja[1]), Number(ja[2]), ja[3] === undefined ? null : Number(ja[3]));
    return fault ? { fault: `is not a date: ${fault}` } : null;
  }
  const m = DAY_MONTH.exec(text);
  if (!m || (m[4] === undefined && m[2] !== '/')) return null;
  if (m[4]?.length === 2) return { fault: 'is not a date: write the year in full, like 2026-09-10 or "10 Sep 2026"' };
  const year = m[4] === undefined ? null : Number(m[4]);
  const [a, b] = [Number(m[1]), Number(m[3])];
  const dayFirst = dateFault(year, b, a);
  const monthFirst = dateFault(year, a, b);
  if (dayFirst === null && monthFirst === null && a !== b) return { fault: ambiguous(year, a, b) };
  if (dayFirst !== null && monthFirst !== null) {
    const why = b >= 1 && b <= 12 ? dayFirst : a >= 1 && a <= 12 ? monthFirst : `neither ${a} nor ${b} is a month`;
    return { fault: `is not a date: ${why}` };
  }
  const [day, month] = dayFirst === null ? [a, b] : [b, a];
  if (m[5] !== undefined) {
    const clock = clockFault(Number(m[5]), Number(m[6]), Number(m[7] ?? 0), undefined);
    if (clock) return { fault: `is not a time: ${clock}` };
  }
  if (year === null) return { text: `${day} ${MONTHS[month - 1]!.toLowerCase()}` };
  const time = m[5] === undefined ? '' : `t${pad(Number(m[5]))}:${m[6]}${m[7] === undefined ? '' : `:${m[7]}`}`;
  return { text: `${pad(year, 4)}-${pad(month)}-${pad(day)}${time}` };
}

function ambiguous(year: number | null, a: number, b: number): string {
  const said = (day: number, month: number) => `${day} ${SHORT[month - 1]}${year === null ? '' : ` ${pad(year, 4)}`}`;
  const isoOf = (day: number, month: number) => `${pad(year ?? 0, 4)}-${pad(month)}-${pad(day)}`;
  const write = year === null ? `Write "${said(a, b)}" or "${said(b, a)}"` : `Write ${isoOf(a, b)} or ${isoOf(b, a)} (or "${said(a, b)}")`;
  return `is ambiguous: ${said(a, b)} (day first) or ${said(b, a)} (month first)? ${write}; a numeric date is read only when its day is over 12 or equals its month`;
}
