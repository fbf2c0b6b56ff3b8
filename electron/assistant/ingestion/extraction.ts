/**
 * The one extraction call per message: schema, prompt and reading of the answer.
 * The schema is bounded everywhere (enums, maxLength, maxItems) so that even a tiny model finishes
 * and its output is valid JSON; dates are copied as written and resolved in code (relative-dates.ts).
 */
import type { JsonSchemaObject } from '../../llm/ports';
import { entityType, type EntityType } from '../../../shared/memory-schema';

export const MAX_FACTS_PER_MESSAGE = 5;

const ENTITY_TYPES = entityType.options;

export const extractionSchema = {
  type: 'object',
  properties: {
    facts: {
      type: 'array',
      maxItems: MAX_FACTS_PER_MESSAGE,
      items: {
        type: 'object',
        properties: {
          subject: { type: 'string', maxLength: 40, description: 'who or what the fact is about; "me" for the user' },
          subject_type: { enum: ENTITY_TYPES },
          predicate: { type: 'string', maxLength: 32, description: 'a short snake_case relation, reusing a known one when it fits' },
          object: { type: 'string', maxLength: 60 },
          object_type: { enum: [...ENTITY_TYPES, 'literal'] },
          fact: { type: 'string', maxLength: 160, description: 'one standalone sentence in the language of the message' },
          cardinality: { enum: ['one', 'many'], description: 'one: the subject has a single value at a time (lives_in, manager_is)' },
          since: { type: 'string', maxLength: 24, description: 'when it became true, copied as written ("last week", "先週", "2026-09-01"), or ""' },
          until: { type: 'string', maxLength: 24, description: 'when it stopped being true, as written, or ""' },
          from_assistant: { type: 'boolean', description: "true when the assistant's previous message stated it and this message confirms it" },
        },
        required: ['subject', 'subject_type', 'predicate', 'object', 'object_type', 'fact', 'cardinality', 'since', 'until', 'from_assistant'],
        additionalProperties: false,
      },
    },
  },
  required: ['facts'],
  additionalProperties: false,
} as const satisfies JsonSchemaObject;

export interface ExtractedFact {
  subject: string;
  subject_type: EntityType;
  predicate: string;
  object: string;
  object_type: EntityType | 'literal';
  fact: string;
  cardinality: 'one' | 'many';
  since: string;
  until: string;
  /** Stated by the assistant's previous message and confirmed by this one. */
  from_assistant: boolean;
}

export const EXTRACTION_MAX_TOKENS = 2500;

export const EXTRACTION_SYSTEM = [
  'You extract durable facts about the user and the people, places and things in their life from one chat message.',
  'Only facts the message states; no guesses, no facts about the conversation itself. Return {"facts": []} when there are none.',
  'Write each fact sentence in the language of the message. Use "me" as the subject for the user.',
  'Reuse the known entity names and predicates listed when they mean the same thing; invent new ones only when none fits.',
  'Copy time expressions exactly as written into since/until; leave them "" when the message gives none.',
  'When the message says something is no longer true ("I stopped…", "もう…ない") without saying when, write "now" in until.',
  'The assistant\'s previous message, when shown, is context: take a fact from it only when the user\'s message confirms it ("yes", "right", "そうです"), write it as the user would, and set from_assistant to true. Otherwise from_assistant is false.',
].join('\n');

/** How much of the assistant's previous message the prompt shows (its end: where a question or a summary usually is). */
export const MAX_ASSISTANT_CONTEXT_CHARS = 400;

export interface ExtractionContext {
  role: string;
  content: string;
  referenceTime: string;
  knownEntities: { name: string; type: string; aliases: string[] }[];
  knownPredicates: { predicate: string; cardinality: string }[];
  /** The assistant message this user message answers, if any. */
  previousAssistant?: string;
}

export function extractionPrompt(ctx: ExtractionContext): string {
  const weekday = new Date(ctx.referenceTime).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  const entities = ctx.knownEntities.length
    ? ctx.knownEntities.map((e) => `- ${e.name} (${e.type}${e.aliases.length ? `; also: ${e.aliases.join(', ')}` : ''})`).join('\n')
    : '- (none yet)';
  const predicates = ctx.knownPredicates.length ? ctx.knownPredicates.map((p) => `- ${p.predicate} (${p.cardinality})`).join('\n') : '- (none yet)';
  return [
    `The message was written on ${ctx.referenceTime} (${weekday}); relative times like "last week" or "先週" are relative to that moment.`,
    `Known entities:\n${entities}`,
    `Known predicates:\n${predicates}`,
    ...(ctx.previousAssistant ? [`The assistant's previous message (context only):\n<<<\n${tail(ctx.previousAssistant, MAX_ASSISTANT_CONTEXT_CHARS)}\n>>>`] : []),
    `Message from the ${ctx.role}:\n"""\n${ctx.content}\n"""`,
  ].join('\n\n');
}

function tail(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `…${chars.slice(chars.length - max).join('')}`;
}

/** Reads the model's answer defensively: drops items that are empty after trimming. */
export function readExtraction(value: unknown): ExtractedFact[] {
  const facts = (value as { facts?: unknown })?.facts;
  if (!Array.isArray(facts)) return [];
  return facts
    .filter((f): f is ExtractedFact => typeof f === 'object' && f !== null)
    .map((f) => ({ ...f, subject: f.subject.trim(), predicate: f.predicate.trim(), object: f.object.trim(), fact: f.fact.trim(), since: f.since.trim(), until: f.until.trim(), from_assistant: f.from_assistant === true }))
    .filter((f) => f.subject !== '' && f.predicate.replace(/[^\p{L}\p{N}]/gu, '') !== '' && f.object !== '' && f.fact !== '');
}
