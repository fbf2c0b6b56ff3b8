/**
 * `npx tsx test/bench/screen-queries.ts [--size 100k] [--runs N]` — the memory queries behind the
 * screens (issue 14), on the synthetic memory of `npm run bench` imported into a store on disk:
 * a fact's page (factDetails), a page of the Facts list with its filters and its total, and the
 * timeline's load. Each is printed beside what the screen did before (the same answer computed the
 * old way: every version read to find what a fact closed; up to 200,000 facts for the list; the whole
 * history for the timeline), p50 / p95 wall and CPU. Prints numbers; asserts only that the two ways
 * agree.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openMemory, type Memory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { timelineWindow } from '../../electron/memory/temporal/timeline-window';
import type { TimelineWindowQuery } from '../../electron/memory/temporal/timeline-window-shape';
import type { FactRecord } from '../../shared/memory-schema';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { count, measure, ms, table } from './stats';
import { syntheticExport } from './synthetic-export';
import type { IsoTime } from '../../shared/time';

type TimeSpan = { from: IsoTime; to: IsoTime };

const { values: args } = parseArgs({ options: { size: { type: 'string', default: '100k' }, runs: { type: 'string', default: '200' } } });
const size = Math.round(Number(/^(\d+(?:\.\d+)?)/.exec(args.size)?.[1] ?? NaN) * (/k$/i.test(args.size) ? 1_000 : /m$/i.test(args.size) ? 1_000_000 : 1));
const runs = Number(args.runs);
if (!Number.isInteger(size) || size < 100 || !Number.isInteger(runs) || runs < 1) throw new Error('usage: --size 100k --runs 200');
/** The old ways read the whole store: a few runs say enough. */
const SLOW_RUNS = 5;

type Row = (string | number)[];
const rows: Row[] = [['', 'p50', 'p95', 'CPU p50', 'CPU p95', 'runs', '']];
function row(label: string, n: number, call: (i: number) => unknown, note = ''): void {
  const l = measure(n, Math.min(3, n), call);
  rows.push([label, ms(l.wall.p50), ms(l.wall.p95), ms(l.cpu.p50), ms(l.cpu.p95), n, note]);
}

