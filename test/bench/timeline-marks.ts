/**
 * `npx tsx test/bench/timeline-marks.ts [--size 100k] [--runs N]` — issue #25: the cost the group
 * headers' marks (temporal/timeline-marks.ts) add to the timeline's first page at scale (groups
 * collapsed, fitted: all time; and zoomed to a month), on the synthetic memory of `npm run bench`
 * imported into a store on disk; and the natural order's page deep in the list. Prints numbers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openMemory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { groupMarks } from '../../electron/memory/temporal/timeline-marks';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { count, measure, ms, table } from './stats';
import { syntheticExport } from './synthetic-export';
import { isoFromMs, isoTimeOf, type IsoTime } from '../../shared/time';

const { values: args } = parseArgs({ options: { size: { type: 'string', default: '100k' }, runs: { type: 'string', default: '100' } } });
const size = Math.round(Number(/^(\d+(?:\.\d+)?)/.exec(args.size)?.[1] ?? NaN) * (/k$/i.test(args.size) ? 1_000 : /m$/i.test(args.size) ? 1_000_000 : 1));
const runs = Number(args.runs);

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'tempora-marks-'));
  try {
    const t0 = performance.now();
    const doc = syntheticExport(generateSyntheticMemory({ observations: size, seed: 42 }));
    const memory = openMemory({ dataDir: join(root, 'store') });
    memory.transfer.import(doc);
    await memory.settled();
    const db = databaseOf(memory);
    const subjects = (db.prepare('SELECT subjects, slots FROM timeline_totals').get() as { subjects: number; slots: number });
    console.log(`${count(doc.facts.length)} fact versions, ${count(subjects.subjects)} subjects, ${count(subjects.slots)} rows, built in ${ms(performance.now() - t0)}`);
    const all: { from: IsoTime; to: IsoTime } = { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z' };
    const last = isoTimeOf((db.prepare('SELECT max(last) AS last FROM timeline_subjects').get() as { last: string }).last);
    const month = { from: isoFromMs(Date.parse(last) - 30 * 86_400_000), to: last };
    const rows: (string | number)[][] = [['', 'p50', 'p95', 'CPU p50', 'runs']];
    const row = (label: string, call: (i: number) => unknown) => {
      const l = measure(runs, 3, call);
      rows.push([label, ms(l.wall.p50), ms(l.wall.p95), ms(l.cpu.p50), runs]);
    };
    for (const [name, range] of [['all time', all], ['a month', month]] as const) {
      const q = { ...range, rowOffset: 0, rowLimit: 100, groups: { collapseAbove: 30 } };
      const page = timelineWindow(db, q);
      const headers = page.rows.filter((r) => r.group);
      const facts = headers.reduce((sum, r) => sum + r.count, 0);
      row(`first page, ${name} (100 headers, ${count(facts)} facts)`, () => timelineWindow(db, q));
      row(`  of which the marks`, () => groupMarks(db, 'f.expired_at IS NULL', '', '', {}, range, headers));
      const deep = { ...q, rowOffset: Math.max(0, subjects.subjects - 100) };
      row(`last page, ${name}`, () => timelineWindow(db, deep));
    }
    console.log(table(rows));
    memory.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
