/**
 * Learning from one message: one extraction call, entity resolution, at most one judgement call.
 * The model calls happen here (async) and end in a Learning — plain data that memory applies in one
 * transaction together with the job's completion (temporal/learn.ts), so a crash at any point leaves
 * either nothing or the whole result.
 */
import type { EpisodeRecord, Precision } from '../../../shared/memory-schema';
import type { StructuredModel } from '../../llm/ports';
import { heldThrough, isUserReference, normalizePredicate, objectKeyOf, resolveTimeExpression, type EntityRef, type JobUsage, type LearnedFact, type Learning, type Memory, type Resolved, type TimeReference } from '../../memory/index';
import { defaultTimeZone } from '../user-time-zone';
import { resolveName, type NameResolution } from './entity-resolution';
import { EXTRACTION_MAX_TOKENS, EXTRACTION_SYSTEM, extractionPrompt, extractionSchema, readExtraction, type ExtractedFact } from './extraction';
import {
  JUDGEMENT_MAX_TOKENS,
  JUDGEMENT_SYSTEM,
  MAX_NAME_QUESTIONS,
  MAX_PAIRS,
  judgementPrompt,
  judgementSchema,
  pairCandidates,
  readJudgement,
  type NameQuestion,
  type PairQuestion,
  type Relation,
} from './judgement';
import type { IsoTime } from '../../../shared/time';

export interface IngestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Adds each model call's usage here as it completes, so a try that fails later still counts. */
  usage?: JobUsage;
  /** The user's zone, for a message that carries none; default $TEMPORA_TZ or the system's. */
  timeZone?: string;
}

export interface PreparedIngest {
  usage: JobUsage;
  /** What the message taught, for Memory.applyIngestion. */
  learning: Learning;
}

interface Placed {
  extracted: ExtractedFact;
  subject: NameResolution | { kind: 'user' };
  object: NameResolution | { kind: 'literal' };
  predicate: string;
  validAt: IsoTime;
  validPrecision: Precision;
  end: IsoTime | null;
  /** "I stopped going to the gym": an end without a start — it closes the matching open fact. */
  endsExisting: IsoTime | null;
  endPrecision: Precision;
}

