/**
 * The one extraction call per message: the answer's schema (zod, written once: the grammar's JSON
 * Schema is generated from it and the answer is validated and typed by it) and the reading of the
 * answer. The schema is bounded everywhere (enums, maxLength, maxItems) so that even a tiny model
 * finishes and its output is valid JSON; dates are copied as written and resolved in code
 * (resolveTimeExpression in memory/temporal/time-expression.ts). The prompt's words are in prompts/extraction-prompt.ts.
 */
import { z } from 'zod';
import { modelText } from '../../llm/structured-output';
import { entityType } from '../../../shared/memory-schema';

export { EXTRACTION_SYSTEM, MAX_ASSISTANT_CONTEXT_CHARS, extractionPrompt, type ExtractionContext } from '../prompts/extraction-prompt';

export const MAX_FACTS_PER_MESSAGE = 5;
export const EXTRACTION_MAX_TOKENS = 2500;

const ENTITY_TYPES = entityType.options;

const extractedFact = z.strictObject({
  subject: modelText(40, 'who or what the fact is about; "me" for the user'),
  subject_type: z.enum(ENTITY_TYPES),
  predicate: modelText(32, 'a short snake_case relation, reusing a known one when it fits'),
  object: modelText(60),
  object_type: z.enum([...ENTITY_TYPES, 'literal']),
  fact: modelText(160, 'one standalone sentence in the language of the message'),
  cardinality: z.enum(['one', 'many']).describe('one: the subject has a single value at a time (lives_in, manager_is)'),
  since: modelText(24, 'when it became true, copied as written ("last week", "先週", "2026-09-01"), or ""'),
  until: modelText(24, 'when it stops or stopped being true, as written, or ""'),
  ended: z.boolean().describe('true when the message says it is already over (past tense); false when it still holds, even with an end to come'),
  from_assistant: z.boolean().describe("true when the assistant's previous message stated it and this message confirms it"),
});

export const extractionSchema = z.strictObject({
  facts: z.array(extractedFact).max(MAX_FACTS_PER_MESSAGE),
});

/** The extraction call's answer, as the schema guarantees it. */
export type ExtractionOutput = z.output<typeof extractionSchema>;

/** One extracted fact; `from_assistant`: stated by the assistant's previous message and confirmed by this one. */
export type ExtractedFact = z.output<typeof extractedFact>;

/** The facts of a (validated) answer, trimmed; drops those left without a subject, predicate, object or sentence. */
export function readExtraction(value: ExtractionOutput): ExtractedFact[] {
  return value.facts
    .map((f) => ({ ...f, subject: f.subject.trim(), predicate: f.predicate.trim(), object: f.object.trim(), fact: f.fact.trim(), since: f.since.trim(), until: f.until.trim() }))
    .filter((f) => f.subject !== '' && f.predicate.replace(/[^\p{L}\p{N}]/gu, '') !== '' && f.object !== '' && f.fact !== '');
}
