/**
 * Turns a synthetic memory straight into an export document (format version 1) — what a store
 * would export after observing the same messages — without running `observe`, so a large store can
 * be built quickly by import. Slots are resolved here with the rules of docs/design.md in simplified
 * form (order by valid_at then reference_time; a different object closes the previous span at its
 * valid_at; the same object merges; a stated end is kept), and a fact closed by a later message gets
 * two versions as in the engine: the open one, expired, and the closed one that supersedes it.
 * The engine is the authority on the rules; this only has to be a plausible, valid document.
 */
import { EXPORT_VERSION, type ClaimRecord, type EntityRecord, type EpisodeRecord, type FactRecord, type MemoryExport } from '../../shared/memory-schema';
import type { SyntheticMemory, SyntheticObservation } from '../fixtures/synthetic-memory';
import { nowIso, type IsoTime } from '../../shared/time';

interface Claim {
  observation: SyntheticObservation;
  episodeId: string;
  validAt: IsoTime;
  end: IsoTime | null;
  arrival: IsoTime;
  order: number;
}

interface Span {
  object: string;
  validAt: IsoTime;
  end: { at: IsoTime; successor: number | null } | null;
  claims: Claim[];
}

const ENTITY_TYPE: Record<string, EntityRecord['type']> = { manager: 'person', lives_in: 'place', visited: 'place', works_at: 'organization', likes: 'thing' };

function normalizeName(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

function latest(a: IsoTime, b: IsoTime): IsoTime {
  return a >= b ? a : b;
}

/** The export document of the first `count` observations (default: all) in arrival order. */
export function syntheticExport(memory: SyntheticMemory, count = memory.observations.length): MemoryExport {
  const now = nowIso();
  const clamp = (t: IsoTime) => (t <= now ? t : now);
  const observations = memory.observations.slice(0, count);
  const pad = (n: number) => String(n).padStart(7, '0');

  const entities = new Map<string, EntityRecord>();
  const entity = (name: string, type: EntityRecord['type'], at: IsoTime): EntityRecord => {
    const key = normalizeName(name);
    let record = entities.get(key);
    if (!record) {
      record =
        key === 'me'
          ? { id: 'ent_syn_me', name: 'me', type: 'user', aliases: ['I', 'myself', 'user', '私'], summary: 'The user of this memory.', created_at: at }
          : { id: `ent_syn_${pad(entities.size)}`, name, type, aliases: [], summary: '', created_at: at };
      entities.set(key, record);
    }
    return record;
  };

  const episodes: EpisodeRecord[] = [];
  const slots = new Map<string, Claim[]>();
  observations.forEach((observation, order) => {
    const said = observation.reference_time;
    const arrival = clamp(memory.arrivals[order] ?? said);
    const episodeId = `epi_syn_${pad(order)}`;
    episodes.push({ id: episodeId, conversation_id: 'cnv_observed', role: 'user', content: observation.fact, reference_time: said, created_at: arrival, utc_offset: null, time_zone: null });
    entity(observation.subject, observation.subject === 'me' ? 'user' : 'person', arrival);
    entity(observation.object, ENTITY_TYPE[observation.predicate] ?? 'other', arrival);
    const key = observation.cardinality === 'one' ? `${observation.subject}\u0000${observation.predicate}` : `${observation.subject}\u0000${observation.predicate}\u0000${normalizeName(observation.object)}`;
    const claims = slots.get(key) ?? [];
    claims.push({ observation, episodeId, validAt: observation.valid_at ?? said, end: observation.invalid_at ?? null, arrival, order });
    slots.set(key, claims);
  });

  const facts: FactRecord[] = [];
  const claimRecords: ClaimRecord[] = [];
  let nextFact = 0;
  for (const claims of slots.values()) {
    claims.sort((a, b) => (a.validAt < b.validAt ? -1 : a.validAt > b.validAt ? 1 : a.observation.reference_time < b.observation.reference_time ? -1 : a.observation.reference_time > b.observation.reference_time ? 1 : a.order - b.order));
    const spans: Span[] = [];
    let current: Span | null = null;
    for (const claim of claims) {
      const object = normalizeName(claim.observation.object);
      if (current && current.object === object && (current.end === null || claim.validAt <= current.end.at)) {
        current.claims.push(claim);
        if (claim.end !== null && (current.end === null || claim.end > current.end.at)) current.end = { at: claim.end, successor: null };
        continue;
      }
      if (current && current.object !== object && (current.end === null || current.end.at > claim.validAt)) {
        current.end = { at: claim.validAt, successor: spans.length };
      }
      current = { object, validAt: claim.validAt, end: claim.end === null ? null : { at: claim.end, successor: null }, claims: [claim] };
      spans.push(current);
    }

    const ids = spans.map(() => `fct_syn_${pad(nextFact++)}`);
    spans.forEach((span, index) => {
      const head = span.claims[0]!.observation;
      const subject = entity(head.subject, 'person', span.claims[0]!.arrival);
      const object = entity(head.object, 'other', span.claims[0]!.arrival);
      const arrivedBy = span.claims.reduce((t, c) => latest(t, c.arrival), span.claims[0]!.arrival);
      const successor = span.end?.successor ?? null;
      const closedAt = successor === null ? null : spans[successor]!.claims[0]!.arrival;
      const base: FactRecord = {
        id: ids[index]!,
        subject_id: subject.id,
        subject: subject.name,
        predicate: head.predicate,
        object_id: object.id,
        object: object.name,
        fact: head.fact,
        cardinality: head.cardinality,
        valid_at: span.validAt,
        valid_at_precision: 'instant',
        invalid_at: span.end?.at ?? null,
        invalid_at_precision: span.end ? 'instant' : null,
        created_at: arrivedBy,
        expired_at: null,
        episode_ids: [...new Set(span.claims.map((c) => c.episodeId))].sort(),
        invalidated_by: successor === null ? null : ids[successor]!,
        supersedes: null,
        origin: 'observed',
      };
      for (const c of span.claims) {
        const end = c.end !== null && c.end > c.validAt ? c.end : null;
        claimRecords.push({ fact_id: base.id, object_id: object.id, object: object.name, fact: c.observation.fact, cardinality: c.observation.cardinality, valid_at: c.validAt, valid_at_precision: 'instant', reference_time: c.observation.reference_time, end_at: end, end_precision: end === null ? null : 'instant', end_kind: end === null ? null : 'explicit', end_by: null, episode_ids: [c.episodeId], origin: 'observed' });
      }
      if (closedAt !== null && closedAt > arrivedBy) {
        // Stored open first, then closed when the successor arrived: two versions.
        const open: FactRecord = { ...base, id: `${base.id}_v1`, invalid_at: null, invalid_at_precision: null, invalidated_by: null, expired_at: closedAt };
        facts.push(open, { ...base, created_at: closedAt, supersedes: open.id });
      } else {
        facts.push(closedAt !== null ? { ...base, created_at: latest(arrivedBy, closedAt) } : base);
      }
    });
  }

  const firstArrival = clamp(memory.arrivals[0] ?? now);
  return {
    format: 'tempora.memory',
    version: EXPORT_VERSION,
    exported_at: now,
    conversations: [{ id: 'cnv_observed', title: 'Observations', created_at: firstArrival }],
    episodes,
    entities: [...entities.values()],
    facts: facts.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1)),
    claims: claimRecords,
  };
}
