/**
 * The arguments and results of the MCP tools, as zod schemas (the SDK turns them into the JSON
 * Schema clients see). Every string and array is bounded. Facts come back as in the export format
 * (shared/memory-schema.ts factRecord) plus `current`.
 */
import { z } from 'zod';
import { cardinality, episodeRecord, factRecord } from '../../shared/memory-schema';
import { questionTime } from '../../shared/api-contract';
import { hasVisibleCharacter, INVISIBLE_ONLY } from '../../shared/observation-schema';

/**
 * A text argument: something to say, at most `max` characters. A blank one (empty or only spaces)
 * is refused by the schema itself, so the JSON Schema a client sees carries it too (`pattern: "\\S"`),
 * in one sentence; the value is trimmed.
 */
const text = (max: number) =>
  z
    .string()
    .regex(/\S/, { message: 'is empty or only spaces (give it some text, or leave it out where it may be left out)', abort: true })
    .trim()
    .min(1)
    .max(max);

/**
 * A name or sentence to store (a subject, predicate, object, fact) or to filter by: as text, and
 * holding something a person can see — one of only zero-width or control characters would show as
 * nothing (a search query may be anything: it finds nothing then).
 */
const shown = (max: number) => text(max).refine(hasVisibleCharacter, { message: INVISIBLE_ONLY });

const id = text(200).describe('a fact id (any version of the fact), e.g. fct_1m8pfjqszrm7gxetxpy');

/** ISO-8601 or a phrase, read in the user's time zone. */
const time = (what: string) =>
  text(100).describe(`${what}: ISO-8601 (2026-09-10, 2026-09-10T09:00, 2026-09-10T09:00:00+09:00) or a phrase ("yesterday", "last March", "先週"), read in the user's time zone; a numeric day/month like 10/09/2026 is read only when unambiguous (day over 12, or day = month)`);

const asOf = time('valid time: answer with what was TRUE IN THE WORLD at this time (default: now)');
const knownAt = time('system time: answer with what THE MEMORY HELD at this time, before later corrections (default: now)');
const includeHistory = z.boolean().describe('include closed facts and superseded versions (default false: only facts true as of as_of)');

export const rememberFactsInput = z.strictObject({
  facts: z
    .array(
      z.strictObject({
        subject: shown(500).describe('who or what the fact is about; "me" is the user'),
        predicate: shown(200).describe('the relation, e.g. manager, lives_in, likes'),
        object: shown(2000).describe('an entity name, or a plain value when object_type is literal'),
        fact: shown(4000).describe('the fact as one standalone sentence'),
        valid_at: time('when it became true (default: reference_time)').optional(),
        invalid_at: time('when it stopped being true (default: still true)').optional(),
        cardinality: cardinality.optional().describe('one: one value at a time (a new manager closes the old one); many (default): several at once. Facts of one call with the same subject and predicate must give the same'),
        object_type: z.enum(['entity', 'literal']).optional().describe('entity (default) or literal (a plain value such as a date or a number)'),
      }),
    )
    .min(1)
    .max(200)
    .describe('facts you extracted; stored in one write'),
  reference_time: time('when the facts were said; phrases in valid_at/invalid_at are read against it (default: now)').optional(),
});

export const rememberMessageInput = z.strictObject({
  content: text(20_000).describe('the message, as said'),
  role: z.enum(['user', 'assistant', 'system', 'document']).optional().describe('who said it (default user)'),
  reference_time: time('when it was said (default: now)').optional(),
  conversation: text(200).optional().describe('a conversation id to file it under (default: one conversation for messages from MCP clients)'),
});

export const searchMemoryInput = z.strictObject({
  query: text(2000).describe('a question or keywords, in any language'),
  as_of: asOf.optional(),
  known_at: knownAt.optional(),
  include_history: includeHistory.optional().describe('force history on (true) or off (false); default: detected from the query ("when", "used to", "いつ")'),
  limit: z.number().int().min(1).max(100).optional().describe('most hits (default 10)'),
});

