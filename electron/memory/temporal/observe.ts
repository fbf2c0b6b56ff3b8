/**
 * Structured observations in: one episode per observation (its provenance), entities resolved by
 * name, then each claim placed by the temporal rules. The caller wraps a batch in one transaction.
 */
import { describeZodError } from '../../../shared/memory-schema';
import { observationInput, type Observation } from '../../../shared/observation-schema';
import { MemoryInputError } from '../memory-errors';
import type { EntityStore } from '../store/entity-store';
import type { EpisodeStore } from '../store/episode-store';
import { normalizePredicate } from '../store/normalize';
import { emptyChanges, mergeChanges, type SlotChanges, type SlotResolver } from './slot-resolver';

export interface ObserveContext {
  entities: EntityStore;
  episodes: EpisodeStore;
  slots: SlotResolver;
}

export interface ObserveResult {
  episodeIds: string[];
  changes: SlotChanges;
}

/** Checks every observation before any is applied; an error names the item ("where:N") and the field. */
export function parseObservations(inputs: readonly unknown[], where: string): Observation[] {
  return inputs.map((input, index) => {
    const parsed = observationInput.safeParse(input);
    if (!parsed.success) {
      const at = `${where}:${index + 1}`;
      throw new MemoryInputError(`${at}: ${describeZodError(parsed.error)}`, at);
    }
    return parsed.data;
  });
}

export function observeAll(ctx: ObserveContext, observations: Observation[], defaultConversation: { id: string; title: string }): ObserveResult {
  const changes = emptyChanges();
  const episodeIds: string[] = [];
  for (const observation of observations) {
    const conversationId = observation.conversation ?? defaultConversation.id;
    ctx.episodes.ensureConversation(conversationId, observation.conversation ?? defaultConversation.title);
    const episode = ctx.episodes.append({
      role: 'user',
      content: observation.fact,
      referenceTime: observation.reference_time,
      conversationId,
    });
    episodeIds.push(episode.id);
    const subject = ctx.entities.findOrCreate(observation.subject);
    const objectEntity = observation.object_type === 'entity' ? ctx.entities.findOrCreate(observation.object) : null;
    mergeChanges(
      changes,
      ctx.slots.apply([
        {
          subjectId: subject.id,
          predicate: normalizePredicate(observation.predicate),
          objectId: objectEntity?.id ?? null,
          objectLiteral: objectEntity ? null : observation.object,
          fact: observation.fact,
          cardinality: observation.cardinality,
          validAt: observation.valid_at ?? observation.reference_time,
          referenceTime: observation.reference_time,
          end: observation.invalid_at === null ? null : { at: observation.invalid_at, kind: 'explicit', by: null },
          episodeIds: [episode.id],
          origin: 'observed',
        },
      ]),
    );
  }
  return { episodeIds, changes };
}
