/**
 * Where a learned message's slow writes come from on a large memory (issue 14's per-message
 * overhead): messages appended one write at a time on top of an imported synthetic memory, each
 * write timed: as the app runs; with FTS5's automatic merging off (`automerge` 0), and also its
 * crisis merges (`crisismerge` 2000: FTS5 merges a level's segments once it has 16, even with
 * automerge off) — if slow writes vanish, they were the indexes' segment merges; and with SQLite's
 * automatic WAL checkpoint off (`wal_autocheckpoint` 0: if they vanish, they were checkpoints).
 *
 *   npx tsx test/bench/fts-merges.ts [--size 300k] [--writes 400]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openMemory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { percentile } from './stats';
import { syntheticExport } from './synthetic-export';

const { values } = parseArgs({ options: { size: { type: 'string', default: '300k' }, writes: { type: 'string', default: '400' } } });
const size = Number(values.size.replace(/k$/i, '000').replace(/m$/i, '000000'));
const writes = Number(values.writes);
const root = mkdtempSync(join(tmpdir(), 'tempora-fts-merges-'));

try {
  const variants = ['as the app runs', 'FTS automerge off', 'FTS automerge off, crisismerge 2000', 'WAL autocheckpoint off'] as const;
  const dirs = variants.map((v) => join(root, `store-${v.replace(/\W+/g, '-')}`));
  {
    // The stores are built first and the document let go: a benchmark holding a large document
    // pays major garbage collections that the app, which holds none, would not (run with
    // NODE_OPTIONS=--expose-gc to collect it before the writes are timed).
    const doc = syntheticExport(generateSyntheticMemory({ observations: size, seed: 42 }));
    for (const dir of dirs) {
      const memory = openMemory({ dataDir: dir });
      memory.importMemory(structuredClone(doc));
      await memory.settled();
      memory.close();
    }
  }
  (globalThis as { gc?: () => void }).gc?.();
  for (const [k, variant] of variants.entries()) {
    const memory = openMemory({ dataDir: dirs[k]! });
    const db = databaseOf(memory);
    if (variant === 'WAL autocheckpoint off') db.pragma('wal_autocheckpoint = 0');
    if (variant.startsWith('FTS automerge off')) {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5(%'").all() as { name: string }[]).map((r) => r.name);
      // FTS5's special commands take their value as a literal, not a bound parameter.
      for (const t of tables) db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 0)`);
      // Crisis merges (16 segments of a level, by default) happen even with automerge off.
      if (variant.endsWith('crisismerge 2000')) for (const t of tables) db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('crisismerge', 2000)`);
    }
    const times: number[] = [];
    for (let i = 0; i < writes; i++) {
      const t0 = performance.now();
      memory.appendMessage({
        role: 'user',
        content: `Message ${i}: 今日は東京で会議があった。I met Alice at the station and we talked about project ${i}.`,
        time: new Date(Date.parse('2027-01-01T00:00:00Z') + i * 60_000).toISOString(),
        conversation: 'cnv_fts',
        learn: false,
      });
      times.push(performance.now() - t0);
    }
    const sorted = [...times].sort((a, b) => a - b);
    console.log(
      `${size.toLocaleString('en-US')} observations, ${variant}: ${writes} writes, p50 ${percentile(sorted, 50).toFixed(2)} ms, ` +
        `p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms, ` +
        `${times.filter((t) => t > 50).length} over 50 ms (writes ${times.flatMap((t, i) => (t > 50 ? [i + 1] : [])).join(', ') || '—'})`,
    );
    memory.close();
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
