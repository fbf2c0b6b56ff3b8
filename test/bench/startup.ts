/**
 * The memory as a user of years has it (issue 14's engine figures beyond queries), on the bench's
 * workload store:
 * - `benchStartup`: the vector index built the app's way (VectorService: reconcile embeds every
 *   live fact, entity and message, written 1,024 rows at a time), with an embedder that makes a
 *   seeded random vector at once — the model's own time is left out; then the app's start-up on that
 *   data directory: the memory opened (migrations checked, queued slot refreshes), the engine's
 *   start without models (TemporaEngine.open), and the vector index opened and reconciled with
 *   SQLite when nothing needs embedding — what every launch with an embedding model does. Then the
 *   database and vector index on disk, and the process's peak RSS.
 * - `benchGrowth`: observe throughput on top of the store: 2,000 values of one `many` slot, 2,000
 *   changes of one one-valued slot, 2,000 spread over many subjects and predicates (1,000 per call).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { VectorService } from '../../electron/engine/vector-service';
import type { Embedder } from '../../electron/llm/ports';
import { openMemory, type Memory } from '../../electron/memory/index';
import { DIMENSIONS, unitVectors } from './retrieval';
import { count, mb, ms, peakResidentBytes, perSecond, rate } from './stats';
import { formatDisk, vectorDisk, type TableDisk } from './vector-disk';

/** Random unit vectors, made at once: reconcile's own cost without a model's. */
function instantEmbedder(seed: number): Embedder & { texts: number } {
  const next = unitVectors(seed);
  return {
    dimensions: DIMENSIONS,
    texts: 0,
    async embed(texts) {
      this.texts += texts.length;
      return texts.map(() => next());
    },
  };
}

function sizeOf(path: string, skip?: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const entry of readdirSync(path)) if (entry !== skip) total += sizeOf(join(path, entry));
  return total;
}

export interface StartupResult {
  firstBuild: { ms: number; embedded: number };
  memoryOpenMs: number;
  engineOpenMs: number;
  vectorAttachMs: number;
  reconcile: SyncFigures | null;
  /** The same start-up after a few writes made while the vector index was closed (the CLI, no model). */
  afterChanges: { ms: number; reconcile: SyncFigures | null };
  databaseBytes: number;
  /** After the app's upkeep (old versions removed). */
  vectorBytes: number;
  /** Right after the build, before the upkeep. */
  vectorBytesAsBuilt: number;
  /** The vector directory by table and part (vector-disk.ts). */
  vectorTables: TableDisk[];
  /** Observations in the store (the disk goal is for 1M). */
  observations: number;
  peakRssBytes: number;
}

/** What a sync returned; `mode` and `examined` say whether it read every item or only the changes. */
interface SyncFigures {
  added: number;
  updated: number;
  removed: number;
  total: number;
  mode?: string;
  examined?: { changes: number; sourceItems: number; storedHashes: number };
}

/** A few writes as a session without the embedding model makes them: 5 facts, one forgotten. */
function fewChanges(memory: Memory): void {
  const at = (i: number) => new Date(Date.parse('2030-01-01T00:00:00.000Z') + i * 60_000).toISOString();
  memory.facts.observe(
    Array.from({ length: 5 }, (_, i) => ({ subject: 'me', predicate: 'bench_note', object: `later note ${i}`, object_type: 'literal', fact: `A later note ${i}.`, reference_time: at(i), cardinality: 'many' })),
    { where: 'bench-startup' },
  );
  const [first] = memory.facts.list({ predicate: 'bench_note', asOf: '2031-01-01T00:00:00.000Z', limit: 1 });
  if (first) memory.facts.forget(first.id);
}

async function attachAndSync(memory: Memory, dataDir: string, seed: number): Promise<{ service: VectorService; embedder: ReturnType<typeof instantEmbedder>; result: Awaited<ReturnType<VectorService['sync']>> }> {
  const embedder = instantEmbedder(seed);
  const { VectorService } = await import('../../electron/engine/vector-service');
  const service = new VectorService(memory, embedder, join(dataDir, 'vectors'), () => 'bench-instant-embedder');
  await service.attach();
  // attach schedules a sync; this one runs it now (the scheduled one then finds nothing to do).
  const result = await service.sync();
  await service.sync();
  return { service, embedder, result };
}

