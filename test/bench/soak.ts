/**
 * `npm run soak` — issue 29's soak run: the engine's memory learns a message every --every ms
 * (appendMessage, then the real IngestionWorker with the scripted model: each message one fact, a
 * one-valued slot that changes) for --minutes, on a memory of --size, while the screens' questions
 * run through the API as the pages ask them (the Timeline's first block, the Facts list, a search,
 * What changed, a slot's history). Printed: resident memory over time (it must not grow past a bound
 * once warm), each question's p50 / p99, and that nothing was lost (every message learned, its
 * fact in the memory). A benchmark, not a test: it prints numbers and exits non-zero only when
 * something was lost or the memory grew past the bound.
 *
 *   npm run soak                                   100k, 30 minutes, a message every 200 ms
 *   npm run soak -- --size 1m --store /tmp/soak    a 1M memory built once there and reused
 *   npm run soak -- --minutes 2 --size 10k         a short check
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { IngestionWorker } from '../../electron/assistant/ingestion/ingestion-worker';
import { createApiHandlers, dispatchCall } from '../../electron/engine/api-handlers';
import { TemporaEngine } from '../../electron/engine/index';
import { openMemory } from '../../electron/memory/index';
import { databaseOf } from '../../electron/memory/memory';
import { generateSyntheticMemory } from '../fixtures/synthetic-memory';
import { scriptedModel, type Script } from '../fixtures/scripted-model';
import { count, mb, ms, summarize, table } from './stats';
import { syntheticExport } from './synthetic-export';

process.env.LANCEDB_LOG ??= 'error';
const { values: args } = parseArgs({
  options: {
    size: { type: 'string', default: '100k' },
    minutes: { type: 'string', default: '30' },
    every: { type: 'string', default: '200' },
    store: { type: 'string' },
    'rss-bound': { type: 'string', default: '150' },
  },
});
const size = Math.round(Number.parseFloat(args.size) * ({ k: 1_000, m: 1_000_000 }[args.size.slice(-1).toLowerCase()] ?? 1));
const minutes = Number(args.minutes);
const everyMs = Number(args.every);
/** How far resident memory may grow (MB) from its value after the first minute to its highest later. */
const rssBoundMb = Number(args['rss-bound']);
if (!Number.isInteger(size) || size < 100 || !(minutes > 0) || !(everyMs > 0)) throw new Error('usage: npm run soak -- [--size 100k] [--minutes 30] [--every 200] [--store DIR] [--rss-bound 150]');

const root = args.store ?? mkdtempSync(join(tmpdir(), 'tempora-soak-'));
const dataDir = join(root, `store-${size}`);
if (!existsSync(dataDir)) {
  const t0 = performance.now();
  const memory = openMemory({ dataDir });
  memory.transfer.import(syntheticExport(generateSyntheticMemory({ observations: size, seed: 42 })));
  memory.close();
  console.log(`built a memory of ${count(size)} observations in ${ms(performance.now() - t0)} at ${dataDir}`);
}

// Message i says where soak person (i mod 50) lives now: one fact, its one-valued slot changing.
const CITIES = ['Tokyo', 'Osaka', 'Kyoto', 'Sapporo', 'Fukuoka', 'Nagoya', 'Sendai'];
const said = (i: number) => `Soak person ${i % 50} moved to ${CITIES[i % CITIES.length]} (note ${i}).`;
const extract = new Proxy({}, {
  get: (_, content) => {
    const m = typeof content === 'string' ? /^Soak person (\d+) moved to (\w+) \(note \d+\)\.$/.exec(content) : null;
    return m ? [{ subject: `Soak person ${m[1]}`, predicate: 'lives_in', object: m[2]!, fact: content as string, cardinality: 'one', object_type: 'place' }] : undefined;
  },
});
const script: Script = { extract };

const engine = await TemporaEngine.open({ dataDir, autoLoadModels: false, startWorker: false });
const handlers = createApiHandlers(engine);
const call = (name: string, request: unknown) => dispatchCall(handlers, name, request);
const memory = engine.memory;
const worker = new IngestionWorker(memory, { model: () => scriptedModel(script) });
worker.start();

