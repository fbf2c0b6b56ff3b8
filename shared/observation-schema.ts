/** A structured observation: one fact as it arrives, before the temporal rules place it. */
import { z } from 'zod';
import { toIsoUtc, type IsoTime } from './time';
import { hasZoneSuffix } from './time-zone';
import { cardinality, type Precision } from './memory-schema';

/** A value's kind in words, for "must be text, not a number". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return `${value}`;
  return `a ${typeof value}`;
}

const TIME_AS_TEXT = 'must be a time written as text (2026-09-01, 2026-09-01T10:00:00+09:00 or a phrase like "last March")';

/**
 * A string field's words when it is missing or not a string, one sentence each (not zod's "Invalid
 * input: expected string, received undefined"): `what` says what belongs there, for a missing one.
 */
const textOf = (what: string, notText = 'must be text (in quotes)') =>
  z.string({ error: (issue) => (issue.input === undefined ? `is missing (${what})` : `${notText}, not ${kindOf(issue.input)}`) });

const time = textOf('the time the line was said, e.g. 2026-09-01T10:00:00+09:00', TIME_AS_TEXT).transform((value, ctx) => {
  try {
    return toIsoUtc(value);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});

/**
 * A valid_at / invalid_at as written in words ("先週", "9月1日", "last March", "yesterday"). shared/
 * cannot resolve it (no zone arithmetic here): memory's observe does, against the line's
 * reference_time in that time's own offset.
 */
export interface TimePhrase {
  phrase: string;
}

export const TIME_PHRASE_MAX = 100;

/**
 * An ISO-8601 time with its zone (Z or an offset: that instant) or a time phrase. A date or a
 * date-time without a zone ("2026-09-01", "2026-09-01T10:00") is a phrase too: that day or wall
 * time in the zone of the line's reference_time, resolved by observe like any other phrase.
 */
const timeOrPhrase = textOf('a time', TIME_AS_TEXT).transform((value, ctx): IsoTime | TimePhrase => {
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}(?:$|[T ])/.test(text)) {
    try {
      const instant = toIsoUtc(text); // impossible dates and years out of range are refused here
      return hasZoneSuffix(text) ? instant : { phrase: text };
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  }
  if (text === '' || text.length > TIME_PHRASE_MAX) {
    ctx.addIssue({ code: 'custom', message: `expected an ISO-8601 time or a time phrase of at most ${TIME_PHRASE_MAX} characters` });
    return z.NEVER;
  }
  return { phrase: text };
});

export const isTimePhrase = (value: IsoTime | TimePhrase | null): value is TimePhrase => typeof value === 'object' && value !== null;

/**
 * Why an interval is impossible (invalid_at not after valid_at), or null when it is fine; `say`
 * writes the start as people read it (observe: in the line's zone, at its precision).
 */
export function intervalIssue(validAt: IsoTime | null, invalidAt: IsoTime | null, referenceTime: IsoTime, say: (start: IsoTime) => string = (t) => t): string | null {
  const start = validAt ?? referenceTime;
  if (invalidAt === null || invalidAt > start) return null;
  return `must be after valid_at (${say(start)}${validAt === null ? ', taken from reference_time' : ''})`;
}

/**
 * Whether a text holds something a person can see: a name or sentence of only zero-width spaces,
 * control or format characters (U+0000, U+200B, U+2060…) trims to itself and is not blank to the
 * schema, yet shows as nothing on every screen.
 */
export const hasVisibleCharacter = (text: string): boolean => /[^\s\p{Cc}\p{Cf}\p{Z}]/u.test(text);
export const INVISIBLE_ONLY = 'holds only invisible characters (zero-width spaces, control or format characters): give it some text';
/** At most `max` characters, said with how many it has. */
const atMost = (max: number) => ({ error: (issue: { input?: unknown }) => `is too long: ${typeof issue.input === 'string' ? issue.input.length : 'more than'} characters, at most ${max}` });

/**
 * A name or sentence: there (`what` belongs in it), text, not empty, not only spaces, at most `max`
 * characters, and something a person can see — each fault one sentence, and only the first.
 */
const visible = (max: number, what: string) =>
  textOf(what)
    .refine((text) => text !== '', { message: 'is empty', abort: true })
    .trim()
    .min(1, { message: 'holds only spaces', abort: true })
    .max(max, { ...atMost(max), abort: true })
    .refine(hasVisibleCharacter, { message: INVISIBLE_ONLY });

/** A wrong choice, said with what each one means and what was given. */
const wrongChoice = (words: string) => (issue: { input: unknown }) => `must be ${words}, not ${typeof issue.input === 'string' ? JSON.stringify(issue.input) : kindOf(issue.input)}`;

const observationFields = {
  subject: visible(500, 'who or what the fact is about, e.g. "me"'),
  predicate: visible(200, 'the relation, e.g. "lives in"'),
  object: visible(2000, 'what it relates the subject to, e.g. "Osaka"'),
  /** 'entity' (default): the object names a person, place or thing; 'literal': a plain value. */
  object_type: z.enum(['entity', 'literal'], { error: wrongChoice('"entity" (a person, place or thing) or "literal" (a plain value)') }).default('entity'),
  fact: visible(4000, 'the fact as one sentence, e.g. "I live in Osaka."'),
  reference_time: time,
  valid_at: timeOrPhrase.nullable().optional().transform((v) => v ?? null),
  invalid_at: timeOrPhrase.nullable().optional().transform((v) => v ?? null),
  cardinality: z.enum(cardinality.enum, { error: wrongChoice('"one" (one value at a time: a new one closes the old) or "many" (several at once)') }).default('many'),
  conversation: textOf('a conversation id').min(1, { message: 'is empty' }).max(200, atMost(200)).optional(),
};

/** A field that is none, or a line that is not an object, said with what an observation is. */
const notAnObservation = (issue: z.core.$ZodRawIssue): string | undefined => {
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => JSON.stringify(key));
    const named = keys.length === 1 ? `${keys[0]} is not a field` : `${keys.slice(0, -1).join(', ')} and ${keys.at(-1)} are not fields`;
    return `${named} of an observation (the fields are ${Object.keys(observationFields).join(', ')})`;
  }
  if (issue.code === 'invalid_type') return `an observation is a JSON object, not ${kindOf(issue.input)}`;
  return undefined;
};

export const observationInput = z.strictObject(observationFields, { error: notAnObservation });
// invalid_at after valid_at is checked once the phrases are resolved (memory's observe), where the
// start is said in the line's zone.
export type ObservationInput = z.input<typeof observationInput>;
/** A line as read: valid_at / invalid_at may still be phrases. */
export type ObservationLine = z.output<typeof observationInput>;
/** An observation ready to place: every time resolved to ISO UTC, with how precisely it was said. */
export type Observation = Omit<ObservationLine, 'valid_at' | 'invalid_at'> & {
  valid_at: IsoTime | null;
  valid_at_precision: Precision;
  invalid_at: IsoTime | null;
  invalid_at_precision: Precision;
  /** The offset written in the line's reference_time ("+09:00"); null when it was Z or none. */
  utc_offset: string | null;
  /** Where it was given, as an error names it: the source and its position ("facts.jsonl:3"). */
  at: string;
  /** Whether the line said its cardinality; else it is "many", the default. */
  cardinality_given: boolean;
};
