/**
 * The records of Tempora's memory and the export format (version 3; version-1 and version-2
 * documents still import: memoryExportV1/V2 below, upgraded by upgradeExport). Every edge that receives these
 * (import files, IPC, the bridge) validates with these schemas; the TypeScript types are inferred.
 */
import { z } from 'zod';
import { isIsoUtc, MAX_ISO_TIME, MIN_ISO_TIME } from './time';
import { zodIssuesInWords, type ZodWordsOptions } from './zod-words';

/** A signed six-digit year, as Date#toISOString writes instants outside years 0000–9999. */
const EXPANDED_YEAR = /^[+-]\d{6}-/;

/**
 * A stored time: canonical UTC with milliseconds, from MIN_ISO_TIME to MAX_ISO_TIME (four-digit
 * years: the only ones that sort as text). Says the same as isIsoUtc (export-check.ts relies on it).
 */
export const isoTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, {
    // Not in this form: said once, without "is not a real date and time" after it.
    abort: true,
    error: (issue) =>
      typeof issue.input === 'string' && EXPANDED_YEAR.test(issue.input)
        ? `must be an ISO-8601 UTC time with milliseconds from ${MIN_ISO_TIME} to ${MAX_ISO_TIME}: ${JSON.stringify(issue.input)} is out of range`
        : 'must be an ISO-8601 UTC time with milliseconds, like 2026-09-01T01:00:00.000Z',
  })
  .refine(isIsoUtc, { message: 'is not a real date and time' })
  .describe('ISO-8601 UTC time with milliseconds, e.g. 2026-09-01T01:00:00.000Z');
export const isoTimeOrNull = isoTime.nullable();

/**
 * How precisely a time was said: "since March 2026" is a month, "on 1 Sep" a day, "2026-09-01T10:00"
 * an instant. The stored time is always the period's first instant (as-of queries use instants).
 */
export const precision = z.enum(['instant', 'day', 'month', 'year']);
export type Precision = z.infer<typeof precision>;

/** A UTC offset as ISO-8601 writes it: "+09:00", "-05:00", "+00:00". */
export const utcOffset = z
  .string()
  .regex(/^[+-](?:0\d|1[0-4]):[0-5]\d$/, { error: 'must be a UTC offset like +09:00 or -05:00' })
  .describe('UTC offset of the writer at reference_time, e.g. +09:00');

export const cardinality = z.enum(['one', 'many']);
export type Cardinality = z.infer<typeof cardinality>;

export const factOrigin = z.enum(['extracted', 'observed', 'user_edit', 'import']);
export type FactOrigin = z.infer<typeof factOrigin>;

export const entityType = z.enum(['user', 'person', 'place', 'organization', 'thing', 'event', 'concept', 'other']);
export type EntityType = z.infer<typeof entityType>;

export const episodeRole = z.enum(['user', 'assistant', 'system', 'document']);
export type EpisodeRole = z.infer<typeof episodeRole>;

const id = z.string().min(1).max(200);

/** Chat histories imported from another assistant (`tempora import-chats`). */
export const historySource = z.enum(['chatgpt', 'claude']);

export const conversationRecord = z.strictObject({
  id,
  title: z.string().max(500),
  created_at: isoTime,
  source: z
    .strictObject({ kind: historySource, id: z.string().min(1).max(200) })
    .optional()
    .describe("an imported conversation: the export it came from and the conversation's id there"),
  learn: z.literal(false).optional().describe('false: a conversation that is not remembered (its messages are kept, never learned); absent: remembered'),
});
export type ConversationRecord = z.infer<typeof conversationRecord>;

export const episodeRecordV1 = z.strictObject({
  id,
  conversation_id: id.nullable(),
  role: episodeRole,
  content: z.string(),
  reference_time: isoTime,
  created_at: isoTime,
});

