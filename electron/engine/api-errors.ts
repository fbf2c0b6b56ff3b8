/**
 * The edge where the engine's errors become the API's one error shape (shared/api-error.ts), for
 * both transports: electron/main/ipc.ts and the loopback bridge call outcomeOf() around
 * dispatchCall() and send what it gives, so a call's error keeps its code and field all the way
 * to the page.
 */
import { ApiError, failure, type ApiErrorData, type ApiOutcome } from '../../shared/api-error';
import { ModelDownloadError } from '../llm/model-download';
import { ModelCallError, ModelLoadError } from '../llm/model-errors';
import { MemoryInputError } from '../memory/index';
import type { z } from 'zod';
import type { FactRecord, Precision } from '../../shared/memory-schema';
import { formatAt, formatInstantWithZone, formatSaid } from '../../shared/time-format';

/**
 * A refusal naming an instant the memory could say only in UTC (MemoryInputError.at), said in the
 * user's zone; any other error as it is.
 */
export function inUserZone(error: unknown, timeZone: string): unknown {
  if (!(error instanceof MemoryInputError) || !error.instant) return error;
  const when = formatInstantWithZone(error.instant.at, { timeZone, locale: 'en-GB' });
  return new MemoryInputError(error.instant.words(when), error.where, error.code);
}

/** The API error for anything a call threw. */
export function toApiError(error: unknown): ApiErrorData {
  if (error instanceof ApiError) return error.toData();
  if (error instanceof MemoryInputError) return { code: error.code, message: textOf(error), field: error.where };
  if (error instanceof ModelLoadError || error instanceof ModelCallError || error instanceof ModelDownloadError) return { code: 'model', message: textOf(error), detail: error.code };
  return { code: 'internal', message: textOf(error) };
}

/** Runs a call and gives its outcome; never rejects. */
export async function outcomeOf(run: () => Promise<unknown>): Promise<ApiOutcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return failure(toApiError(error));
  }
}

function textOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text || 'the call failed';
}


/**
 * A refused request in words that name each field: "editFact: invalid request: fact: must not be
 * empty" (zod's own "Too small: expected string to have >=1 characters" says neither what nor why).
 */
export function describeRequestError(call: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const words = issueWords(issue);
    return path ? `${path}: ${words}` : words;
  });
  return `${call}: invalid request: ${[...new Set(lines)].join('; ')}`;
}

function issueWords(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'number') return `must be at least ${issue.minimum}`;
      return issue.message;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'number') return `must be at most ${issue.maximum}`;
      return issue.message;
    case 'unrecognized_keys':
      return `${issue.keys.map((k) => JSON.stringify(k)).join(', ')} ${issue.keys.length === 1 ? 'is not a field' : 'are not fields'} of this call`;
    case 'invalid_type':
      // zod keeps the input out of the issue: its message says what it received.
      return /received undefined/.test(issue.message) ? `is missing (a ${issue.expected} is needed)` : `must be a ${issue.expected}`;
    default:
      return issue.message;
  }
}

/**
 * "invalid_at (15 Sept 2020) must be after valid_at (1 Sept 2026), times in Asia/Tokyo": both times in
 * the user's zone (and, from a page, its locale). `startName` names the start as the caller knows it
 * (valid_at, --valid-at, "the start the fact has").
 */
export function endBeforeStartMessage(field: string, end: { at: string; precision: Precision }, start: { at: string; precision: Precision }, timeZone: string, startName = 'valid_at', locale = 'en-GB'): string {
  const format = { timeZone, locale };
  return `${field} (${timeSaid(end, format)}) must be after ${startName} (${timeSaid(start, format)}), times in ${timeZone}`;
}

/** A time in a refusal: an instant to the minute, as it was typed; a month or year as every screen shows it. */
function timeSaid(t: { at: string; precision: Precision }, format: { timeZone: string; locale: string }): string {
  return t.precision === 'instant' ? formatAt(t.at, 'instant', format) : formatSaid(t.at, t.precision, format);
}

/**
 * Why an end given to a fact is at or before its start, in words with both times in the user's zone
 * (before the memory says it in UTC), or null when it is after. `fact` is the current version (an old
 * version's id names its lineage): its start is the one the end meets, unless the same edit moves it.
 * The start is named as `field` names the end: an argument (valid_at), or on the command line (an
 * option: "--at") the option that moves it (--valid-at) or, when none does, "the start the fact has"
 * — no column name a command-line user never typed (as startNotBeforeEnd says "the end the fact has").
 */
export function endNotAfterStart(fact: FactRecord | undefined, start: { at: string; precision: Precision } | undefined, end: { at: string; precision: Precision } | undefined, field: string, zone: string, locale?: string): string | null {
  if (!fact || !end) return null;
  const from = start ?? { at: fact.valid_at, precision: fact.valid_at_precision };
  const option = field.startsWith('--');
  const startName = !option ? 'valid_at' : start !== undefined ? '--valid-at' : 'the start the fact has';
  return end.at > from.at ? null : endBeforeStartMessage(field, end, from, zone, startName, locale);
}

/**
 * Why a start moved to or past the end a fact already has (an edit giving no end of its own), in words
 * with both times in the user's zone, or null when it is before. The memory would refuse it naming
 * invalid_at, which the caller did not give, in UTC. An end held by the value that closed the fact
 * moves with the slot, and is the memory's to judge. `names` are the face's: the arguments for the
 * start and the end, and how to reopen ("invalid_at null", "--invalid-at none").
 */
export function startNotBeforeEnd(
  fact: FactRecord | undefined,
  start: { at: string; precision: Precision } | undefined,
  names: { start: string; end: string; reopen: string },
  zone: string,
  locale = 'en-GB',
): string | null {
  if (!fact || !start || fact.invalid_at === null || fact.invalidated_by !== null || start.at < fact.invalid_at) return null;
  const format = { timeZone: zone, locale };
  const end = timeSaid({ at: fact.invalid_at, precision: fact.invalid_at_precision ?? 'instant' }, format);
  return `${names.start} (${timeSaid(start, format)}) must be before the end the fact has (${end}), times in ${zone}: give ${names.end} too, or ${names.reopen} to reopen it`;
}

/** The field the first issue is about: its path, or the first unexpected key of a strict object. */
export function issueField(error: z.ZodError): string | undefined {
  const issue = error.issues[0];
  if (!issue) return undefined;
  const path = issue.path.map(String);
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) path.push(issue.keys[0]);
  return path.length > 0 ? path.join('.') : undefined;
}
