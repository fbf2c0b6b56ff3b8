/**
 * The seed example of the design notes — manager A on 2026-09-01, B on 2026-09-15 (one value at a
 * time) — plus Japanese and other facts, as structured observations and as an export file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemoryExport } from '../../../shared/memory-schema';
import type { ObservationInput } from '../../../shared/observation-schema';
import { TemporaEngine } from '../../../electron/engine/index';

export const SEED_OBSERVATIONS: ObservationInput[] = [
  { subject: 'me', predicate: 'manager', object: 'A', fact: 'My manager is A.', reference_time: '2026-09-01T10:00:00+09:00', cardinality: 'one' },
  { subject: 'me', predicate: 'manager', object: 'B', fact: 'My manager changed to B.', reference_time: '2026-09-15T10:00:00+09:00', cardinality: 'one' },
  { subject: 'me', predicate: 'lives_in', object: '東京', fact: '私は東京に住んでいます。', reference_time: '2026-04-01T09:00:00+09:00', cardinality: 'one' },
  { subject: 'me', predicate: 'lives_in', object: '大阪', fact: '大阪に引っ越しました。', reference_time: '2026-10-01T09:00:00+09:00', cardinality: 'one' },
  { subject: 'me', predicate: 'likes', object: '抹茶', fact: '私は抹茶が好きです。', reference_time: '2026-06-02T10:00:00+09:00' },
  { subject: 'me', predicate: 'likes', object: 'coffee', fact: 'I like coffee.', reference_time: '2026-05-10T08:00:00Z' },
  { subject: 'me', predicate: 'visited', object: '京都', fact: '京都に行きました。', reference_time: '2026-07-20T12:00:00+09:00', valid_at: '2026-07-10', invalid_at: '2026-07-14' },
  { subject: '田中さん', predicate: 'works_at', object: 'トヨタ', fact: '田中さんはトヨタで働いています。', reference_time: '2026-05-01T10:00:00+09:00', cardinality: 'one' },
  { subject: '田中さん', predicate: 'works_at', object: 'ソニー', fact: '田中さんはソニーに転職しました。', reference_time: '2026-08-20T10:00:00+09:00', cardinality: 'one' },
  { subject: 'Alice', predicate: 'lives_in', object: 'Berlin', fact: 'Alice lives in Berlin.', reference_time: '2026-03-15T10:00:00Z', cardinality: 'one' },
  { subject: 'Project Tempora', predicate: 'status', object: 'in progress', object_type: 'literal', fact: 'Project Tempora is in progress.', reference_time: '2026-06-01T10:00:00Z', cardinality: 'one' },
];

export function seedMemory(engine: TemporaEngine): void {
  engine.memory.facts.observe(SEED_OBSERVATIONS, { where: 'ui test seed', conversation: { id: 'seed', title: 'Seed notes' } });
}

/**
 * 1,000 people, each living in their own town from one hour after the one before (the first at
 * 2026-01-01T00:00Z), all true now: ten pages of the as-of panel's hundred, 817 true at 2026-02-04.
 */
export function seedHourlyPeople(engine: TemporaEngine): void {
  const first = Date.parse('2026-01-01T00:00:00Z');
  engine.memory.facts.observe(
    Array.from({ length: 1_000 }, (_, i) => ({
      subject: `Person ${String(i).padStart(4, '0')}`,
      predicate: 'lives_in',
      object: `Town ${i}`,
      fact: `Person ${i} lives in Town ${i}.`,
      reference_time: new Date(first + i * 3_600_000).toISOString(),
      cardinality: 'one' as const,
    })),
  );
}

/** Builds the seed memory in a throwaway engine and returns its export (and writes it to `path` when given). */
export async function seedExport(path?: string): Promise<MemoryExport> {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-seed-'));
  const engine = await TemporaEngine.open({ dataDir: dir, autoLoadModels: false, startWorker: false });
  try {
    seedMemory(engine);
    const doc = engine.memory.transfer.export();
    if (path) writeFileSync(path, JSON.stringify(doc, null, 2));
    return doc;
  } finally {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
