/**
 * What a sync costs (issue 31 item 7), on a memory of N facts observed on one device (500 people, one
 * `many` slot each): sync-bench.ts's first sync up and onto an empty device, then 100 messages
 * incrementally. `npm run bench` runs the same on its imported store (section `sync`).
 *
 *   npm run bench:sync -- [--facts 20000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMemory } from '../../electron/memory';
import { benchSync, formatSync } from './sync-bench';
import { ms } from './stats';

function observations(n: number, from: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const at = new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString();
    return { subject: `Person ${i % 500}`, predicate: 'note', object: `note ${i}`, object_type: 'literal', fact: `Person ${i % 500} noted ${i}.`, reference_time: at, cardinality: 'many' };
  });
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--facts');
  const facts = at > 0 ? Number(process.argv[at + 1]) : 20_000;
  const dir = mkdtempSync(join(tmpdir(), 'tempora-sync-cost-'));
  try {
    const memory = openMemory({ dataDir: join(dir, 'first-device') });
    try {
      const start = performance.now();
      for (let i = 0; i < facts; i += 1_000) memory.facts.observe(observations(Math.min(1_000, facts - i), i));
      console.log(`${facts} facts observed in ${ms(performance.now() - start)} (for comparison)`);
      console.log(formatSync(await benchSync(memory, dir, facts)));
    } finally {
      memory.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
