/**
 * A write's cost is linear in its size (issue 26): N lines on one `many` slot (me · note) observed
 * as one file — one write, each slot resolved once — into a fresh store, beside the same N lines in
 * files of 1,000 (file by file). Goal: the one file within 1.5× of the file-by-file rate. Also the
 * same for one one-valued slot (me · status), where every line closes the one before.
 *
 *   npx tsx test/bench/one-write.ts [--lines 100000]     (also a section of `npm run bench`: write)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../../electron/memory';

export interface OneWriteResult {
  shape: string;
  lines: number;
  /** Observations per second, the whole file in one observe call. */
  oneFile: number;
  /** Observations per second, in files of FILE_LINES. */
  fileByFile: number;
}

const FILE_LINES = 1_000;
export const GOAL_RATIO = 1.5;

function lines(n: number, shape: 'many' | 'one', from = 0): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (let i = from; i < from + n; i++) {
    const at = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
    const value = shape === 'many' ? { predicate: 'note', object: `note ${i}`, cardinality: 'many' } : { predicate: 'status', object: `status ${i}`, cardinality: 'one' };
    out.push({ subject: 'me', object_type: 'literal', fact: `Note number ${i}.`, reference_time: at, ...value });
  }
  return out;
}

function observeRate(total: number, shape: 'many' | 'one', perFile: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'tempora-one-write-'));
  const memory = openMemory({ dataDir: dir });
  try {
    const start = performance.now();
    for (let from = 0; from < total; from += perFile) memory.facts.observe(lines(Math.min(perFile, total - from), shape, from), { where: `file-${from / perFile + 1}.jsonl` });
    return total / ((performance.now() - start) / 1000);
  } finally {
    memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function benchOneWrite(total: number): OneWriteResult[] {
  return (['many', 'one'] as const).map((shape) => ({
    shape: shape === 'many' ? 'one many slot (me · note)' : 'one one-valued slot (me · status)',
    lines: total,
    oneFile: observeRate(total, shape, total),
    fileByFile: observeRate(total, shape, FILE_LINES),
  }));
}

export function formatOneWrite(results: OneWriteResult[]): string {
  return results
    .map((r) => {
      const ratio = r.fileByFile / r.oneFile;
      return `  ${r.shape}: ${r.lines.toLocaleString('en-US')} lines as one file ${r.oneFile.toFixed(0)}/s, file by file (${FILE_LINES.toLocaleString('en-US')} lines each) ${r.fileByFile.toFixed(0)}/s — ${ratio.toFixed(2)}× (goal ≤ ${GOAL_RATIO}×: ${ratio <= GOAL_RATIO ? 'PASS' : 'MISS'})`;
    })
    .join('\n');
}

if (process.argv[1]?.endsWith('one-write.ts')) {
  const i = process.argv.indexOf('--lines');
  const total = i >= 0 ? Number(process.argv[i + 1]) : 100_000;
  console.log(`observe ${total.toLocaleString('en-US')} lines on one slot: one file against file by file`);
  console.log(formatOneWrite(benchOneWrite(total)));
}