const conversation = memory.conversations.create('Soak').id;
const questions: Record<string, () => Promise<unknown>> = {
  'timeline, first block': () => call('timelineWindow', { from: '1000-01-01T00:00:00.000Z', to: '9999-12-31T00:00:00.000Z', rowOffset: 0, rowLimit: 100, groups: { collapseAbove: 30, expanded: [], collapsed: [] } }),
  'facts, first page': () => call('listFacts', { newestFirst: true, limit: 100 }),
  'search "moved Tokyo"': () => call('search', { query: 'moved Tokyo', limit: 20 }),
  'what changed, first page': () => call('changeFeed', { limit: 50 }),
};
const latencies = new Map<string, number[]>(Object.keys(questions).map((q) => [q, []]));
const rss: { minute: number; rss: number; heap: number; external: number }[] = [];
const episodeIds: string[] = [];
const start = performance.now();
const end = start + minutes * 60_000;
let nextMessage = start;
let nextQuestions = start;
let nextSample = start;

while (performance.now() < end) {
  const now = performance.now();
  if (now >= nextMessage) {
    const i = episodeIds.length;
    episodeIds.push(memory.messages.append({ role: 'user', content: said(i), conversation, time: new Date().toISOString() }).episode.id);
    worker.notify();
    nextMessage += everyMs;
  }
  if (now >= nextQuestions) {
    for (const [name, ask] of Object.entries(questions)) {
      const t0 = performance.now();
      await ask();
      latencies.get(name)!.push(performance.now() - t0);
    }
    nextQuestions += 1_000;
  }
  if (now >= nextSample) {
    const u = process.memoryUsage();
    rss.push({ minute: (now - start) / 60_000, rss: u.rss, heap: u.heapUsed, external: u.external });
    // A line a minute as it runs, so a long run that stops early still told what it saw.
    if (rss.length % 6 === 1) console.log(`  minute ${((now - start) / 60_000).toFixed(1)}: RSS ${mb(u.rss)}, heap ${mb(u.heapUsed)}, ${count(episodeIds.length)} messages`);
    nextSample += 10_000;
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(nextMessage, nextQuestions, nextSample) - performance.now())));
}
await worker.whenIdle();
await worker.stop();

// Nothing lost: every message's job done, and each message's fact in the memory (a version naming it).
const db = databaseOf(memory);
const ids = JSON.stringify(episodeIds);
const jobs = db.prepare(`SELECT status, count(*) AS n FROM ingestion_jobs WHERE episode_id IN (SELECT value FROM json_each(?)) GROUP BY status`).all(ids) as { status: string; n: number }[];
const learned = (db.prepare('SELECT count(DISTINCT episode_id) AS n FROM fact_episodes WHERE episode_id IN (SELECT value FROM json_each(?))').get(ids) as { n: number }).n;
await engine.close();
if (!args.store) rmSync(root, { recursive: true, force: true });

const warm = rss.filter((r) => r.minute >= Math.min(1, minutes / 2));
const base = warm[0]?.rss ?? rss[0]!.rss;
const highest = Math.max(...warm.map((r) => r.rss));
const growthMb = (highest - base) / 1024 / 1024;
console.log(`\n=== soak: ${count(size)} observations, ${minutes} min, a message every ${everyMs} ms (${new Date().toISOString()}) ===`);
console.log(table([['minute', 'RSS', 'heap used', 'external'], ...rss.filter((_, i) => i % 6 === 0 || i === rss.length - 1).map((r) => [r.minute.toFixed(1), mb(r.rss), mb(r.heap), mb(r.external)])]));
console.log(table([['question (every second)', 'runs', 'p50', 'p99', 'max'], ...[...latencies].map(([name, l]) => { const s = summarize(l); return [name, s.runs, ms(s.p50), ms(s.p99), ms(s.max)]; })]));
const lost = episodeIds.length - learned;
console.log(`  messages ${count(episodeIds.length)}; jobs ${jobs.map((j) => `${j.status} ${count(j.n)}`).join(', ')}; learned into the memory ${count(learned)}; lost ${lost}`);
console.log(`  RSS after the first minute ${mb(base)}, highest after ${mb(highest)}: grew ${growthMb.toFixed(0)} MB (bound ${rssBoundMb} MB) ${growthMb <= rssBoundMb ? 'PASS' : 'MISS'}`);
if (lost > 0 || growthMb > rssBoundMb) process.exitCode = 1;
