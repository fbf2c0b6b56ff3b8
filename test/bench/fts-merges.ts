/**
 * Where a learned message's slow writes come from on a large memory (issue 14's per-message
 * overhead): messages appended one write at a time on top of an imported synthetic memory, each
 * write timed: as the app ran before (FTS5's defaults, merging inside the writes: `automerge` 4,
 * `crisismerge` 16); with FTS5's automatic merging off (`automerge` 0), and also its crisis merges
 * (`crisismerge` 2000: FTS5 merges a level's segments once it has 16, even with automerge off) — if
 * slow writes vanish, they were the indexes' segment merges; with SQLite's automatic WAL checkpoint
 * off (`wal_autocheckpoint` 0: if they vanish, they were checkpoints); and as the app runs now
 * (text-search/fts-merge.ts: no merges in writes, crisismerge 64, merges while idle): with the idle
 * merge run between bursts of --burst writes (what its timer does once writes pause for 1.5 s), and
 * never idle (every write in a row: only the crisismerge cap merges). Each variant also says how many
 * segments its indexes hold at the end; the idle one how long its merges took, and the longest the
 * event loop waited on one merge step (a write or search arriving waits at most that).
 *
 *   npx tsx test/bench/fts-merges.ts [--size 300k] [--writes 400] [--burst 20] [--variants 0,4,5] [--step-pages 64]
 *
 * --step-pages: the idle merge's step size (leaf pages each step writes; the app's is MERGE_STEP_PAGES).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openMemory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { FullTextIdleMerge } from '../../electron/memory/text-search/fts-idle-merge';
import { MERGE_STEP_PAGES, MERGED_TABLES, segmentCount } from '../../electron/memory/text-search/fts-merge';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { percentile } from './stats';
import { syntheticExport } from './synthetic-export';

const { values } = parseArgs({
  options: { size: { type: 'string', default: '300k' }, writes: { type: 'string', default: '400' }, burst: { type: 'string', default: '20' }, variants: { type: 'string' }, 'step-pages': { type: 'string' } },
});
const size = Number(values.size.replace(/k$/i, '000').replace(/m$/i, '000000'));
const writes = Number(values.writes);
const burst = Number(values.burst);
const stepPages = Number(values['step-pages'] ?? MERGE_STEP_PAGES);
const root = mkdtempSync(join(tmpdir(), 'tempora-fts-merges-'));

const ALL_VARIANTS = [
  'as the app ran before',
  'FTS automerge off',
  'FTS automerge off, crisismerge 2000',
  'WAL autocheckpoint off',
  'as the app runs now, idle between bursts',
  'as the app runs now, never idle',
] as const;

/** How long the event loop went without a turn, each time, while `work` ran: its merge steps between their yields. */
async function stalls(work: Promise<void>, into: number[]): Promise<void> {
  let done = false;
  let last = performance.now();
  const probe = () => {
    const now = performance.now();
    into.push(now - last);
    last = now;
    if (!done) setImmediate(probe);
  };
  setImmediate(probe);
  await work.finally(() => (done = true));
}

try {
  const variants = values.variants ? values.variants.split(',').map((k) => ALL_VARIANTS[Number(k)]!) : ALL_VARIANTS;
  const dirs = variants.map((v) => join(root, `store-${v.replace(/\W+/g, '-')}`));
  {
    // The stores are built first and the document let go: a benchmark holding a large document
    // pays major garbage collections that the app, which holds none, would not (run with
    // NODE_OPTIONS=--expose-gc to collect it before the writes are timed).
    const doc = syntheticExport(generateSyntheticMemory({ observations: size, seed: 42 }));
    for (const dir of dirs) {
      const memory = openMemory({ dataDir: dir });
      memory.transfer.import(structuredClone(doc));
      await memory.settled();
      memory.close();
    }
  }
  (globalThis as { gc?: () => void }).gc?.();
  for (const [k, variant] of variants.entries()) {
    const memory = openMemory({ dataDir: dirs[k]! });
    const db = databaseOf(memory);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5(%'").all() as { name: string }[]).map((r) => r.name);
    // The variants other than "now" start from FTS5's defaults, as every store was before. FTS5's
    // special commands take their value as a literal, not a bound parameter.
    if (!variant.startsWith('as the app runs now')) for (const t of tables) db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 4); INSERT INTO ${t} (${t}, rank) VALUES ('crisismerge', 16)`);
    if (variant === 'WAL autocheckpoint off') db.pragma('wal_autocheckpoint = 0');
    if (variant.startsWith('FTS automerge off')) {
      for (const t of tables) db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('automerge', 0)`);
      // Crisis merges (16 segments of a level, by default) happen even with automerge off.
      if (variant.endsWith('crisismerge 2000')) for (const t of tables) db.exec(`INSERT INTO ${t} (${t}, rank) VALUES ('crisismerge', 2000)`);
    }
    const idle = variant === 'as the app runs now, idle between bursts';
    const merges = { ms: 0, longestPassMs: 0, steps: [] as number[] };
    // The app's idle merge (memory.mergeFullText() is what its timer runs), or one with other steps.
    const idleMerge = stepPages === MERGE_STEP_PAGES ? null : new FullTextIdleMerge(db, stepPages);
    const mergeNow = () => (idleMerge ? idleMerge.mergeNow() : memory.mergeFullText());
    const times: number[] = [];
    for (let i = 0; i < writes; i++) {
      if (idle && i > 0 && i % burst === 0) {
        // What the idle timer does once the writes pause: run to completion, yielding between steps.
        const t0 = performance.now();
        await stalls(mergeNow(), merges.steps);
        const passMs = performance.now() - t0;
        merges.ms += passMs;
        merges.longestPassMs = Math.max(merges.longestPassMs, passMs);
      }
      const t0 = performance.now();
      memory.messages.append({
        role: 'user',
        content: `Message ${i}: 今日は東京で会議があった。I met Alice at the station and we talked about project ${i}.`,
        time: new Date(Date.parse('2027-01-01T00:00:00Z') + i * 60_000).toISOString(),
        conversation: 'cnv_fts',
        learn: false,
      });
      times.push(performance.now() - t0);
    }
    const segmentsNow = () => MERGED_TABLES.map((t) => `${t} ${segmentCount(db, t)}`).join(', ');
    const atTheEnd = segmentsNow();
    if (idle) await mergeNow();
    idleMerge?.close();
    const sorted = [...times].sort((a, b) => a - b);
    const steps = [...merges.steps].sort((a, b) => a - b);
    console.log(
      `${size.toLocaleString('en-US')} observations, ${variant}: ${writes} writes, p50 ${percentile(sorted, 50).toFixed(2)} ms, ` +
        `p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms, ` +
        `${times.filter((t) => t > 50).length} over 50 ms (writes ${times.flatMap((t, i) => (t > 50 ? [i + 1] : [])).join(', ') || '—'}); ` +
        `segments at the end: ${atTheEnd}` +
        (idle ? `; after one more idle merge: ${segmentsNow()}; idle merges (every ${burst} writes) ${merges.ms.toFixed(0)} ms in all, longest ${merges.longestPassMs.toFixed(0)} ms; ` +
            `${stepPages}-page steps: ${steps.length} turns of the event loop, p50 ${percentile(steps, 50).toFixed(2)} ms, p99 ${percentile(steps, 99).toFixed(1)} ms, max ${steps[steps.length - 1]!.toFixed(1)} ms` : ''),
    );
    memory.close();
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