export const episodeRecord = z.strictObject({
  ...episodeRecordV1.shape,
  utc_offset: utcOffset.nullable().describe('the UTC offset the message was written in (null: not known)'),
  time_zone: z.string().min(1).max(100).nullable().describe('the IANA time zone it was written in, e.g. Asia/Tokyo (null: not known)'),
  source: z
    .strictObject({ kind: historySource, conversation_id: z.string().min(1).max(200), message_id: z.string().min(1).max(200) })
    .optional()
    .describe('an imported message: the export it came from, and its conversation and message ids there (a re-import skips ids already stored)'),
  learned: z
    .union([z.literal(false), z.literal('cancelled')])
    .optional()
    .describe(
      "false: a message still waiting to be learned when this was exported (the memory importing it learns it); 'cancelled': an imported message whose learning the user cancelled (kept cancelled: 'tempora queue requeue' learns it); absent: learned, or nothing to learn",
    ),
});
export type EpisodeRecord = z.infer<typeof episodeRecord>;

/**
 * The longest entity name or alias: an observation's object may be 2000 characters
 * (observation-schema.ts) and becomes an entity's name, so a store holds names that long and its
 * export must import again.
 */
export const ENTITY_NAME_MAX = 2000;

export const entityRecord = z.strictObject({
  id,
  name: z.string().min(1).max(ENTITY_NAME_MAX),
  type: entityType,
  aliases: z.array(z.string().min(1).max(ENTITY_NAME_MAX)),
  summary: z.string().max(4000),
  created_at: isoTime,
});
export type EntityRecord = z.infer<typeof entityRecord>;

export const factRecordV1 = z.strictObject({
  id: id.describe('this version of the fact'),
  subject_id: id.describe('the entity the fact is about'),
  subject: z.string().describe("the subject entity's name (display only; subject_id is authoritative)"),
  predicate: z.string().min(1).max(200).describe('canonical relation name, e.g. manager, lives_in'),
  object_id: id.nullable().describe('the object entity, or null when the object is a literal value'),
  object: z.string().describe("the object entity's name, or the literal value"),
  fact: z.string().min(1).describe('the fact as a standalone sentence in the language it was said in'),
  cardinality: cardinality.describe('one: the subject has a single value at a time for this predicate; many: several at once'),
  valid_at: isoTime.describe('when it became true in the world'),
  invalid_at: isoTimeOrNull.describe('when it stopped being true (null: still true)'),
  created_at: isoTime.describe('when the memory recorded this version'),
  expired_at: isoTimeOrNull.describe('when the memory stopped holding this version (null: held now)'),
  episode_ids: z.array(id).describe('the messages it came from'),
  invalidated_by: id.nullable().describe('the fact whose arrival closed this one'),
  supersedes: id.nullable().describe('the version this one replaced (an edit or a closing)'),
  origin: factOrigin.describe('extracted by the model, observed (structured input), user_edit or import'),
});

export const factRecord = z.strictObject({
  ...factRecordV1.shape,
  valid_at_precision: precision.describe('how precisely valid_at was said: instant, day, month or year (valid_at is the start of that period)'),
  invalid_at_precision: precision.nullable().describe('how precisely invalid_at was said (null exactly when invalid_at is null)'),
});
export type FactRecord = z.infer<typeof factRecord>;

/**
 * A claim: one statement behind a live fact, as it was said — its own start, message time, stated
 * end and sources. A fact said twice merges two claims; the rules resolve a slot from its claims, not
 * from its facts, so a memory moved to another machine must carry them to resolve later messages as
 * the original would (the same document, the same answers).
 */
/** A claim's id on every device (claimRecord.uid): 32 lowercase hexadecimal digits. */
export const CLAIM_UID = /^[0-9a-f]{32}$/;

