/**
 * Learning from one message: one extraction call, entity resolution, at most one judgement call,
 * then everything applied in one transaction together with the job's completion.
 * Model calls happen first (async); the write is synchronous and atomic, so a crash at any point
 * leaves either nothing or the whole result.
 */
import type { EpisodeRecord } from '../../../shared/memory-schema';
import type { StructuredModel } from '../../llm/ports';
import { objectKeyOf } from '../../memory/store/fact-rows';
import type { Memory } from '../../memory/memory';
import { isUserReference, normalizePredicate } from '../../memory/store/normalize';
import { emptyChanges, mergeChanges, type NewClaim, type SlotChanges } from '../../memory/temporal/slot-resolver';
import { resolveName, type NameResolution } from './entity-resolution';
import { EXTRACTION_MAX_TOKENS, EXTRACTION_SYSTEM, extractionPrompt, extractionSchema, readExtraction, type ExtractedFact } from './extraction';
import type { JobUsage } from '../../memory/store/ingestion-jobs';
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
import { resolveTimeExpression } from './relative-dates';

export interface IngestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Adds each model call's usage here as it completes, so a try that fails later still counts. */
  usage?: JobUsage;
}

export interface PreparedIngest {
  usage: JobUsage;
  /** Applies the result; call inside the transaction that completes the job. */
  apply(): SlotChanges;
}

interface Placed {
  extracted: ExtractedFact;
  subject: NameResolution | { kind: 'user' };
  object: NameResolution | { kind: 'literal' };
  predicate: string;
  validAt: string;
  end: string | null;
  /** "I stopped going to the gym": an end without a start — it closes the matching open fact. */
  endsExisting: string | null;
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
  const extraction = await model.completeJson({
    system: EXTRACTION_SYSTEM,
    prompt: extractionPrompt({
      role: episode.role,
      content: episode.content,
      referenceTime: episode.reference_time,
      ...knownVocabulary(memory, episode.content),
      ...(confirmed ? { previousAssistant: confirmed.content } : {}),
    }),
    schema: extractionSchema,
    maxTokens: EXTRACTION_MAX_TOKENS,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  });
  count(extraction);
  const placed = readExtraction(extraction.value).map((f) => place(memory, f, episode.reference_time));

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
    for (const stored of pairCandidates(memory.db, { subjectId, predicate: p.predicate, objectKey, fact: p.extracted.fact, cardinality: p.extracted.cardinality }, objectKeyOf)) {
      if (pairs.length >= MAX_PAIRS) return;
      pairs.push({ key: `P${pairs.length + 1}`, stored, newIndex: index, newFact: p.extracted.fact });
    }
  });
  let relations = new Map<string, Relation>();
  let sameNames = new Set<string>();
  if (pairs.length || names.length) {
    const judged = await model.completeJson({
      system: JUDGEMENT_SYSTEM,
      prompt: judgementPrompt(pairs, names),
      schema: judgementSchema(pairs, names),
      maxTokens: JUDGEMENT_MAX_TOKENS,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    });
    count(judged);
    ({ relations, sameNames } = readJudgement(judged.value));
  }

  return {
    usage,
    apply: () => applyIngest(memory, episode, confirmed?.id ?? null, placed, pairs, relations, (name) => sameNames.has(askKey.get(name) ?? '')),
  };
}

/** Known entities and predicates for the prompt: the user, names the message mentions, then the most used. */
function knownVocabulary(memory: Memory, content: string) {
  const mentioned = memory.db
    .prepare<[string], { id: string }>("SELECT entity_id AS id FROM entities_fts WHERE instr(?, substr(names, 1, instr(names || char(10), char(10)) - 1)) > 0 LIMIT 20")
    .all(content)
    .map((r) => r.id);
  const frequent = memory.db
    .prepare<[], { id: string }>('SELECT subject_id AS id FROM facts WHERE expired_at IS NULL GROUP BY subject_id ORDER BY COUNT(*) DESC LIMIT 15')
    .all()
    .map((r) => r.id);
  const ids = [...new Set([...mentioned, ...frequent])].slice(0, 25);
  const knownEntities = ids.flatMap((id) => {
    const e = memory.entities.byId(id);
    return e ? [{ name: e.name, type: e.type, aliases: e.aliases.slice(0, 4) }] : [];
  });
  const knownPredicates = memory.db
    .prepare<[], { predicate: string; cardinality: string }>(
      'SELECT predicate, MIN(cardinality) AS cardinality FROM facts INDEXED BY facts_live_by_predicate WHERE expired_at IS NULL GROUP BY predicate ORDER BY COUNT(*) DESC LIMIT 40',
    )
    .all();
  return { knownEntities, knownPredicates };
}

function place(memory: Memory, extracted: ExtractedFact, referenceTime: string): Placed {
  const subject: Placed['subject'] = isUserReference(extracted.subject) ? { kind: 'user' } : resolveName(memory.db, memory.entities, extracted.subject);
  const object: Placed['object'] = extracted.object_type === 'literal' ? { kind: 'literal' } : isUserReference(extracted.object) ? resolveName(memory.db, memory.entities, 'me') : resolveName(memory.db, memory.entities, extracted.object);
  // Rule 2: no date in the message means the message's own time.
  const since = resolveTimeExpression(extracted.since, referenceTime);
  const validAt = since ?? referenceTime;
  const until = resolveTimeExpression(extracted.until, referenceTime);
  const endsExisting = since === null && until !== null && until <= referenceTime ? until : null;
  return { extracted, subject, object, predicate: normalizePredicate(extracted.predicate), validAt, end: until !== null && until > validAt ? until : null, endsExisting };
}