export const listFactsInput = z.strictObject({
  subject: shown(500).optional().describe('facts about this entity (name or alias; "me" is the user)'),
  predicate: shown(200).optional().describe('only this relation'),
  entity: shown(500).optional().describe('facts naming this entity as subject or object'),
  as_of: asOf.optional(),
  known_at: knownAt.optional(),
  include_history: includeHistory.optional(),
  limit: z.number().int().min(1).max(1000).optional().describe('most facts (default 100)'),
});

export const factHistoryInput = z.strictObject({ id });

export const correctFactInput = z.strictObject({
  id,
  fact: shown(4000).optional().describe('the corrected sentence'),
  object: shown(2000).optional().describe('the corrected object'),
  valid_at: time('the corrected start').optional(),
  invalid_at: time('the corrected end').nullable().optional().describe('the corrected end (ISO-8601 or a phrase); null reopens a closed fact'),
});

export const closeFactInput = z.strictObject({ id, at: time('when it stopped being true') });
export const forgetFactInput = z.strictObject({
  id,
  with_sources: z.boolean().optional().describe('also delete the messages it came from that are the source of nothing else (their text then leaves every index)'),
});

// ---------- results ----------

export const mcpFact = factRecord.extend({
  current: z.boolean().describe('true when this version is held now and the fact is true now (valid_at ≤ now < invalid_at)'),
});
export type McpFact = z.infer<typeof mcpFact>;

const ids = z.array(z.string()).max(10_000);

export const rememberFactsOutput = z.strictObject({
  observations: z.number().int(),
  added: z.array(mcpFact).describe('facts this write added, in the order they were given'),
  closed: z.array(mcpFact).describe('facts that were true before and that this write ended (the new versions, with their invalid_at)'),
  confirmed: z.array(mcpFact).describe('facts already known that gained this source'),
  episode_ids: ids,
  held_for_review: ids.describe('while the user reviews before remembering: the messages holding these facts until they approve (nothing was remembered); empty otherwise'),
});

export const rememberMessageOutput = z.strictObject({
  episode_id: z.string(),
  duplicate: z.boolean().describe('the same message was stored before (it is not stored twice)'),
  learning: z.enum(['now', 'queued', 'not_learned']).describe("now: Tempora's model learns it in this process; queued: it waits for a Tempora process with a model; not_learned: the role is not learned from"),
  model_loaded: z.boolean(),
  note: z.string(),
});

export const searchMemoryOutput = z.strictObject({
  hits: z.array(z.strictObject({ fact: mcpFact, score: z.number() })),
  history: z.boolean().describe('whether closed facts and older versions were searched'),
  vectors_used: z.boolean(),
  time: questionTime.nullable().describe('the time the query named, if any (answered as of it)'),
  note: z.string().nullable(),
});

export const listFactsOutput = z.strictObject({ facts: z.array(mcpFact), count: z.number().int() });

export const factHistoryOutput = z.strictObject({
  fact: mcpFact.describe('the latest version'),
  versions: z.array(mcpFact).describe('every version, oldest first'),
  source_messages: z.array(episodeRecord),
  closed_by: mcpFact.nullable().describe('the fact whose arrival ended this one'),
  closed: z.array(mcpFact).describe('facts this one ended'),
});

export const factOutput = z.strictObject({ fact: mcpFact });
const forgottenSource = z.strictObject({ id: z.string(), excerpt: z.string(), reason: z.string().optional() });
export const forgetFactOutput = z.strictObject({
  fact_ids: ids,
  entity_ids: ids,
  episode_ids: ids,
  /** The source messages deleted with it, and those kept with why ("also the source of 2 other facts"). */
  deleted_messages: z.array(forgottenSource),
  kept_messages: z.array(forgottenSource),
});

/** Each tool's name and the output schema it declares (memory-tools.ts registers them; tests check results). */
export const toolOutputs = {
  remember_facts: rememberFactsOutput,
  remember_message: rememberMessageOutput,
  search_memory: searchMemoryOutput,
  list_facts: listFactsOutput,
  fact_history: factHistoryOutput,
  correct_fact: factOutput,
  close_fact: factOutput,
  forget_fact: forgetFactOutput,
} as const;
export type ToolName = keyof typeof toolOutputs;
