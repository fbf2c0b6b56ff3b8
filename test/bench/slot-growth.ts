/**
 * Observe throughput as one slot grows (issue 14): N notes on one `many` slot (me · note), in files
 * of `batch` lines, then the same N spread over many predicates, and N values of one `one` slot.
 * Prints observations/s per file: the cost of a write must not grow with its slot.
 *
 *   npx tsx test/bench/slot-growth.ts [--notes 10000] [--batch 1000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../../electron/memory';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

export function benchSlotGrowth(notes: number, batch: number): { shape: string; perFile: number[]; overall: number }[] {
  const results: { shape: string; perFile: number[]; overall: number }[] = [];
  const shapes: [string, (i: number) => Record<string, unknown>][] = [
    ['one many slot (me · note)', (i) => ({ predicate: 'note', object: `note ${i}`, cardinality: 'many' })],
    ['many predicates', (i) => ({ predicate: `note_${i % 500}`, object: `note ${i}`, cardinality: 'many' })],
    ['one one-valued slot (me · status)', (i) => ({ predicate: 'status', object: `status ${i}`, cardinality: 'one' })],
  ];
  for (const [shape, line] of shapes) {
    const dir = mkdtempSync(join(tmpdir(), 'tempora-slot-growth-'));
    const memory = openMemory({ dataDir: dir });
    const perFile: number[] = [];
    const start = performance.now();
    try {
      for (let from = 0; from < notes; from += batch) {
        const lines = [];
        for (let i = from; i < Math.min(notes, from + batch); i++) {
          const day = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
          lines.push({ subject: 'me', object_type: 'literal', fact: `Note number ${i}.`, reference_time: day, ...line(i) });
        }
        const t = performance.now();
        memory.facts.observe(lines, { where: `file-${from / batch + 1}.jsonl` });
        perFile.push(lines.length / ((performance.now() - t) / 1000));
      }
    } finally {
      memory.close();
      rmSync(dir, { recursive: true, force: true });
    }
    results.push({ shape, perFile, overall: notes / ((performance.now() - start) / 1000) });
  }
  return results;
}

if (process.argv[1]?.endsWith('slot-growth.ts')) {
  const notes = arg('notes', 10_000);
  const batch = arg('batch', 1_000);
  console.log(`observe ${notes} notes in files of ${batch} lines (observations/s per file)`);
  for (const r of benchSlotGrowth(notes, batch)) {
    console.log(`${r.shape.padEnd(36)} overall ${r.overall.toFixed(0).padStart(6)}/s   per file: ${r.perFile.map((v) => v.toFixed(0)).join(', ')}`);
  }
}
