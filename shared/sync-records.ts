/**
 * What one device tells the others through a sync target (issue 31; docs/sync.md): the records of
 * its writes, packed in segments. A record is content-addressed (its id is the sha256 of its
 * canonical JSON without the id: syncRecordId in electron/sync/segments.ts) and carries the device
 * that recorded it and when. Claims travel whole (the valid-time facts of a slot are a pure
 * function of its claims); a forget travels as ids and hashes, never text.
 */
import { z } from 'zod';
import { cardinality, entityType, episodeRole, factOrigin, isoTime, precision, utcOffset } from './memory-schema';

/** The segment format this build writes and reads; a newer one is refused by name. */
export const SYNC_FORMAT = 1;

const id = z.string().min(1).max(200);
const entityRef = z.strictObject({ id, name: z.string().min(1), type: entityType });

export const syncConversation = z.strictObject({
  kind: z.literal('conversation'),
  id,
  title: z.string(),
  created_at: isoTime,
  learn: z.boolean(),
  title_source: z.string(),
});

export const syncEpisode = z.strictObject({
  kind: z.literal('episode'),
  id,
  conversation_id: id.nullable(),
  role: episodeRole,
  content: z.string(),
  reference_time: isoTime,
  created_at: isoTime,
  utc_offset: utcOffset.nullable(),
  time_zone: z.string().nullable(),
});

export const syncClaim = z.strictObject({
  kind: z.literal('claim'),
  uid: id,
  subject: entityRef,
  predicate: z.string().min(1),
  object: entityRef.nullable(),
  object_literal: z.string().nullable(),
  fact: z.string(),
  cardinality,
  valid_at: isoTime,
  valid_at_precision: precision,
  reference_time: isoTime,
  end_at: isoTime.nullable(),
  end_precision: precision.nullable(),
  end_kind: z.enum(['explicit', 'judged']).nullable(),
  episode_ids: z.array(id),
  origin: factOrigin,
});

/** A claim that left the memory (undo, edit, forget, a message forgotten): its id only. */
export const syncUnclaim = z.strictObject({ kind: z.literal('unclaim'), uid: id });

/** Versions of a slot forgotten: the sha256 of their sentences (each device deletes its history of them). */
export const syncForget = z.strictObject({ kind: z.literal('forget'), subject: entityRef, predicate: z.string().min(1), hashes: z.array(z.string().regex(/^[0-9a-f]{64}$/)) });

export const syncEpisodeForgotten = z.strictObject({ kind: z.literal('episode-forgotten'), id });
export const syncConversationDeleted = z.strictObject({ kind: z.literal('conversation-deleted'), id });

export const syncBody = z.discriminatedUnion('kind', [syncConversation, syncEpisode, syncClaim, syncUnclaim, syncForget, syncEpisodeForgotten, syncConversationDeleted]);
export type SyncBody = z.infer<typeof syncBody>;
export type SyncClaim = z.infer<typeof syncClaim>;

export const syncRecord = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{64}$/),
  device: id,
  /** When it was first recorded, on the device that recorded it. */
  at: isoTime,
  body: syncBody,
});
export type SyncRecord = z.infer<typeof syncRecord>;

/** A segment's first line. */
export const segmentHeader = z.object({ format: z.number().int(), device: id, deviceName: z.string(), seq: z.number().int().min(1) });
export type SegmentHeader = z.infer<typeof segmentHeader>;
