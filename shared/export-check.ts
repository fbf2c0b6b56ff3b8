/**
 * A fast yes/no check of an export document against the rules of `memoryExport`
 * (memory-schema.ts), without copying it. zod builds a new object for every record it validates:
 * for a 100k-fact memory that is a second copy of the document (and the garbage to collect) before
 * the import writes a row. This predicate only reads. It is never more lenient than the schema
 * (a property test checks that every document it accepts, the schema accepts too); when it says no,
 * the import asks zod, whose message names the field.
 */
import { cardinality, CLAIM_UID, ENTITY_NAME_MAX, entityType, episodeRole, EXPORT_FORMAT, EXPORT_VERSION, factOrigin, historySource, precision, utcOffset, type MemoryExport, type MemoryExportV1, type MemoryExportV2 } from './memory-schema';
import { isIsoUtc } from './time';

const ROLES = new Set<unknown>(episodeRole.options);
const ENTITY_TYPES = new Set<unknown>(entityType.options);
const CARDINALITIES = new Set<unknown>(cardinality.options);
const ORIGINS = new Set<unknown>(factOrigin.options);
const PRECISIONS = new Set<unknown>(precision.options);

const hasOwn = (value: object, key: string): boolean => Object.hasOwn(value, key);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Exactly these own keys, no more (zod's strictObject); the `optional` ones may be there too (undefined: as if absent, as zod's .optional()). */
function hasExactly(value: Record<string, unknown>, keys: readonly string[], optional: readonly string[] = []): boolean {
  let count = 0;
  for (const key in value) {
    if (!hasOwn(value, key)) return false;
    count++;
  }
  for (const key of optional) if (hasOwn(value, key)) count--;
  if (count !== keys.length) return false;
  for (const key of keys) if (!hasOwn(value, key)) return false;
  return true;
}

const SOURCES = new Set<unknown>(historySource.options);
/** An imported conversation's or message's `source` (memory-schema.ts), when there is one. */
function isSourceOrAbsent(value: Record<string, unknown>, ids: readonly string[]): boolean {
  const source = value.source;
  if (source === undefined) return true;
  if (!isRecord(source) || !hasExactly(source, ['kind', ...ids]) || !SOURCES.has(source.kind)) return false;
  for (const key of ids) if (!isId(source[key])) return false;
  return true;
}

