/**
 * `npx tsx test/bench/timeline-query.ts [--size 100k] [--runs N] [--store DIR] [--only REGEX]` — issue 26: the
 * timeline's one query (Memory.timelineWindow) for every question the screen asks, on the synthetic
 * memory of `npm run bench`: as the app asks it (groups collapsed above 30 rows, 100 rows) over all
 * time and over a month; known at a time in the past (a quarter, half of the history recorded / nine
 * tenths; at half also scrolled to row 50,000);
 * a week and a day before the last write; with a row filter that keeps few rows and one that keeps
 * many; and known-at with a filter. With
 * --store DIR the memory is built there once and reused by later runs (before / after a change).
 * Prints numbers (p50 / p95 wall and CPU); asserts nothing.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openMemory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import type { TimelineWindowQuery } from '../../electron/memory/temporal/timeline-window-shape';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { count, measure, ms, table } from './stats';
import { syntheticExport } from './synthetic-export';
import { isoFromMs, isoTimeOf, type IsoTime } from '../../shared/time';

const { values: args } = parseArgs({ options: { size: { type: 'string', default: '100k' }, runs: { type: 'string', default: '20' }, store: { type: 'string' }, only: { type: 'string' } } });
const size = Math.round(Number(/^(\d+(?:\.\d+)?)/.exec(args.size)?.[1] ?? NaN) * (/k$/i.test(args.size) ? 1_000 : /m$/i.test(args.size) ? 1_000_000 : 1));
const runs = Number(args.runs);
if (!Number.isInteger(size) || size < 100 || !Number.isInteger(runs) || runs < 1) throw new Error('usage: --size 100k --runs 20 [--store DIR]');

async function main(): Promise<void> {
  const root = args.store ?? mkdtempSync(join(tmpdir(), 'tempora-timeline-'));
  const dataDir = join(root, 'store');
  try {
    const t0 = performance.now();
    const reuse = existsSync(dataDir);
    const memory = openMemory({ dataDir });
    if (!reuse) {
      memory.transfer.import(syntheticExport(generateSyntheticMemory({ observations: size, seed: 42 })));
      await memory.settled();
    }
    const db = databaseOf(memory);
    const facts = (db.prepare('SELECT count(*) AS n FROM facts').get() as { n: number }).n;
    console.log(`${count(facts)} fact versions, ${reuse ? 'reused' : 'built'} in ${ms(performance.now() - t0)}`);

    // Times of the history: knownAt at half and nine tenths of the versions recorded.
    const createdAt = (share: number) =>
      isoTimeOf((db.prepare('SELECT created_at AS t FROM facts ORDER BY created_at COLLATE NOCASE LIMIT 1 OFFSET ?').get(Math.floor(facts * share)) as { t: string }).t);
    const half = createdAt(0.5);
    const late = createdAt(0.9);
    const quarter = createdAt(0.25);
    const lastRecorded = isoTimeOf((db.prepare('SELECT max(created_at) AS t FROM facts').get() as { t: string }).t);
    const daysBefore = (days: number) => isoFromMs(Date.parse(lastRecorded) - days * 86_400_000);
    const last = isoTimeOf((db.prepare('SELECT max(last) AS last FROM timeline_subjects').get() as { last: string }).last);
    // A filter that keeps few rows: one person's whole name; many: a predicate most subjects have.
    const someone = (db.prepare("SELECT name FROM entities WHERE type = 'person' AND name LIKE '% % %' ORDER BY id LIMIT 1 OFFSET 77").get() as { name: string } | undefined)?.name ?? 'Alice';

    const all: { from: IsoTime; to: IsoTime } = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' };
    const month = { from: isoFromMs(Date.parse(last) - 30 * 86_400_000), to: last };
    const asked = (extra: Partial<TimelineWindowQuery> = {}): TimelineWindowQuery => ({ ...all, rowOffset: 0, rowLimit: 100, groups: { collapseAbove: 30 }, ...extra });
    const questions: [string, TimelineWindowQuery][] = [
      ['all time', asked()],
      ['a month', asked(month)],
      [`known at half the history (${half.slice(0, 10)})`, asked({ knownAt: half })],
      [`known at nine tenths (${late.slice(0, 10)})`, asked({ knownAt: late })],
      [`known at a quarter (${quarter.slice(0, 10)})`, asked({ knownAt: quarter })],
      ['known at half, rows from 50,000 (scrolled)', asked({ knownAt: half, rowOffset: 50_000 })],
      ['known at a week before the last write', asked({ knownAt: daysBefore(7) })],
      ['known at a day before the last write', asked({ knownAt: daysBefore(1) })],
      [`filter "${someone}" (few rows)`, asked({ filter: someone })],
      ['filter "likes" (many rows)', asked({ filter: 'likes' })],
      ['filter "smith" (many subjects)', asked({ filter: 'smith' })],
      [`known at half + filter "${someone}"`, asked({ knownAt: half, filter: someone })],
    ];
    const rows: (string | number)[][] = [['', 'p50', 'p95', 'CPU p50', 'runs', 'rows']];
    for (const [label, q] of questions.filter(([label]) => args.only === undefined || new RegExp(args.only, 'i').test(label))) {
      const answer = memory.facts.timelineWindow(q);
      const l = measure(runs, 1, () => memory.facts.timelineWindow(q));
      rows.push([label, ms(l.wall.p50), ms(l.wall.p95), ms(l.cpu.p50), runs, count(answer.totalRows)]);
      console.log(rows.at(-1)!.join(' | '));
    }
    console.log(table(rows));
    memory.close();
  } finally {
    if (!args.store) rmSync(root, { recursive: true, force: true });
  }
}

void main();