/** `dataDir` holds a memory (closed) of `observations` observations. */
export async function benchStartup(dataDir: string, seed: number, observations = 0): Promise<StartupResult> {
  // Loaded below, not at the top: LanceDB reads LANCEDB_LOG when it is loaded.
  process.env.LANCEDB_LOG ??= 'error';
  const { TemporaEngine } = await import('../../electron/engine/index');
  let memory = openMemory({ dataDir });
  const t0 = performance.now();
  const first = await attachAndSync(memory, dataDir, seed);
  const firstBuild = { ms: performance.now() - t0, embedded: first.embedder.texts };
  await first.service.close();
  memory.close();

  const t1 = performance.now();
  memory = openMemory({ dataDir });
  const memoryOpenMs = performance.now() - t1;
  const t2 = performance.now();
  const again = await attachAndSync(memory, dataDir, seed);
  const vectorAttachMs = performance.now() - t2;
  await again.service.close();
  fewChanges(memory);
  memory.close();

  memory = openMemory({ dataDir });
  const t4 = performance.now();
  const changed = await attachAndSync(memory, dataDir, seed);
  const afterChanges = { ms: performance.now() - t4, reconcile: changed.result };
  await changed.service.close();
  memory.close();

  const t3 = performance.now();
  const engine = await TemporaEngine.open({ dataDir, autoLoadModels: false });
  const engineOpenMs = performance.now() - t3;
  await engine.close(5_000);

  // The directory as it stands right after the build still holds the versions of its last minute
  // (kept for another process's handle): what the disk holds once the app's upkeep has run after a
  // quiet minute and a half is each table opened and closed keeping no recent version.
  const vectorBytesAsBuilt = sizeOf(join(dataDir, 'vectors'));
  const { VectorIndex } = await import('../../electron/memory/vectors/vector-index');
  const { VECTOR_TABLES } = await import('../../electron/engine/vector-service');
  for (const { table, kinds } of VECTOR_TABLES) await (await VectorIndex.open(join(dataDir, 'vectors'), DIMENSIONS, { table, kinds, keepVersionsMs: 0 })).close();

  return {
    vectorBytesAsBuilt,
    firstBuild,
    memoryOpenMs,
    engineOpenMs,
    vectorAttachMs,
    reconcile: again.result,
    afterChanges,
    databaseBytes: sizeOf(dataDir, 'vectors'),
    vectorBytes: sizeOf(join(dataDir, 'vectors')),
    vectorTables: vectorDisk(join(dataDir, 'vectors')),
    observations,
    peakRssBytes: peakResidentBytes(),
  };
}

function syncNote(r: SyncFigures | null): string {
  if (!r) return '';
  const read = r.examined ? `, ${r.mode ?? 'full'}: read ${count(r.examined.changes)} changes, ${count(r.examined.sourceItems)} items from SQLite, ${count(r.examined.storedHashes)} stored hashes` : '';
  return ` (${count(r.total)} items live, ${r.added + r.updated} embedded, ${r.removed} removed${read})`;
}

export function formatStartup(r: StartupResult): string {
  const lines = [
    `  vectors first built by reconcile (instant embedder): ${count(r.firstBuild.embedded)} items in ${ms(r.firstBuild.ms)} (${perSecond(rate(r.firstBuild.embedded, r.firstBuild.ms))}, model time excluded)`,
    `  start-up: memory opened in ${ms(r.memoryOpenMs)}; vector index opened and reconciled in ${ms(r.vectorAttachMs)}${syncNote(r.reconcile)}`,
    `  start-up after 5 facts written and 1 forgotten with the index closed: vector index opened and reconciled in ${ms(r.afterChanges.ms)}${syncNote(r.afterChanges.reconcile)}`,
    `  start-up: TemporaEngine.open without models ${ms(r.engineOpenMs)} (with an embedding model the vector line above comes on top, besides the model's load)`,
    `  on disk: database ${mb(r.databaseBytes)}, vector index ${mb(r.vectorBytes)} after the upkeep (${mb(r.vectorBytesAsBuilt)} right after the build); peak RSS of this process so far ${mb(r.peakRssBytes)}`,
    ...formatDisk(r.databaseBytes, r.vectorBytes, r.vectorTables, r.observations, r.reconcile?.total ?? null, DIMENSIONS),
  ];
  return lines.join('\n');
}

export interface GrowthResult {
  shape: string;
  perSecond: number;
}

/** Observe throughput on top of `memory`, in three shapes. */
export function benchGrowth(memory: Memory, perShape = 2_000, batch = 1_000): GrowthResult[] {
  const day = (i: number) => new Date(Date.parse('2027-01-01T00:00:00.000Z') + i * 60_000).toISOString();
  const shapes: { shape: string; line: (i: number) => Record<string, unknown> }[] = [
    { shape: 'one `many` slot (me · note)', line: (i) => ({ subject: 'me', predicate: 'note', object: `note ${i}`, object_type: 'literal', fact: `Note ${i}.`, reference_time: day(i), cardinality: 'many' }) },
    { shape: 'one one-valued slot (me · mood)', line: (i) => ({ subject: 'me', predicate: 'mood', object: `mood ${i % 7}`, object_type: 'literal', fact: `My mood is ${i % 7}.`, reference_time: day(i), cardinality: 'one' }) },
    { shape: 'spread over many slots', line: (i) => ({ subject: `Person ${i % 500}`, predicate: `trait_${i % 37}`, object: `value ${i}`, object_type: 'literal', fact: `Person ${i % 500} has value ${i}.`, reference_time: day(i), cardinality: i % 2 ? 'many' : 'one' }) },
  ];
  return shapes.map(({ shape, line }) => {
    const t0 = performance.now();
    for (let start = 0; start < perShape; start += batch) {
      memory.facts.observe(Array.from({ length: Math.min(batch, perShape - start) }, (_, k) => line(start + k)), { where: 'bench-growth' });
    }
    return { shape, perSecond: rate(perShape, performance.now() - t0) };
  });
}

export function formatGrowth(results: GrowthResult[]): string {
  return results.map((r) => `  observe on top, ${r.shape}: ${perSecond(r.perSecond)} (goal ≥ 2,000/s at 100k)`).join('\n');
}
