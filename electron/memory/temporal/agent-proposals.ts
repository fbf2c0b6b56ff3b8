/**
 * Facts an agent gives (MCP `remember_facts`) while the user reviews before remembering: they are
 * held like a learned message, not written. Each agent writes into its own conversation (named
 * after the agent), one message per reference time whose text is the facts' sentences; its
 * learning — the facts as the agent gave them, and the agent's name — waits in pending_reviews,
 * shown as "from agent NAME", and is applied by learn.ts when approved, as a message's would be.
 */
import { createHash } from 'node:crypto';
import type { Observation } from '../../../shared/observation-schema';
import type { IsoTime } from '../../../shared/time';
import type { EntityStore } from '../store/entity-store';
import type { EpisodeStore } from '../store/episode-store';
import type { EntityRef, LearnedFact, Learning } from '../store/learning-record';
import { isUserReference, normalizeName, normalizePredicate, USER_ENTITY_NAME } from '../store/normalize';
import { holdLearning } from '../store/pending-reviews';
import type { StoreContext } from '../store/store-context';
import { oneCardinalityPerSlot } from './observe';

/** The conversation an agent's facts go to: one per agent name. */
export function agentConversation(agent: string): { id: string; title: string } {
  return { id: `cnv_agent_${createHash('sha256').update(agent).digest('hex').slice(0, 24)}`, title: `Facts from ${agent} (MCP)` };
}

function refOf(entities: EntityStore, name: string): EntityRef {
  if (isUserReference(name)) return { kind: 'user' };
  const found = entities.find(name);
  return found ? { kind: 'existing', id: found.id, name, type: found.type, addAlias: false } : { kind: 'new', name, type: 'other' };
}

/** Who a line is about, for the slot check: the user, a stored entity, or the name not stored yet. */
function subjectOf(entities: EntityStore, name: string): { key: string; name: string } {
  if (isUserReference(name)) return { key: 'user', name: USER_ENTITY_NAME };
  const found = entities.find(name);
  return found ? { key: found.id, name: found.name } : { key: `new\u0000${normalizeName(name)}`, name: name.trim() };
}

function learnedFact(entities: EntityStore, o: Observation): LearnedFact {
  return {
    subject: refOf(entities, o.subject),
    object: o.object_type === 'entity' ? refOf(entities, o.object) : { kind: 'literal', value: o.object },
    predicate: normalizePredicate(o.predicate),
    fact: o.fact,
    cardinality: o.cardinality,
    validAt: o.valid_at ?? o.reference_time,
    // A fact given without its start began when it was said, to the day (as observe reads it).
    validPrecision: o.valid_at === null ? 'day' : o.valid_at_precision,
    end: o.invalid_at,
    endsExisting: null,
    endPrecision: o.invalid_at_precision,
    fromAssistant: false,
    duplicateOf: null,
    contradicts: [],
  };
}

/**
 * Holds `observations` from `agent` for review, in the caller's write: one message per reference
 * time, in the order given. Returns the held messages' ids. Observations that disagree on their
 * slot's cardinality are refused before anything is held, as observe refuses them (observe.ts
 * oneCardinalityPerSlot): a subject not known yet is the one its name would make when approved.
 */
export function holdAgentFacts(ctx: StoreContext & { episodes: EpisodeStore }, agent: string, observations: readonly Observation[]): string[] {
  const agrees = oneCardinalityPerSlot();
  for (const o of observations) agrees(o, subjectOf(ctx.entities, o.subject));
  const conversation = agentConversation(agent);
  ctx.episodes.ensureConversation(conversation.id, conversation.title);
  const byTime = new Map<IsoTime, Observation[]>();
  for (const o of observations) byTime.set(o.reference_time, [...(byTime.get(o.reference_time) ?? []), o]);
  return [...byTime.entries()].map(([referenceTime, group]) => {
    const episode = ctx.episodes.append({
      role: 'user',
      content: group.map((o) => o.fact).join('\n'),
      referenceTime,
      conversationId: conversation.id,
      utcOffset: group[0]!.utc_offset,
    });
    const learning: Learning = { episodeId: episode.id, referenceTime, confirmedEpisodeId: null, facts: group.map((o) => learnedFact(ctx.entities, o)), agent };
    holdLearning(ctx, learning);
    return episode.id;
  });
}
