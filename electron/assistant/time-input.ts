/**
 * The one reader of a time as a person or an agent types it — the edit and close forms and the
 * as-of controls (the app and the bridge: readTime), a CLI option (--as-of, --known-at, --at …), an
 * MCP tool's as_of / known_at / reference_time — read the way ingestion reads a message:
 * "yesterday", "先週", "March 2026", "2026-09-01" (that day in the user's zone), "2026-09-01T10:00"
 * (that wall time there), or an instant with its zone. What it cannot read is a MemoryInputError
 * naming the argument, in one sentence: an impossible date or UTC offset says which field
 * ("as_of: 2026-13-01 is not a date: there is no month 13"), an ambiguous numeric date names both
 * readings ("10/09/2026": 10 Sep or 9 Oct; read when the day is over 12 or equals the month:
 * memory/temporal/numeric-date.ts), a time outside the years Tempora stores says so.
 */
import { isoTimeOf, momentAskedBefore, toIsoUtc } from '../../shared/time';
import { zonedAt } from '../../shared/time-zone';
import { daysNamed, heldThrough, MemoryInputError, resolveTimeExpression, whyNotATime, type Resolved } from '../memory/index';

/** Resolves `text` at `now` in `zone` (the user's); a MemoryInputError naming `field` when it is not a time. */
export function readTimeInput(typed: string, field: string, now: string, zone: string): Resolved {
  const text = typed.trim();
  const fault = whyNotATime(text);
  if (fault !== null) throw new MemoryInputError(`${field}: ${text} ${fault}`, field);
  const resolved = resolveTimeExpression(text, { instant: now, zone });
  if (resolved === null) {
    const range = outOfRange(text);
    throw new MemoryInputError(
      `${field}: ${range ?? `not a time: ${JSON.stringify(text)} (write a date like 2026-09-01, a time like 2026-09-01T10:00, or a phrase like "yesterday" or "先週")`}`,
      field,
    );
  }
  return resolved;
}

/**
 * An end as typed (a fact's "True until"): said of the past ("3月": last March) unless that is not
 * after `start`, then still to come ("November" typed in June for a fact since May: this November),
 * as an observe line's end is read; one whose day, month or year is not over holds through it
 * (heldThrough). Whether it is after the start is still the caller's to check.
 */
export function readEndInput(typed: string, field: string, now: string, zone: string, start: string): Resolved {
  const reference = { instant: now, zone };
  const past = readTimeInput(typed, field, now, zone);
  const read = Date.parse(past.at) > Date.parse(start) ? past : (resolveTimeExpression(typed.trim(), reference, { ahead: true }) ?? past);
  return heldThrough(read, reference);
}

/**
 * A moment asked about — as of, known at — as typed. A day, week, month or year means its last moment
 * (what was true, or known, by the end of it: momentAskedBefore; "先週" by its Sunday), and now while it lasts: a fact shown "since 5 Dec" is found as
 * of 5 Dec even when it began that afternoon, and "今日" is now. The precision stays as said, so the
 * answer names the day, not the instant. A time of day means that instant.
 */
export function readMomentInput(typed: string, field: string, now: string, zone: string): Resolved {
  const read = readTimeInput(typed, field, now, zone);
  if (read.precision === 'instant') return read;
  const start = zonedAt(read.at, zone);
  let next;
  try {
    next = read.precision === 'day' ? start.add({ days: daysNamed(typed) }) : read.precision === 'month' ? start.add({ months: 1 }) : start.add({ years: 1 });
  } catch {
    return read; // past the last time Temporal can hold: the span's start is as far as a moment can go
  }
  const last = momentAskedBefore(next.startOfDay().epochMilliseconds);
  return { at: read.at <= now && now < last ? isoTimeOf(now) : last, precision: read.precision };
}

/** "out of range: … is before 0000-01-01T00:00:00.000Z UTC (the earliest time Tempora stores)" for an ISO time outside the years stored. */
function outOfRange(text: string): string | null {
  try {
    toIsoUtc(text);
  } catch (error) {
    if (error instanceof RangeError && error.message.startsWith('out of range:')) return error.message;
  }
  return null;
}
