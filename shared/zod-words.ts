/**
 * A schema's refusal in words: what is wrong with which field, as a person reads it ("limit: must be
 * at least 1 (it was 0)", "facts.0.episode_ids: must be an array, not a string") — never zod's own
 * text ("Too small: expected number to be >=1", "Invalid input: expected object, received array",
 * "Unrecognized key: \"colour\""). A message a schema gives itself (`error:` on a field) is its
 * own words and is kept. Every door that checks with zod says it this way: observe lines, MCP tool
 * arguments, imports.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** ["facts", 0, "fact"] → "facts[0].fact", as the app names a field everywhere. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)), '');
}

/** A JSON value's kind in words: "an array", "a string", "null". */
export function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'boolean') return `${value}`;
  return `a ${typeof value}`;
}

/** zod's own messages start so; a schema's own words do not. */
const ZOD_WORDS = /^(Invalid|Too (small|big)|Unrecognized key)/;

const EXPECTED: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  null: 'null',
  bigint: 'a whole number',
  date: 'a date',
  record: 'an object',
  tuple: 'an array',
};

const FORMATS: Record<string, string> = {
  datetime: 'an ISO-8601 time',
  date: 'a date (YYYY-MM-DD)',
  email: 'an email address',
  url: 'a URL',
  uuid: 'a UUID',
  regex: 'of the expected form',
};

/** The value at `path` in `input`, when it is there. */
function valueAt(input: unknown, path: readonly PropertyKey[]): { value: unknown } | null {
  let at: unknown = input;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || !Object.prototype.hasOwnProperty.call(at, key)) return null;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return { value: at };
}

/** "(it was 0)", "(it was \"x\")" for a short scalar; "" otherwise. */
function itWas(given: { value: unknown } | null): string {
  if (given === null) return '';
  const v = given.value;
  if (typeof v === 'number' || typeof v === 'boolean') return ` (it was ${String(v)})`;
  if (typeof v === 'string' && v.length <= 40) return ` (it was ${JSON.stringify(v)})`;
  return '';
}

const count = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;

function sizeWords(issue: Extract<Issue, { code: 'too_small' | 'too_big' }>, given: { value: unknown } | null): string {
  const small = issue.code === 'too_small';
  const bound = small ? (issue as { minimum: number | bigint }).minimum : (issue as { maximum: number | bigint }).maximum;
  const inclusive = issue.inclusive !== false;
  const bound1 = `${inclusive ? (small ? 'at least' : 'at most') : small ? 'more than' : 'less than'}`;
  switch (issue.origin) {
    case 'string': {
      const length = typeof given?.value === 'string' ? `: ${count(given.value.length, 'character', 'characters')}` : '';
      if (small && Number(bound) === 1 && inclusive) return 'is empty';
      return `${small ? 'is too short' : 'is too long'}${length}, ${bound1} ${count(bound, 'character', 'characters')}`;
    }
    case 'array':
    case 'set': {
      const items = Array.isArray(given?.value) ? `: ${count(given.value.length, 'item', 'items')}` : '';
      if (small && Number(bound) === 1 && inclusive) return 'is empty: give at least one';
      return `${small ? 'has too few items' : 'has too many items'}${items}, ${bound1} ${bound}`;
    }
    default:
      return `must be ${bound1} ${String(bound)}${itWas(given)}`;
  }
}

/** One issue's words, without the field's name. `given`: the value at the issue's path, when known. */
function issueWords(issue: Issue, given: { value: unknown } | null): string {
  if (!ZOD_WORDS.test(issue.message)) return issue.message;
  switch (issue.code) {
    case 'invalid_type': {
      if (given === null || given.value === undefined) return 'is missing';
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      // A number that is not whole: "must be a whole number (it was 2.5)", not "…, not a number".
      if (issue.expected === 'int' && typeof given.value === 'number') return `must be ${expected}${itWas(given)}`;
      return `must be ${expected}, not ${jsonKind(given.value)}`;
    }
    case 'too_small':
    case 'too_big':
      return sizeWords(issue, given);
    case 'invalid_value':
      return `must be ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`}${itWas(given)}`;
    case 'invalid_format':
      return `must be ${FORMATS[issue.format] ?? `a valid ${issue.format}`}${itWas(given)}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}${itWas(given)}`;
    case 'invalid_union':
      return given === null ? 'is not in any of the accepted forms' : `is not in any of the accepted forms (it is ${jsonKind(given.value)})`;
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'holds a value that is not allowed';
    default:
      return issue.message;
  }
}

export interface ZodWordsOptions {
  /** The value that was checked: its values are said where they help ("(it was 0)"). */
  input?: unknown;
  /** How a field that is not one is said, with its path ("facts[0].colour"); default `"colour" is not a known field`. */
  unknownField?: (path: string, key: string) => string;
  /**
   * How a field's path is written: "facts.0.valid_at" by default, as an import's own checks name
   * its records; the MCP tools name arguments "facts[0].valid_at" (fieldPath).
   */
  pathOf?: (path: readonly PropertyKey[]) => string;
}

const dotted = (path: readonly PropertyKey[]) => path.map(String).join('.');

/** Each issue as "field: words" (a whole-value issue: its words alone). */
export function zodIssuesInWords(error: z.ZodError, options: ZodWordsOptions = {}): string[] {
  const pathOf = options.pathOf ?? dotted;
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys' && ZOD_WORDS.test(issue.message)) {
      return issue.keys.map((key) => {
        const path = pathOf([...issue.path, key]);
        return options.unknownField ? options.unknownField(path, key) : `${issue.path.length ? `${pathOf(issue.path)}: ` : ''}${JSON.stringify(key)} is not a known field`;
      });
    }
    const given = 'input' in issue ? { value: issue.input } : 'input' in options ? valueAt(options.input, issue.path) : null;
    const words = issueWords(issue, given);
    return [issue.path.length ? `${pathOf(issue.path)}: ${words}` : words];
  });
}