export const claimRecord = z.strictObject({
  fact_id: id.describe('the live fact version this claim stands behind (its subject and predicate are the fact\'s)'),
  object_id: id.nullable().describe('the object entity, or null when the object is a literal value'),
  object: z.string().describe("the object entity's name, or the literal value"),
  fact: z.string().min(1).describe('the statement as it was said'),
  cardinality: cardinality.describe('the cardinality this statement was said with'),
  valid_at: isoTime.describe('when it became true, as this statement says'),
  valid_at_precision: precision,
  reference_time: isoTime.describe('when it was said (its message time): of two statements with equal starts, the later said wins'),
  end_at: isoTimeOrNull.describe('an end this statement states itself (null: none)'),
  end_precision: precision.nullable().describe('how precisely end_at was said (null exactly when end_at is null)'),
  end_kind: z.enum(['explicit', 'judged']).nullable().describe('explicit: said with an end; judged: the model judged a later message ended it (null exactly when end_at is null)'),
  end_by: id.nullable().describe('the fact whose message ended it (a judged end), or null'),
  episode_ids: z.array(id).describe('the messages this statement came from'),
  origin: factOrigin,
  uid: z
    .string()
    .regex(CLAIM_UID, 'must be 32 lowercase hexadecimal digits')
    .optional()
    .describe("the statement's id on every device that syncs this memory; kept by an import into an empty memory, so two devices that imported the same document hold the same statement (a forget on one reaches the other)"),
});
export type ClaimRecord = z.infer<typeof claimRecord>;

export const EXPORT_FORMAT = 'tempora.memory';
export const EXPORT_VERSION = 3;

const documentV2 = {
  format: z.literal(EXPORT_FORMAT),
  exported_at: isoTime,
  conversations: z.array(conversationRecord),
  episodes: z.array(episodeRecord),
  entities: z.array(entityRecord),
  facts: z.array(factRecord),
};

export const memoryExport = z.strictObject({
  ...documentV2,
  version: z.literal(EXPORT_VERSION),
  claims: z.array(claimRecord).describe('the statements behind each live fact (a live fact without any is imported as one statement of itself)'),
});
export type MemoryExport = z.infer<typeof memoryExport>;

/** Version 2: facts without the claims behind them. Still imported (upgradeExport). */
export const memoryExportV2 = z.strictObject({ ...documentV2, version: z.literal(2) });
export type MemoryExportV2 = z.infer<typeof memoryExportV2>;

/** Version 1: no precisions, no episode offsets. Still imported (upgradeExport). */
export const memoryExportV1 = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(1),
  exported_at: isoTime,
  conversations: z.array(conversationRecord),
  episodes: z.array(episodeRecordV1),
  entities: z.array(entityRecord),
  facts: z.array(factRecordV1),
});
export type MemoryExportV1 = z.infer<typeof memoryExportV1>;

/**
 * An older document as the current version. Version 1 stored times as instants (precision
 * 'instant') and did not keep the writers' offsets (null); versions 1 and 2 carry no claims (each
 * live fact is imported as one claim of itself).
 */
export function upgradeExport(doc: MemoryExportV1 | MemoryExportV2 | MemoryExport): MemoryExport {
  if (doc.version === EXPORT_VERSION) return doc;
  if (doc.version === 2) return { ...doc, version: EXPORT_VERSION, claims: [] };
  return {
    ...doc,
    version: EXPORT_VERSION,
    episodes: doc.episodes.map((e) => ({ ...e, utc_offset: null, time_zone: null })),
    facts: doc.facts.map((f) => ({ ...f, valid_at_precision: 'instant', invalid_at_precision: f.invalid_at === null ? null : 'instant' })),
    claims: [],
  };
}

/**
 * A zod error in words, "facts.0.valid_at: must be a string, not a number; …", for messages that
 * name what and where (shared/zod-words.ts). `options.input`, the value checked, lets it say what was given.
 */
export function describeZodError(error: z.ZodError, options: ZodWordsOptions = {}): string {
  return zodIssuesInWords(error, options).join('; ');
}
