/**
 * "What changed", as the API shows it: the changes of the memory's facts in valid time (when they
 * changed in the world), newest first — a one-valued slot's value replaced by another, a new value,
 * a value that ended — and the history of one slot (every value it had). Both are pages read by a
 * keyset cursor in SQL (electron/memory/temporal/change-feed.ts), so a page costs the same at 1M
 * facts as at 1k. Part of the API contract.
 */
import { z } from 'zod';
import { cardinality, factRecord, isoTime, precision } from './memory-schema';

const id = z.string().min(1).max(200);
/** Where the next page starts; opaque, from the previous page's `next`. */
const cursor = z.string().min(1).max(400);
export const MAX_CHANGE_PAGE = 200;
const limit = z.number().int().min(1).max(MAX_CHANGE_PAGE);

export const changeFeedRequest = z.strictObject({
  /** Only changes about this entity (its facts as subject), by name or alias. */
  entity: z.string().trim().min(1).max(500).optional(),
  /** Changes per page (default 50). */
  limit: limit.optional(),
  cursor: cursor.optional(),
});
export type ChangeFeedRequest = z.infer<typeof changeFeedRequest>;

/**
 * replaced: a one-valued slot's value closed by the next one (before → after);
 * added: a value that began with nothing closed by it (a many-valued slot's new value, a slot's first);
 * ended: a value whose end was said (or judged), with nothing taking its place in its slot.
 */
export const changeKind = z.enum(['replaced', 'added', 'ended']);
export type ChangeKind = z.infer<typeof changeKind>;

export const valueChange = z.strictObject({
  kind: changeKind,
  /** When it changed in the world (valid time), at the precision it was said. */
  at: isoTime,
  precision,
  subjectId: id,
  subject: z.string(),
  predicate: z.string(),
  cardinality,
  /** The value before (replaced), or the value that ended (ended); null for added. */
  before: z.string().nullable(),
  /** The value after (replaced, added); null for ended. */
  after: z.string().nullable(),
  /** The fact that began (replaced, added) or ended (ended). */
  factId: id,
  /** replaced: the fact it closed. */
  beforeFactId: id.nullable(),
  /** The message that said it, and its conversation; null when none did (an import, an edit). */
  episodeId: id.nullable(),
  conversationId: id.nullable(),
});
export type ValueChange = z.infer<typeof valueChange>;

export const changeFeedResponse = z.strictObject({ changes: z.array(valueChange), next: cursor.nullable() });
export type ChangeFeedResponse = z.infer<typeof changeFeedResponse>;

/** Every value held of a fact's slot (its subject and predicate), newest valid time first. */
export const slotHistoryRequest = z.strictObject({ factId: id, limit: limit.optional(), cursor: cursor.optional() });
export type SlotHistoryRequest = z.infer<typeof slotHistoryRequest>;
export const slotHistoryResponse = z.strictObject({
  subject: z.string(),
  predicate: z.string(),
  /** How many facts the slot holds in all. */
  total: z.number().int().min(0),
  facts: z.array(factRecord),
  next: cursor.nullable(),
});
export type SlotHistoryResponse = z.infer<typeof slotHistoryResponse>;
