/**
 * Review before remembering, as the API shows it: a setting (off by default) under which what the
 * model learned from a message waits, unapplied, until the user approves it — whole, with some facts
 * left out, or with a fact corrected first — or rejects it. A waiting fact is not a fact yet: the
 * chat model is never given it and search never finds it. Part of the API contract.
 */
import { z } from 'zod';
import { cardinality, isoTime, precision } from './memory-schema';

const id = z.string().min(1).max(200);

/** One fact the model proposes, as it would be written (names, not ids; times in UTC). */
export const proposedFact = z.strictObject({
  index: z.number().int().min(0),
  subject: z.string(),
  predicate: z.string(),
  object: z.string(),
  /** The object is a literal value, not an entity. */
  literal: z.boolean(),
  fact: z.string(),
  cardinality,
  validAt: isoTime,
  validPrecision: precision,
  end: isoTime.nullable(),
  endPrecision: precision,
  /** "I stopped going to the gym": it closes the matching open fact at this time, adding none. */
  endsExisting: isoTime.nullable(),
  /** The model judged it the same as this stored fact (it becomes another source of it). */
  duplicateOf: id.nullable(),
  /** Stored facts the model judged it to contradict (the rules decide which one closes). */
  contradicts: z.array(id),
});
export type ProposedFact = z.infer<typeof proposedFact>;

export const pendingReview = z.strictObject({
  episodeId: id,
  conversationId: id.nullable(),
  conversationTitle: z.string().nullable(),
  content: z.string(),
  referenceTime: isoTime,
  heldAt: isoTime,
  facts: z.array(proposedFact),
  /** The agent (an MCP client, by the name it gives) whose facts these are; null: learned from the user's message. */
  agent: z.string().nullable(),
});
export type PendingReview = z.infer<typeof pendingReview>;

export const reviewSettings = z.strictObject({
  reviewBeforeRemembering: z.boolean(),
  /** Messages waiting for review. */
  waiting: z.number().int(),
});
export type ReviewSettings = z.infer<typeof reviewSettings>;

/** A change to one proposed fact before it is approved; times as typed are read in the user's zone by the engine. */
export const reviewEdit = z.strictObject({
  index: z.number().int().min(0),
  /** false: leave this fact out. */
  keep: z.boolean().optional(),
  object: z.string().trim().min(1).max(2000).optional(),
  fact: z.string().trim().min(1).max(4000).optional(),
  /** "2026-09-01", "先週", "yesterday" … */
  validAt: z.string().trim().min(1).max(200).optional(),
  /** "" or null: no end. */
  end: z.string().trim().max(200).nullable().optional(),
});
export type ReviewEdit = z.infer<typeof reviewEdit>;

export const approveReviewRequest = z.strictObject({
  episodeId: id,
  edits: z.array(reviewEdit).max(200).optional(),
});

export const reviewDecision = z.strictObject({
  episodeId: id,
  /** Facts written (their current versions) — none when rejected. */
  factIds: z.array(id),
  waiting: z.number().int(),
});
export type ReviewDecision = z.infer<typeof reviewDecision>;