/** What the factDetails handler did before: every version of the memory read to find what this fact closed. */
function oldFactDetails(memory: Memory, id: string): FactRecord[] {
  const details = memory.facts.provenance(id);
  return memory.facts.list({ history: true }).filter((f) => f.invalidated_by !== null && details.versions.some((v) => v.id === f.invalidated_by) && f.expired_at === null);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'tempora-screens-'));
  try {
    const t0 = performance.now();
    const doc = syntheticExport(generateSyntheticMemory({ observations: size, seed: 42 }));
    const memory = openMemory({ dataDir: join(root, 'store') });
    memory.transfer.import(doc);
    await memory.settled();
    console.log(`${count(doc.facts.length)} fact versions (${count(size)} observations), built in ${ms(performance.now() - t0)}`);

    // Facts with a page worth showing: replaced ones (they closed something), and any others.
    const live = memory.facts.list({ history: true, knownAt: memory.clock.now() });
    const closers = live.filter((f) => f.supersedes !== null || live.length < 50).slice(0, 500);
    const pick = (i: number) => closers[(i * 7919) % closers.length]!;
    const sample = pick(1);
    const oldClosed = oldFactDetails(memory, sample.id).map((f) => f.id).sort();
    const newClosed = memory.facts.details(sample.id).closed.map((f) => f.id).sort();
    if (JSON.stringify(oldClosed) !== JSON.stringify(newClosed)) throw new Error(`factDetails: the two ways disagree for ${sample.id}`);

    row("fact's page, before (every version read)", SLOW_RUNS, (i) => oldFactDetails(memory, pick(i).id));
    row("fact's page: factDetails (indexed)", runs, (i) => memory.facts.details(pick(i).id));

    const subjects = [...new Set(live.map((f) => f.subject))].slice(0, 200);
    const predicates = [...new Set(live.map((f) => f.predicate))];
    const someSubject = (i: number) => subjects[(i * 31) % subjects.length]!;
    const somePredicate = (i: number) => predicates[(i * 17) % predicates.length]!;
    const first = memory.facts.page({ limit: 200 });
    row('Facts screen, before (listFacts limit 200,000)', SLOW_RUNS, () => memory.facts.list({ limit: 200_000 }), `${count(first.total)} facts`);
    row('Facts: first page of 200 + total', runs, () => memory.facts.page({ limit: 200 }));
    row('Facts: first page, newest first (as the screen asks) + total', runs, () => memory.facts.page({ newestFirst: true, limit: 200 }));
    row('As-of panel: first page, newest first, as of 2025-06-01 + total', runs, () => memory.facts.page({ asOf: '2025-06-01T00:00:00.000Z', newestFirst: true, limit: 100 }));
    row('Facts: page at offset 10,000', Math.min(runs, 50), () => memory.facts.page({ limit: 200, offset: 10_000 }));
    row('Facts: history, newest first, page + total', Math.min(runs, 50), () => memory.facts.page({ history: true, newestFirst: true, limit: 200 }));
    row('Facts: entity filter, page + total', runs, (i) => memory.facts.page({ entity: someSubject(i), limit: 200 }));
    row('Facts: predicate filter, page + total', runs, (i) => memory.facts.page({ predicate: somePredicate(i), limit: 200 }));
    row('Facts: predicate + history + as of, page + total', runs, (i) => memory.facts.page({ predicate: somePredicate(i), history: true, asOf: '2025-06-01T00:00:00.000Z', limit: 200 }));
    row('Facts: words "manager" + entity, page + total', runs, (i) => memory.facts.page({ text: 'manager', entity: someSubject(i), limit: 200 }));
    row('Facts: words "coffee", page + total', Math.min(runs, 50), () => memory.facts.page({ text: 'coffee', limit: 200 }));

    row('Timeline, before (the whole history)', SLOW_RUNS, () => memory.facts.list({ history: true }), `${count(doc.facts.length)} versions`);
    const win = memory.facts.timelineWindow({ from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z', rowLimit: 40 });
    row('Timeline: window (40 rows × 1 year) + summaries', Math.min(runs, 50), () => memory.facts.timelineWindow({ from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z', rowLimit: 40 }), `${count(win.totalRows)} rows`);
    row('Timeline: window scrolled (rows 5,000–5,040)', Math.min(runs, 50), () => memory.facts.timelineWindow({ from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z', rowOffset: 5_000, rowLimit: 40 }));
    row('Timeline: window with a row filter', Math.min(runs, 20), () => memory.facts.timelineWindow({ from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z', filter: 'manager', rowLimit: 40 }));
    // The app's question (groups collapsed above 30 rows): from the rows kept by triggers, and the same by the pass over every held fact.
    const db = databaseOf(memory);
    const grouped = (extra: Partial<TimelineWindowQuery> = {}): TimelineWindowQuery => ({ from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z', rowLimit: 100, groups: { collapseAbove: 30 }, ...extra });
    const me = memory.facts.timelineWindow(grouped({ rowLimit: 1 })).rows[0]!.subject_id;
    const year: TimeSpan = { from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' };
    row('Timeline as the app asks, fitted: 100 rows, kept rows', Math.min(runs, 50), () => timelineWindow(db, grouped()), `${count(memory.facts.timelineWindow(grouped()).totalRows)} rows`);
    row('  the same by one pass over the held facts', Math.min(runs, 10), () => timelineWindow(db, grouped(), { kept: false }));
    row('Timeline as the app asks: 1 year, rows 5,000–5,100, the user opened', Math.min(runs, 50), () => timelineWindow(db, grouped({ ...year, rowOffset: 5_000, groups: { collapseAbove: 30, expanded: [me] } })));
    row('  the same by one pass over the held facts', Math.min(runs, 10), () => timelineWindow(db, grouped({ ...year, rowOffset: 5_000, groups: { collapseAbove: 30, expanded: [me] } }), { kept: false }));
    row('facts overlapping a 30-day window, page + total', Math.min(runs, 50), () => memory.facts.page({ history: true, knownAt: memory.clock.now(), overlapping: { from: '2025-06-01T00:00:00.000Z', to: '2025-07-01T00:00:00.000Z' }, limit: 500 }));

    // What changed (temporal/change-feed.ts): keyset pages, the same cost at any depth and size.
    let deep: string | undefined;
    for (let page = 0; page < 20; page++) deep = memory.facts.changeFeed({ limit: 50, cursor: deep }).next ?? deep;
    row('What changed: first page of 50', runs, () => memory.facts.changeFeed({ limit: 50 }));
    row('What changed: the 21st page of 50 (by cursor)', runs, () => memory.facts.changeFeed({ limit: 50, cursor: deep }));
    row('What changed: about one entity, first page of 50', runs, (i) => memory.facts.changeFeed({ entity: someSubject(i), limit: 50 }));
    const slotFact = memory.facts.list({ subject: 'me', predicate: 'manager', limit: 1 })[0] ?? sample;
    row(`A slot's history (${slotFact.subject} · ${slotFact.predicate}): first page of 20`, runs, () => memory.facts.slotHistory(slotFact.id, { limit: 20 }), `${count(memory.facts.slotHistory(slotFact.id, { limit: 1 }).total)} values`);

    console.log(table(rows));
    memory.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