function isText(value: unknown, min: number, max: number): boolean {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

const isId = (value: unknown) => isText(value, 1, 200);
const isIdOrNull = (value: unknown) => value === null || isId(value);
const isTime = (value: unknown) => typeof value === 'string' && isIsoUtc(value);
const isTimeOrNull = (value: unknown) => value === null || isTime(value);

const CONVERSATION_KEYS = ['id', 'title', 'created_at'];
const EPISODE_KEYS_V1 = ['id', 'conversation_id', 'role', 'content', 'reference_time', 'created_at'];
const EPISODE_KEYS = [...EPISODE_KEYS_V1, 'utc_offset', 'time_zone'];
const ENTITY_KEYS = ['id', 'name', 'type', 'aliases', 'summary', 'created_at'];
const FACT_KEYS_V1 = ['id', 'subject_id', 'subject', 'predicate', 'object_id', 'object', 'fact', 'cardinality', 'valid_at', 'invalid_at', 'created_at', 'expired_at', 'episode_ids', 'invalidated_by', 'supersedes', 'origin'];
const FACT_KEYS = [...FACT_KEYS_V1, 'valid_at_precision', 'invalid_at_precision'];
const isOffsetOrNull = (value: unknown) => value === null || (typeof value === 'string' && utcOffset.safeParse(value).success);
const DOCUMENT_KEYS_V2 = ['format', 'version', 'exported_at', 'conversations', 'episodes', 'entities', 'facts'];
const DOCUMENT_KEYS = [...DOCUMENT_KEYS_V2, 'claims'];
const CLAIM_KEYS = ['fact_id', 'object_id', 'object', 'fact', 'cardinality', 'valid_at', 'valid_at_precision', 'reference_time', 'end_at', 'end_precision', 'end_kind', 'end_by', 'episode_ids', 'origin'];
const END_KINDS = new Set<unknown>(['explicit', 'judged']);

function isConversation(c: unknown): boolean {
  return (
    isRecord(c) &&
    hasExactly(c, CONVERSATION_KEYS, ['source', 'learn']) &&
    isSourceOrAbsent(c, ['id']) &&
    (c.learn === undefined || c.learn === false) &&
    isId(c.id) &&
    isText(c.title, 0, 500) &&
    isTime(c.created_at)
  );
}

function isEpisode(e: unknown, version: number): boolean {
  if (!isRecord(e)) return false;
  if (version !== 1 && (!isOffsetOrNull(e.utc_offset) || !(e.time_zone === null || isText(e.time_zone, 1, 100)))) return false;
  return (
    hasExactly(e, version === 1 ? EPISODE_KEYS_V1 : EPISODE_KEYS, version === 1 ? [] : ['source', 'learned']) &&
    isSourceOrAbsent(e, ['conversation_id', 'message_id']) &&
    (e.learned === undefined || e.learned === false || e.learned === 'cancelled') &&
    isId(e.id) &&
    isIdOrNull(e.conversation_id) &&
    ROLES.has(e.role) &&
    typeof e.content === 'string' &&
    isTime(e.reference_time) &&
    isTime(e.created_at)
  );
}

function isEntity(e: unknown): boolean {
  if (!isRecord(e) || !hasExactly(e, ENTITY_KEYS) || !isId(e.id) || !isText(e.name, 1, ENTITY_NAME_MAX) || !ENTITY_TYPES.has(e.type)) return false;
  if (!Array.isArray(e.aliases)) return false;
  for (const alias of e.aliases) if (!isText(alias, 1, ENTITY_NAME_MAX)) return false;
  return isText(e.summary, 0, 4000) && isTime(e.created_at);
}

function isFact(f: unknown, version: number): boolean {
  if (!isRecord(f) || !hasExactly(f, version === 1 ? FACT_KEYS_V1 : FACT_KEYS)) return false;
  if (version !== 1 && (!PRECISIONS.has(f.valid_at_precision) || !(f.invalid_at_precision === null || PRECISIONS.has(f.invalid_at_precision)))) return false;
  if (!isId(f.id) || !isId(f.subject_id) || typeof f.subject !== 'string' || !isText(f.predicate, 1, 200)) return false;
  if (!isIdOrNull(f.object_id) || typeof f.object !== 'string' || !isText(f.fact, 1, Infinity) || !CARDINALITIES.has(f.cardinality)) return false;
  if (!isTime(f.valid_at) || !isTimeOrNull(f.invalid_at) || !isTime(f.created_at) || !isTimeOrNull(f.expired_at)) return false;
  if (!Array.isArray(f.episode_ids)) return false;
  for (const id of f.episode_ids) if (!isId(id)) return false;
  return isIdOrNull(f.invalidated_by) && isIdOrNull(f.supersedes) && ORIGINS.has(f.origin);
}

function isClaim(c: unknown): boolean {
  if (!isRecord(c) || !hasExactly(c, CLAIM_KEYS, ['uid']) || !(c.uid === undefined || (typeof c.uid === 'string' && CLAIM_UID.test(c.uid))) || !isId(c.fact_id) || !isIdOrNull(c.object_id) || typeof c.object !== 'string' || !isText(c.fact, 1, Infinity)) return false;
  if (!CARDINALITIES.has(c.cardinality) || !isTime(c.valid_at) || !PRECISIONS.has(c.valid_at_precision) || !isTime(c.reference_time) || !isTimeOrNull(c.end_at)) return false;
  if (!(c.end_precision === null || PRECISIONS.has(c.end_precision)) || !(c.end_kind === null || END_KINDS.has(c.end_kind)) || !isIdOrNull(c.end_by)) return false;
  if (!Array.isArray(c.episode_ids)) return false;
  for (const id of c.episode_ids) if (!isId(id)) return false;
  return ORIGINS.has(c.origin);
}

function every(list: unknown, check: (item: unknown, version: number) => boolean, version: number): boolean {
  if (!Array.isArray(list)) return false;
  for (const item of list) if (!check(item, version)) return false;
  return true;
}

/** True when `memoryExport` (version 3), `memoryExportV2` or `memoryExportV1` would accept `input` as it is. */
export function isExportDocument(input: unknown): input is MemoryExport | MemoryExportV2 | MemoryExportV1 {
  if (!isRecord(input) || (input.version !== EXPORT_VERSION && input.version !== 2 && input.version !== 1)) return false;
  const version = input.version;
  const current = version === EXPORT_VERSION;
  return (
    hasExactly(input, current ? DOCUMENT_KEYS : DOCUMENT_KEYS_V2) &&
    (!current || every(input.claims, isClaim, version)) &&
    input.format === EXPORT_FORMAT &&
    isTime(input.exported_at) &&
    every(input.conversations, isConversation, version) &&
    every(input.episodes, isEpisode, version) &&
    every(input.entities, isEntity, version) &&
    every(input.facts, isFact, version)
  );
}

/** The record arrays of an export document, in the order an export writes them. */
export const EXPORT_SECTIONS = ['conversations', 'episodes', 'entities', 'facts', 'claims'] as const;
export type ExportSection = (typeof EXPORT_SECTIONS)[number];

const RECORD_CHECKS: Record<ExportSection, (item: unknown, version: number) => boolean> = {
  conversations: isConversation,
  episodes: isEpisode,
  entities: isEntity,
  facts: isFact,
  claims: isClaim,
};

/** One record of a section read on its own (an export streamed record by record): true when the document's schema would accept it there. */
export function isExportRecord(section: ExportSection, record: unknown, version: number): boolean {
  return RECORD_CHECKS[section](record, version);
}
