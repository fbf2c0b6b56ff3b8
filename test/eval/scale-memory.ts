/**
 * The evaluation's generated memories at scale (1k, 10k, 100k observations): the benchmark's
 * synthetic life (test/fixtures/synthetic-memory.ts: ~N/10 people + "me", English and Japanese,
 * two years, managers / homes / employers that change) turned into an export document
 * (test/bench/synthetic-export.ts) and imported, so 100k facts load in seconds.
 *
 * The benchmark's life gives each person ~10 observations, so the top 10 of any question about a
 * person is all of that person's facts, and no word of the question can matter. Here the people are
 * folded into fewer (`OBSERVATIONS_PER_PERSON` each, ~40 live facts: several employers, homes and
 * managers over the two years, a dozen likes), as a person the user talks about often would be.
 *
 * The document is the answer key: its live facts carry subject, predicate, object and valid time.
 * `remapIds` gives the same document with every id replaced by a different random-looking one, so
 * two stores can hold the same memory under different ids (the repeatability check: ranking must
 * not depend on ids).
 */
import type { MemoryExport } from '../../shared/memory-schema';
import { openMemory, steppingClock, type Memory } from '../../electron/memory/index';
import { prng } from '../fixtures/prng';
import { generateSyntheticMemory, type SyntheticMemory } from '../fixtures/synthetic-memory';
import { syntheticExport } from '../bench/synthetic-export';

/** "Now" for the generated memories: after every arrival (the synthetic span ends 2026-10-01, late ones ~60 days later). */
export const SCALE_NOW = '2026-12-01T00:00:00.000Z';
export const SCALE_SEED = 42;
export const OBSERVATIONS_PER_PERSON = 50;

export interface ScaleMemory {
  size: number;
  memory: Memory;
  document: MemoryExport;
}

/** The export document of `size` synthetic observations (the same size and seed, the same document but for exported_at). */
export function scaleDocument(size: number, seed = SCALE_SEED): MemoryExport {
  const generated = syntheticExport(foldPeople(generateSyntheticMemory({ observations: size, seed }), OBSERVATIONS_PER_PERSON));
  const late = [...generated.facts, ...generated.episodes, ...generated.entities].map((r) => r.created_at).reduce((a, b) => (a > b ? a : b), '');
  if (late > SCALE_NOW) throw new Error(`scale memory: a record created at ${late}, after SCALE_NOW ${SCALE_NOW}`);
  return generated;
}

/**
 * The same observations told about fewer people: person i becomes person i mod 2k (k = people
 * wanted / 2; the generator alternates Japanese and English people, so each keeps its language),
 * in the subject and in the sentence. The user is left alone; names as objects (managers) too.
 */
export function foldPeople(memory: SyntheticMemory, perPerson: number): SyntheticMemory {
  const people = memory.subjects.slice(1);
  const keep = Math.max(2, 2 * Math.round(memory.observations.length / perPerson / 2));
  if (keep >= people.length) return memory;
  const target = new Map(people.map((name, i) => [name, people[i % keep]!]));
  const observations = memory.observations.map((o) => {
    const to = target.get(o.subject);
    return to === undefined || to === o.subject ? o : { ...o, subject: to, fact: o.fact.replaceAll(o.subject, to) };
  });
  return { ...memory, observations, subjects: [memory.subjects[0]!, ...people.slice(0, keep)] };
}

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const SYNTHETIC_ID = /^(fct|ent|epi)_syn_[0-9a-z_]+$/;

/**
 * The same document with every synthetic id (facts, entities, episodes, and every reference to
 * them) replaced by a random-looking id drawn from `seed`: the ids' order no longer follows the
 * document's, as ids made by a store (time + random bytes) would not.
 */
export function remapIds(document: MemoryExport, seed: number): MemoryExport {
  const random = prng(seed);
  const mapped = new Map<string, string>();
  const map = (id: string): string => {
    let next = mapped.get(id);
    if (next === undefined) {
      let tail = '';
      for (let i = 0; i < 16; i++) tail += ALPHABET[Math.floor(random() * 32)];
      next = `${id.slice(0, 3)}_${tail}`;
      mapped.set(id, next);
    }
    return next;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return SYNTHETIC_ID.test(value) ? map(value) : value;
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(document) as MemoryExport;
}

/** An in-memory store at SCALE_NOW holding `document` (imported). */
export function importScaleMemory(document: MemoryExport): Memory {
  const memory = openMemory({ dataDir: ':memory:', clock: steppingClock(SCALE_NOW, 0) });
  memory.transfer.import(document);
  return memory;
}

export function buildScaleMemory(size: number, options: { seed?: number; remapSeed?: number } = {}): ScaleMemory {
  const generated = scaleDocument(size, options.seed);
  const document = options.remapSeed === undefined ? generated : remapIds(generated, options.remapSeed);
  return { size, memory: importScaleMemory(document), document };
}
