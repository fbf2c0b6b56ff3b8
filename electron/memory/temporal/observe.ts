/**
 * Structured observations in: one episode per observation (its provenance), entities resolved by
 * name, then each claim added to the write, whose slots are resolved once when it commits
 * (write-batch.ts). The caller wraps the observations in one write.
 */
import { describeZodError, type Precision } from '../../../shared/memory-schema';
import { intervalIssue, isTimePhrase, observationInput, type Observation, type ObservationLine } from '../../../shared/observation-schema';
import { MemoryInputError } from '../memory-errors';
import type { EntityStore } from '../store/entity-store';
import { messageIdOf, type EpisodeStore } from '../store/episode-store';
import { normalizePredicate } from '../store/normalize';
import type { WriteBatch } from './write-batch';
import { heldThrough, resolveTimeExpression, whyNotATime, zoneOfIsoTime } from './time-expression';
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
    // An end phrase is read as said of the past ("until March": last March) unless that is not after
    // the start: then as still to come ("until November" written in June: this November). One whose
    // period is not over holds through it (heldThrough: "until Friday" is true on Friday).
    const resolve = (field: 'valid_at' | 'invalid_at', start?: IsoTime): { at: IsoTime | null; precision: Precision } => {
      const value = line[field];
      if (!isTimePhrase(value)) return { at: value, precision: 'instant' };
      const past = resolveTimeExpression(value.phrase, reference);
      const read = start !== undefined && past !== null && past.at <= start ? (resolveTimeExpression(value.phrase, reference, { ahead: true }) ?? past) : past;
      const resolved = start !== undefined && read !== null ? heldThrough(read, reference) : read;
      if (resolved === null) {
        const why = whyNotATime(value.phrase);
        if (why !== null) throw new MemoryInputError(`${at}: ${field}: ${value.phrase.trim()} ${why}`, at);
        throw new MemoryInputError(`${at}: ${field}: not a time: ${JSON.stringify(value.phrase)} (neither ISO-8601 nor a date phrase this can read)`, at);
      }
      return resolved;
    };
    const validAt = resolve('valid_at');
    const invalidAt = resolve('invalid_at', validAt.at ?? line.reference_time);
    const observation: Observation = {
      ...(line as Omit<ObservationLine, 'valid_at' | 'invalid_at'>),
      valid_at: validAt.at,
      valid_at_precision: validAt.precision,
      invalid_at: invalidAt.at,
      invalid_at_precision: invalidAt.precision,
      utc_offset: offset === 'UTC' ? null : offset,
      at,
      cardinality_given: (input as { cardinality?: unknown }).cardinality !== undefined,
    };
    const issue = intervalIssue(observation.valid_at, observation.invalid_at, observation.reference_time, (start) => {
      const precision = observation.valid_at === null ? 'instant' : observation.valid_at_precision;
      return `${formatAt(start, precision, { timeZone: reference.zone, locale: 'en-GB' })}, in ${zoneWords(reference.zone)}`;
    });
    if (issue !== null) throw new MemoryInputError(`${at}: invalid_at: ${issue}`, at);
    return observation;
  });
}

/**
 * One write says one cardinality per slot: its observations about the same subject and predicate
 * must agree, or the whole write is refused (MemoryInputError, naming both lines, the slot and the
 * fix). Taken as they came, a "one" made the whole slot one-valued, a "many" line's value with it,
 * and two values said for the same instant left one closed at the instant it started — true
 * nowhere, and nobody told.
 * A cardinality left out is "many", the documented default, so it disagrees with a "one" too: the
 * default is the line's statement, and yielding it to the other line's "one" would bring back that
 * empty fact whenever the two start at the same instant.
 *
 * Across writes nothing changes: a slot holding a one-valued claim stays one-valued (slot-resolver.ts
 * reads a slot as `one` when any claim says so), so a later write's "many" or none joins it.
 *
 * Returns the check for the next observation: `subject` is who the line is about as the memory
 * knows it (`key`: the entity, the same for "me", "I" and "私"; `name`: how the error says it).
 */
export function oneCardinalityPerSlot(): (observation: Observation, subject: { key: string; name: string }) => void {
  const first = new Map<string, Observation>();
  return (observation, subject) => {
    const predicate = normalizePredicate(observation.predicate);
    const slot = `${subject.key}\u0000${predicate}`;
    const earlier = first.get(slot);
    if (earlier === undefined) first.set(slot, observation);
    else if (earlier.cardinality !== observation.cardinality) throw disagreement(earlier, observation, `${subject.name} · ${predicate}`);
  };
}

function disagreement(earlier: Observation, later: Observation, slot: string): MemoryInputError {
  const said = (o: Observation) => (o.cardinality_given ? `"${o.cardinality}"` : 'not given, so "many" (the default)');
  const says = (o: Observation) => (o.cardinality_given ? `says "${o.cardinality}"` : 'gives none, so "many" (the default)');
  return new MemoryInputError(
    `${later.at}: cardinality: ${said(later)}, but ${earlier.at} is about the same slot (${slot}) and ${says(earlier)} — ` +
      'the observations of one slot in one write must agree: give both "one" (one value at a time) or both "many" (several at once)',
    later.at,
  );
}

/** Places the observations in the caller's write; one that disagrees with another on its slot's cardinality refuses it (oneCardinalityPerSlot). */
export function observeAll(ctx: ObserveContext, observations: Observation[], defaultConversation: { id: string; title: string }): ObserveResult {
  // In the order first stored or found; a Set, so a file of many lines stays linear.
  const episodeIds = new Set<string>();
  const agrees = oneCardinalityPerSlot();
  for (const observation of observations) {
    const conversationId = observation.conversation ?? defaultConversation.id;
    ctx.episodes.ensureConversation(conversationId, observation.conversation ?? defaultConversation.title);
    // The same line again (an agent's retry, a line repeated) is the message stored already: its
    // fact is confirmed by it, no second message appears among its sources.
    const id = messageIdOf(conversationId, 'user', observation.reference_time, observation.fact);
    const episode = ctx.episodes.byId(id) ?? ctx.episodes.append({ id, role: 'user', content: observation.fact, referenceTime: observation.reference_time, conversationId, utcOffset: observation.utc_offset });
    episodeIds.add(episode.id);
    const subject = ctx.entities.findOrCreate(observation.subject);
    // Checked on the subject as found or made here (aliases, "I" for "me"); a refusal rolls the write back.
    agrees(observation, { key: subject.id, name: subject.name });
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
  return { episodeIds: [...episodeIds] };
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
