/**
 * What is wrong with a conversation of an export, in words that name the field and its value
 * ('created_at "2025-02-30T10:00:00Z" is not a date: February 2025 has 28 days', 'message m9 has
 * no author'), not in the validator's ("Too big: expected number to be <=100000000000").
 */
import type { z } from 'zod';
import { formatCount } from '../../../shared/count-words';
import { readNumericDate } from '../../../shared/numeric-date';
import { toIsoUtc } from '../../../shared/time';

/** The largest Unix time in seconds an export may give (in the year 5138): larger is milliseconds, or damage. */
export const MAX_UNIX_SECONDS = 1e11;

/** Why `seconds` is no Unix time, or null when it is one. */
export function secondsFault(seconds: number): string | null {
  if (seconds < 0) return `${seconds} is below zero, not a time in seconds since 1970`;
  if (seconds > MAX_UNIX_SECONDS) {
    const most = `the most is ${formatCount(MAX_UNIX_SECONDS, 'en-US')}, in the year ${new Date(MAX_UNIX_SECONDS * 1000).getUTCFullYear()}`;
    return `${seconds} is too large for a time in seconds since 1970 (${most}): was it written in milliseconds?`;
  }
  return null;
}

/** Why `text` is no ISO-8601 time, or null when it is one; the impossible dates in the words of shared/numeric-date.ts. */
export function timeTextFault(text: string): string | null {
  try {
    toIsoUtc(text);
    return null;
  } catch (error) {
    const numeric = readNumericDate(text.trim());
    if (numeric !== null && 'fault' in numeric) return `${JSON.stringify(text)} ${numeric.fault}`;
    const said = error instanceof Error ? error.message : String(error);
    if (/^out of range: /.test(said)) return said.slice('out of range: '.length);
    return `${JSON.stringify(text)} is not an ISO-8601 time (like 2025-02-14T10:00:00Z)`;
  }
}

/** What a field should hold, said for its kind. */
const EXPECTED: Record<string, string> = { number: 'a number', string: 'text', array: 'a list', object: 'an object', record: 'an object', boolean: 'true or false' };
/** Fields whose kind is said better by what they mean. */
const MEANT: Record<string, string> = { create_time: 'a time in seconds since 1970', update_time: 'a time in seconds since 1970', created_at: 'an ISO-8601 time', updated_at: 'an ISO-8601 time' };

/**
 * The issues of a failed parse of `input` in words. `subject` names what was parsed ("message m3",
 * or "" for the conversation); a path that starts with `within` is named without it (a node's "message").
 */
export function issuesInWords(error: z.ZodError, input: unknown, subject: string, within?: string): string {
  const said = error.issues.map((issue) => {
    const path = issue.path.slice(within !== undefined && issue.path[0] === within ? 1 : 0).map(String);
    const field = path.join('.');
    const value = valueAt(input, issue.path);
    const of = subject ? `${subject}: ` : '';
    if (value === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) return `${subject ? `${subject} ` : ''}has no ${field || 'content'}`;
    const shown = `${field}${field ? ' ' : ''}${show(value)}`;
    switch (issue.code) {
      case 'invalid_type':
        return `${of}${shown} is not ${MEANT[path.at(-1) ?? ''] ?? EXPECTED[issue.expected] ?? issue.expected}`;
      case 'invalid_value':
        return `${of}${shown} is not one of ${issue.values.map(String).join(', ')}`;
      case 'too_small':
        return `${of}${field} is ${typeof value === 'string' || Array.isArray(value) ? 'empty' : `below ${String(issue.minimum)}`}`;
      case 'too_big':
        return `${of}${shown} is over ${String(issue.maximum)}`;
      case 'custom':
        return `${of}${field} ${issue.message}`;
      default:
        return `${of}${shown}: ${issue.message}`;
    }
  });
  return [...new Set(said)].join('; ');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at = input;
  for (const key of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

/** A value as the export writes it, cut to a readable length. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
