/**
 * What a message taught, as plain data (a Learning): the assistant's reading of a message, applied
 * by temporal/learn.ts, kept with the message for Redo (message-learning.ts) and held for review
 * (pending-reviews.ts).
 */
import type { Cardinality, EntityType, Precision } from '../../../shared/memory-schema';
import type { IsoTime } from '../../../shared/time';

/** Who a name in the message is. */
export type EntityRef =
  | { kind: 'user' }
  /** A stored entity, called `name` in the message; addAlias: remember that name for it. */
  | { kind: 'existing'; id: string; name: string; type: EntityType; addAlias: boolean }
  /** Not stored yet; a name created earlier in the same message resolves to that entity. */
  | { kind: 'new'; name: string; type: EntityType };

export interface LearnedFact {
  subject: EntityRef;
  object: EntityRef | { kind: 'literal'; value: string };
  predicate: string;
  fact: string;
  cardinality: Cardinality;
  validAt: IsoTime;
  /** How precisely validAt was said ("since March": month). */
  validPrecision: Precision;
  /** A stated end after validAt, or null. */
  end: IsoTime | null;
  /** "I stopped going to the gym": closes the matching open fact at this time instead of adding one. */
  endsExisting: IsoTime | null;
  /** How precisely end (or endsExisting) was said. */
  endPrecision: Precision;
  /** The assistant said it and this message confirmed it: cite the assistant's message too. */
  fromAssistant: boolean;
  /** A stored fact the model judged to say the same thing: the claim joins its slot. */
  duplicateOf: string | null;
  /** Stored facts the model judged to contradict this one (rule 3 decides which one closes). */
  contradicts: string[];
}

export interface Learning {
  episodeId: string;
  referenceTime: IsoTime;
  /** The assistant message this one confirmed, if any. */
  confirmedEpisodeId: string | null;
  facts: LearnedFact[];
  /** The agent (MCP client) that gave these facts, held for review; absent: Tempora's own model read a message. */
  agent?: string;
}