export async function prepareIngest(memory: Memory, model: StructuredModel, episode: EpisodeRecord, options: IngestOptions = {}): Promise<PreparedIngest> {
  const usage: JobUsage = options.usage ?? { modelCalls: 0, promptTokens: 0, completionTokens: 0 };
  const count = (r: { promptTokens: number; completionTokens: number }) => {
    usage.modelCalls += 1;
    usage.promptTokens += r.promptTokens;
    usage.completionTokens += r.completionTokens;
  };

  // A user message may confirm what the assistant said just before it ("yes, that's right"):
  // the extraction sees that message too, and facts taken from it cite both messages.
  const previousAssistant = episode.role === 'user' ? memory.episodes.previousInConversation(episode) : undefined;
  const confirmed = previousAssistant?.role === 'assistant' ? previousAssistant : undefined;
  // Dates are days in the zone the message was written in (stored with it), else the user's zone.
  const zone = episode.time_zone ?? episode.utc_offset ?? options.timeZone ?? defaultTimeZone();
  const extraction = await model.completeJson({
    system: EXTRACTION_SYSTEM,
    prompt: extractionPrompt({
      role: episode.role,
      content: episode.content,
      referenceTime: episode.reference_time,
      zone,
      ...memory.facts.vocabularyFor(episode.content),
      ...(confirmed ? { previousAssistant: confirmed.content } : {}),
    }),
    schema: extractionSchema,
    maxTokens: EXTRACTION_MAX_TOKENS,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  count(extraction);
  const placed = readExtraction(extraction.value).map((f) => place(memory, f, episode, zone));

  // Questions the rules cannot answer, all in one call.
  const names: NameQuestion[] = [];
  const askKey = new Map<string, string>();
  for (const p of placed) {
    for (const [name, resolution] of [[p.extracted.subject, p.subject], [p.extracted.object, p.object]] as const) {
      if (resolution.kind === 'ask' && !askKey.has(name) && names.length < MAX_NAME_QUESTIONS) {
        const key = `N${names.length + 1}`;
        askKey.set(name, key);
        names.push({ key, name, candidate: resolution.candidate });
      }
    }
  }
  const pairs: PairQuestion[] = [];
  // Several facts of a message are often about one subject (the user): its open facts are read once.
  const openAbout = new Map<string, ReturnType<Memory['facts']['openAbout']>>();
  const openFactsAbout = (subjectId: string) => {
    let rows = openAbout.get(subjectId);
    if (!rows) openAbout.set(subjectId, (rows = memory.facts.openAbout(subjectId)));
    return rows;
  };
  placed.forEach((p, index) => {
    const subjectId = p.subject.kind === 'existing' ? p.subject.entity.id : p.subject.kind === 'user' ? memory.entities.find('me')?.id : undefined;
    if (!subjectId) return;
    // A new (or not yet decided) object entity matches no stored object; the subject is what counts.
    const objectKey =
      p.object.kind === 'existing'
        ? objectKeyOf({ object_id: p.object.entity.id, object_literal: null })
        : p.object.kind === 'literal'
          ? objectKeyOf({ object_id: null, object_literal: p.extracted.object })
          : `new:${p.extracted.object}`;
    for (const stored of pairCandidates(openFactsAbout(subjectId), { predicate: p.predicate, objectKey, fact: p.extracted.fact, cardinality: p.extracted.cardinality })) {
      if (pairs.length >= MAX_PAIRS) return;
      pairs.push({ key: `P${pairs.length + 1}`, stored, newIndex: index, newFact: p.extracted.fact });
    }
  });
  let relations = new Map<string, Relation>();
  let sameNames = new Set<string>();
  if (pairs.length || names.length) {
    const judged = await model.completeJson({
      system: JUDGEMENT_SYSTEM,
      prompt: judgementPrompt(pairs, names, { now: episode.reference_time, zone }),
      schema: judgementSchema(pairs, names),
      maxTokens: JUDGEMENT_MAX_TOKENS,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    count(judged);
    ({ relations, sameNames } = readJudgement(judged.value));
  }

  const saidSame = (name: string) => sameNames.has(askKey.get(name) ?? '');
  return {
    usage,
    learning: {
      episodeId: episode.id,
      referenceTime: episode.reference_time,
      confirmedEpisodeId: confirmed?.id ?? null,
      facts: placed.map((p, index) => learnedFact(p, pairs.filter((q) => q.newIndex === index), relations, saidSame)),
    },
  };
}

function place(memory: Memory, extracted: ExtractedFact, episode: EpisodeRecord, zone: string): Placed {
  const referenceTime = episode.reference_time;
  const subject: Placed['subject'] = isUserReference(extracted.subject) ? { kind: 'user' } : resolveName(memory, extracted.subject);
  const object: Placed['object'] = extracted.object_type === 'literal' ? { kind: 'literal' } : isUserReference(extracted.object) ? resolveName(memory, 'me') : resolveName(memory, extracted.object);
  // Rule 2: no date in the message means the message's own time, said at day precision (no time of
  // day was said). Dates are days in `zone`.
  const reference = { instant: referenceTime, zone };
  const since = resolveTimeExpression(extracted.since, reference);
  const validAt = since?.at ?? referenceTime;
  const until = endSaid(extracted, reference);
  const endsExisting = since === null && until !== null && until.at <= referenceTime ? until.at : null;
  const end = until !== null && until.at > validAt ? until.at : null;
  const precisions = { validPrecision: since?.precision ?? 'day', endPrecision: until?.precision ?? 'day' } as const;
  return { extracted, subject, object, predicate: normalizePredicate(extracted.predicate), validAt, end, endsExisting, ...precisions };
}

/**
 * The end an extracted fact states. An end still to come is read ahead ("11月まで出張です" said in
 * June: this November, not the last) and holds through the period it names (heldThrough: to the
 * last instant of November, which reads as the period said, "until November 2026"); so does one
 * naming a period already begun ("今月まで", "until today", "年末まで" said on 31 December).
 */
function endSaid(extracted: ExtractedFact, reference: TimeReference): Resolved | null {
  const until = resolveTimeExpression(extracted.until, reference, { ahead: !extracted.ended });
  return until === null || extracted.ended ? until : heldThrough(until, reference);
}

/** A placed fact as memory takes it: entity references decided, the model's judgements named by fact id. */
function learnedFact(p: Placed, mine: PairQuestion[], relations: Map<string, Relation>, saidSame: (name: string) => boolean): LearnedFact {
  const object: LearnedFact['object'] = p.object.kind === 'literal' ? { kind: 'literal', value: p.extracted.object } : entityRef(p.extracted.object, p.extracted.object_type, p.object, saidSame);
  return {
    subject: entityRef(p.extracted.subject, p.extracted.subject_type, p.subject, saidSame),
    object,
    predicate: p.predicate,
    fact: p.extracted.fact,
    cardinality: p.extracted.cardinality,
    validAt: p.validAt,
    validPrecision: p.validPrecision,
    end: p.end,
    endsExisting: p.endsExisting,
    endPrecision: p.endPrecision,
    fromAssistant: p.extracted.from_assistant,
    duplicateOf: mine.find((q) => relations.get(q.key) === 'duplicate')?.stored.id ?? null,
    contradicts: mine.filter((q) => relations.get(q.key) === 'contradiction').map((q) => q.stored.id),
  };
}

function entityRef(name: string, type: string, resolution: NameResolution | { kind: 'user' }, saidSame: (name: string) => boolean): EntityRef {
  if (resolution.kind === 'user') return { kind: 'user' };
  if (resolution.kind === 'existing') return { kind: 'existing', id: resolution.entity.id, name, type: resolution.entity.type, addAlias: resolution.addAlias };
  if (resolution.kind === 'ask' && saidSame(name)) return { kind: 'existing', id: resolution.candidate.id, name, type: resolution.candidate.type, addAlias: true };
  return { kind: 'new', name, type: type as Extract<EntityRef, { kind: 'new' }>['type'] };
}
