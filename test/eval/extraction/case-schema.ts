/**
 * The extraction evaluation's data: scenarios (a few messages of one conversation, in order, each
 * with the time and zone it was written in) and, per message, the facts a careful person would take
 * from it. Checked with zod when the set is loaded (cases.ts), so a malformed case fails loudly.
 *
 * Dates are written as a careful person reads them, in the message's zone, at the precision said:
 * "2026" (year), "2026-03" (month), "2026-03-05" (day), or "said" (no date in the message: the
 * message's own time) and, for valid_at only, "before" (a fact that ends here began earlier: only its
 * end is scored). `since`/`until` are the phrases as written, which a perfect model copies.
 */
import { z } from 'zod';

export const CATEGORIES = ['statement', 'change', 'correction', 'dates', 'confirmation', 'chit-chat'] as const;
export type Category = (typeof CATEGORIES)[number];

const dateSpec = z.union([z.literal('said'), z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'a date: YYYY, YYYY-MM or YYYY-MM-DD')]);
export type DateSpec = z.infer<typeof dateSpec>;

const ENTITY_TYPES = ['person', 'place', 'organization', 'thing', 'event', 'concept', 'other'] as const;

export const expectedFact = z.strictObject({
  subject: z.string().min(1),
  /** Other names a model may fairly use for the subject (honorifics are stripped anyway). */
  subjectAliases: z.array(z.string().min(1)).default([]),
  subjectType: z.enum(ENTITY_TYPES).default('person'),
  predicate: z.string().regex(/^[a-z][a-z0-9_]*$/, 'a canonical snake_case predicate'),
  /** Other predicates that say the same ("lives_in" ~ "resides_in"); the scorer has shared groups too. */
  predicateAliases: z.array(z.string().min(1)).default([]),
  object: z.string().min(1),
  objectAliases: z.array(z.string().min(1)).default([]),
  objectType: z.enum([...ENTITY_TYPES, 'literal']).default('literal'),
  cardinality: z.enum(['one', 'many']).default('many'),
  /** The sentence a perfect model writes. */
  fact: z.string().min(1),
  valid: z.union([dateSpec, z.literal('before')]).default('said'),
  invalid: dateSpec.nullable().default(null),
  /** The time phrases as written in the message (or "now" for an end without a date). */
  since: z.string().default(''),
  until: z.string().default(''),
  /** Stated by the assistant's previous message and confirmed by this one. */
  fromAssistant: z.boolean().default(false),
});
export type ExpectedFact = z.output<typeof expectedFact>;
export type ExpectedFactInput = z.input<typeof expectedFact>;

/** An earlier message's fact that this message must close (change) or retract (correction). */
export const expectedClosing = z.strictObject({
  /** Index of the earlier message in the scenario, and of the fact in its expectations. */
  message: z.number().int().min(0),
  fact: z.number().int().min(0),
  /** When it stopped being true; absent: only "no longer current" is checked (a correction). */
  at: dateSpec.optional(),
});
export type ExpectedClosing = z.output<typeof expectedClosing>;

export const caseMessage = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string().min(1),
  /** ISO-8601 with the writer's offset. */
  time: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z)$/),
  /** Defaults to the scenario's category (assistant messages are not scored). */
  category: z.enum(CATEGORIES).optional(),
  expect: z.array(expectedFact).max(5).default([]),
  closes: z.array(expectedClosing).default([]),
});
export type CaseMessage = z.output<typeof caseMessage>;

export const scenario = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9-]+$/),
    lang: z.enum(['en', 'ja']),
    category: z.enum(CATEGORIES),
    /** IANA zone the user writes in. */
    zone: z.string().min(1),
    messages: z.array(caseMessage).min(1).max(8),
  })
  .superRefine((s, ctx) => {
    s.messages.forEach((m, i) => {
      if (m.role === 'assistant' && (m.expect.length || m.closes.length)) ctx.addIssue({ code: 'custom', message: `${s.id}#${i}: an assistant message teaches nothing by itself` });
      for (const c of m.closes) {
        const target = s.messages[c.message];
        if (c.message >= i || !target || !target.expect[c.fact]) ctx.addIssue({ code: 'custom', message: `${s.id}#${i}: closes ${c.message}/${c.fact}, which is not an earlier expected fact` });
      }
      if (m.expect.some((f) => f.fromAssistant) && s.messages[i - 1]?.role !== 'assistant') ctx.addIssue({ code: 'custom', message: `${s.id}#${i}: fromAssistant without an assistant message before it` });
    });
  });
export type Scenario = z.output<typeof scenario>;
export type ScenarioInput = z.input<typeof scenario>;

/** Predicates with one value at a time (the cases' default cardinality for them). */
const ONE = new Set(['lives_in', 'works_at', 'manager', 'job_title', 'partner', 'studies_at', 'birthday', 'phone_number', 'drives', 'age', 'favorite_food', 'hometown', 'team', 'school', 'role', 'email', 'car', 'status', 'major', 'landlord', 'doctor', 'commute', 'salary', 'rent', 'height', 'weight']);

/** A fact in the cases' short form: subject, predicate, object, the sentence, and the rest as needed. */
export function fact(subject: string, predicate: string, object: string, sentence: string, more: Partial<ExpectedFactInput> = {}): ExpectedFactInput {
  return { subject, predicate, object, fact: sentence, cardinality: ONE.has(predicate) ? 'one' : 'many', ...more };
}

type MessageInput = z.input<typeof caseMessage>;

/** A user message: when, what, the facts to take from it, and (for the first of a scenario) its own category. */
export function user(time: string, content: string, expect: ExpectedFactInput[] = [], more: Partial<MessageInput> = {}): MessageInput {
  return { role: 'user', time, content, expect, ...more };
}

export function assistant(time: string, content: string): MessageInput {
  return { role: 'assistant', time, content };
}
