/**
 * Structured observations in: one episode per observation (its provenance), entities resolved by
 * name, then each claim added to the write, whose slots are resolved once when it commits
 * (write-batch.ts). The caller wraps the observations in one write.
 */
import { describeZodError, type Precision } from '../../../shared/memory-schema';
import { intervalIssue, isTimePhrase, observationInput, type Observation, type ObservationLine } from '../../../shared/observation-schema';
import { MemoryInputError } from '../memory-errors';
import type { EntityStore } from '../store/entity-store';
import type { EpisodeStore } from '../store/episode-store';
import { normalizePredicate } from '../store/normalize';
import type { WriteBatch } from './write-batch';
import { resolveTimeExpression, whyNotATime, zoneOfIsoTime } from './time-expression';
import type { IsoTime } from '../../../shared/time';
import { zonelessIn } from '../../../shared/time-zone';
import { formatAt } from '../../../shared/time-format';

export interface ObserveContext {
  entities: EntityStore;
  episodes: EpisodeStore;
  slots: WriteBatch;
}

export interface ObserveResult {
  episodeIds: string[];
}

/**
 * Checks every observation before any is applied; an error names the item ("where:N") and the field.
 * A valid_at / invalid_at written as a phrase ("先週", "9月1日", "last March") is resolved against the
 * line's reference_time in that time's own zone (its offset; "Z" is UTC). A reference_time written
 * without a zone is the wall time it names in `userZone` (none given: UTC).
 */
export function parseObservations(inputs: readonly unknown[], where: string, userZone?: string): Observation[] {
  return inputs.map((given, index) => {
    const at = `${where}:${index + 1}`;
    const zoned = userZone === undefined ? null : referenceInZone(given, userZone);
    const input = zoned ?? given;
    const parsed = observationInput.safeParse(input);
    if (!parsed.success) throw new MemoryInputError(`${at}: ${describeZodError(parsed.error)}`, at);
    const line = parsed.data;
    const offset = zoneOfIsoTime((input as { reference_time: string }).reference_time);
    // Phrases are read in the user's zone itself where the line was (DST moves the offset), else in the line's offset.
    const reference = { instant: line.reference_time, zone: zoned !== null ? userZone! : offset };
    const resolve = (field: 'valid_at' | 'invalid_at'): { at: IsoTime | null; precision: Precision } => {
      const value = line[field];
      if (!isTimePhrase(value)) return { at: value, precision: 'instant' };
      const resolved = resolveTimeExpression(value.phrase, reference);
      if (resolved === null) {
        const why = whyNotATime(value.phrase);
        if (why !== null) throw new MemoryInputError(`${at}: ${field}: ${value.phrase.trim()} ${why}`, at);
        throw new MemoryInputError(`${at}: ${field}: not a time: ${JSON.stringify(value.phrase)} (neither ISO-8601 nor a date phrase this can read)`, at);
      }
      return resolved;
    };
    const validAt = resolve('valid_at');
    const invalidAt = resolve('invalid_at');
    const observation: Observation = {
      ...(line as Omit<ObservationLine, 'valid_at' | 'invalid_at'>),
      valid_at: validAt.at,
      valid_at_precision: validAt.precision,
      invalid_at: invalidAt.at,
      invalid_at_precision: invalidAt.precision,
      utc_offset: offset === 'UTC' ? null : offset,
    };
    const issue = intervalIssue(observation.valid_at, observation.invalid_at, observation.reference_time, (start) => {
      const precision = observation.valid_at === null ? 'instant' : observation.valid_at_precision;
      return `${formatAt(start, precision, { timeZone: reference.zone, locale: 'en-GB' })}, in ${zoneWords(reference.zone)}`;
    });
    if (issue !== null) throw new MemoryInputError(`${at}: invalid_at: ${issue}`, at);
    return observation;
  });
}

export function observeAll(ctx: ObserveContext, observations: Observation[], defaultConversation: { id: string; title: string }): ObserveResult {
  const episodeIds: string[] = [];
  for (const observation of observations) {
    const conversationId = observation.conversation ?? defaultConversation.id;
    ctx.episodes.ensureConversation(conversationId, observation.conversation ?? defaultConversation.title);
    const episode = ctx.episodes.append({
      role: 'user',
      content: observation.fact,
      referenceTime: observation.reference_time,
      conversationId,
      utcOffset: observation.utc_offset,
    });
    episodeIds.push(episode.id);
    const subject = ctx.entities.findOrCreate(observation.subject);
    const objectEntity = observation.object_type === 'entity' ? ctx.entities.findOrCreate(observation.object) : null;
    ctx.slots.add({
      subjectId: subject.id,
      predicate: normalizePredicate(observation.predicate),
      objectId: objectEntity?.id ?? null,
      objectLiteral: objectEntity ? null : observation.object,
      fact: observation.fact,
      cardinality: observation.cardinality,
      validAt: observation.valid_at ?? observation.reference_time,
      validPrecision: observation.valid_at === null ? 'day' : observation.valid_at_precision,
      referenceTime: observation.reference_time,
      end: observation.invalid_at === null ? null : { at: observation.invalid_at, kind: 'explicit', by: null, precision: observation.invalid_at_precision },
      episodeIds: [episode.id],
      origin: 'observed',
    });
  }
  return { episodeIds };
}

/** The line with its reference_time, written without a zone, read in `zone` and given its offset there; null when it has one. */
function referenceInZone(input: unknown, zone: string): object | null {
  if (typeof input !== 'object' || input === null || !('reference_time' in input) || typeof input.reference_time !== 'string') return null;
  const zoned = zonelessIn(input.reference_time, zone);
  return zoned === null ? null : { ...input, reference_time: zoned };
}

/** A zone as the error says it: "Asia/Tokyo", "UTC+09:00", "UTC". */
function zoneWords(zone: string): string {
  return /^[+-]/.test(zone) ? `UTC${zone}` : zone;
}