function applyIngest(memory: Memory, episode: EpisodeRecord, confirmedId: string | null, placed: Placed[], pairs: PairQuestion[], relations: Map<string, Relation>, saidSame: (name: string) => boolean): SlotChanges {
  const changes = emptyChanges();
  // A fact the assistant stated and this message confirmed cites both (unless the assistant's
  // message was forgotten while the model worked).
  const confirmed = confirmedId !== null && memory.episodes.byId(confirmedId) ? confirmedId : null;
  const entityFor = (name: string, type: string, resolution: NameResolution | { kind: 'user' }) => {
    if (resolution.kind === 'user') return memory.entities.findOrCreate('me');
    if (resolution.kind === 'existing') {
      if (resolution.addAlias) memory.entities.addAlias(resolution.entity.id, name);
      return resolution.entity;
    }
    if (resolution.kind === 'ask' && saidSame(name)) {
      memory.entities.addAlias(resolution.candidate.id, name);
      return resolution.candidate;
    }
    // A name created earlier in this same message resolves to it now.
    return memory.entities.find(name) ?? memory.entities.create({ name, type: type as never, aliases: [], summary: '' });
  };

  placed.forEach((p, index) => {
    const subject = entityFor(p.extracted.subject, p.extracted.subject_type, p.subject);
    const objectEntity = p.object.kind === 'literal' ? null : entityFor(p.extracted.object, p.extracted.object_type, p.object);
    let claim: NewClaim = {
      subjectId: subject.id,
      predicate: p.predicate,
      objectId: objectEntity?.id ?? null,
      objectLiteral: objectEntity ? null : p.extracted.object,
      fact: p.extracted.fact,
      cardinality: p.extracted.cardinality,
      validAt: p.validAt,
      referenceTime: episode.reference_time,
      end: p.end ? { at: p.end, kind: 'explicit', by: null } : null,
      episodeIds: p.extracted.from_assistant && confirmed !== null ? [confirmed, episode.id] : [episode.id],
      origin: 'extracted',
    };
    if (p.endsExisting !== null) {
      // Close the open fact this one says has ended (same subject, predicate and object); if there
      // is none, the message only tells of something past whose start is unknown: nothing to store.
      const ended = closeEnded(memory, claim, p.endsExisting, episode.id);
      if (ended) mergeChanges(changes, ended);
      return;
    }
    const mine = pairs.filter((q) => q.newIndex === index);
    const duplicate = mine.find((q) => relations.get(q.key) === 'duplicate');
    if (duplicate) {
      // Same fact in other words: it joins the stored fact's slot and merges there (both episodes kept).
      claim = { ...claim, predicate: duplicate.stored.predicate, objectId: duplicate.stored.object_id, objectLiteral: duplicate.stored.object_literal, cardinality: duplicate.stored.cardinality };
    }
    const contradicted = mine.filter((q) => relations.get(q.key) === 'contradiction').map((q) => memory.rows.liveVersionOf(q.stored.id)).filter((r) => r !== undefined);
    // Rule 3: the fact that became true earlier is closed at the other's valid_at.
    const olderStored = contradicted.filter((r) => r.valid_at <= claim.validAt);
    const newerStored = contradicted.filter((r) => r.valid_at > claim.validAt);
    const firstNewer = newerStored.sort((a, b) => (a.valid_at < b.valid_at ? -1 : 1))[0];
    if (firstNewer && (claim.end === null || claim.end.at > firstNewer.valid_at)) claim = { ...claim, end: { at: firstNewer.valid_at, kind: 'judged', by: firstNewer.id } };
    mergeChanges(changes, memory.slots.apply([claim]));
    const holder = memory.claims.holderOf(claim.subjectId, claim.predicate, episode.id);
    for (const stored of olderStored) {
      const live = memory.rows.liveVersionOf(stored.id);
      if (!live || !holder || live.invalid_at !== null) continue;
      mergeChanges(
        changes,
        memory.slots.apply([
          {
            subjectId: live.subject_id,
            predicate: live.predicate,
            objectId: live.object_id,
            objectLiteral: live.object_literal,
            fact: live.fact,
            cardinality: live.cardinality,
            validAt: live.valid_at,
            referenceTime: live.reference_time,
            end: { at: claim.validAt, kind: 'judged', by: holder },
            episodeIds: [episode.id],
            origin: live.origin,
          },
        ]),
      );
    }
  });
  return changes;
}

function closeEnded(memory: Memory, claim: NewClaim, at: string, episodeId: string): SlotChanges | null {
  const key = objectKeyOf({ object_id: claim.objectId, object_literal: claim.objectLiteral });
  const open = memory.db
    .prepare<[string, string], import('../../memory/store/fact-rows').FactRow>(
      'SELECT * FROM facts WHERE subject_id = ? AND predicate = ? AND expired_at IS NULL AND invalid_at IS NULL ORDER BY valid_at DESC',
    )
    .all(claim.subjectId, claim.predicate)
    .find((row) => objectKeyOf(row) === key && row.valid_at < at);
  if (!open) return null;
  return memory.slots.apply([
    {
      subjectId: open.subject_id,
      predicate: open.predicate,
      objectId: open.object_id,
      objectLiteral: open.object_literal,
      fact: open.fact,
      cardinality: open.cardinality,
      validAt: open.valid_at,
      referenceTime: open.reference_time,
      end: { at, kind: 'explicit', by: null },
      episodeIds: [episodeId],
      origin: open.origin,
    },
  ]);
}
