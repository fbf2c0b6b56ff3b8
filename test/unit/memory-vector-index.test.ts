/**
 * The vector index (real LanceDB in a temporary directory) and its synchronisation with a source of
 * live items. Embeddings come from a deterministic fake: words hashed into signed buckets,
 * L2-normalised — the real model path is tested with the tiny GGUF elsewhere.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryInputError } from '../../electron/memory/memory-errors';
import { VectorIndex, sqlString, type VectorKind } from '../../electron/memory/vectors/vector-index';
import { indexItems, rebuild, reconcile, textHash, type VectorSourceItem } from '../../electron/memory/vectors/vector-sync';
import type { TextEmbedder } from '../../electron/memory/vectors/text-embedder';
import { prng } from '../fixtures/prng';

const DIM = 32;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A unit vector for `text`: each word adds ±1 to one of `dimensions` buckets. */
function hashVector(text: string, dimensions = DIM): Float32Array {
  const v = new Float32Array(dimensions);
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    const h = fnv1a(word);
    v[h % dimensions]! += h & 0x8000_0000 ? -1 : 1;
  }
  const norm = Math.hypot(...v) || 1;
  if (v.every((x) => x === 0)) v[0] = 1;
  for (let i = 0; i < dimensions; i++) v[i]! /= norm;
  return v;
}

interface FakeEmbedder extends TextEmbedder {
  /** The texts of each `embed` call, in order. */
  calls: string[][];
  /** Runs inside each call (1-based call number), e.g. to abort after the n-th batch. */
  during?: (call: number) => void;
}

function fakeEmbedder(dimensions = DIM): FakeEmbedder {
  const embedder: FakeEmbedder = {
    dimensions,
    calls: [],
    async embed(texts, signal) {
      signal?.throwIfAborted();
      embedder.calls.push([...texts]);
      embedder.during?.(embedder.calls.length);
      return texts.map((text) => hashVector(text, dimensions));
    },
  };
  return embedder;
}

function item(id: string, kind: VectorKind, text: string) {
  return { id, kind, vector: hashVector(text), hash: '' };
}

let root: string;
let n = 0;
const open: VectorIndex[] = [];
const freshPath = () => join(root, `db${n++}`);
async function openIndex(path = freshPath(), dimensions = DIM, options: Parameters<typeof VectorIndex.open>[2] = {}): Promise<VectorIndex> {
  const index = await VectorIndex.open(path, dimensions, options);
  open.push(index);
  return index;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tempora-vectors-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((index) => index.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('VectorIndex', () => {
  it('returns the nearest first, by cosine distance, and filters by kind and ids', async () => {
    const index = await openIndex();
    expect(index.wasReset).toBe(false);
    await index.upsert([
      item('fct_1', 'fact', 'my manager is alice'),
      item('fct_2', 'fact', 'i live in kyoto near the river'),
      item('fct_3', 'fact', 'alice likes green tea'),
      item('ent_1', 'entity', 'alice manager'),
      item('epi_1', 'episode', 'my manager is alice since september'),
    ]);
    const query = hashVector('my manager is alice');
    const all = await index.search(query, { limit: 10 });
    expect(all[0]).toMatchObject({ id: 'fct_1', kind: 'fact' });
    expect(all[0]!.distance).toBeCloseTo(0, 5);
    expect(all).toHaveLength(5);
    const distances = all.map((h) => h.distance);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));

    const facts = await index.search(query, { limit: 10, kind: 'fact' });
    expect(facts.map((h) => h.kind)).toEqual(['fact', 'fact', 'fact']);
    expect(facts[0]!.id).toBe('fct_1');
    const notFacts = await index.search(query, { limit: 10, kind: ['entity', 'episode'] });
    expect(new Set(notFacts.map((h) => h.id))).toEqual(new Set(['ent_1', 'epi_1']));
    expect(await index.search(query, { limit: 2 })).toHaveLength(2);

    // Candidate ids: a short list is a prefilter, a long one (> 1000) is filtered after the search.
    expect((await index.search(query, { limit: 10, ids: ['fct_2', 'fct_3'] })).map((h) => h.id)).toEqual(['fct_3', 'fct_2']);
    const many = [...Array.from({ length: 1500 }, (_, i) => `fct_missing_${i}`), 'fct_2', 'epi_1'];
    expect((await index.search(query, { limit: 10, ids: many })).map((h) => h.id)).toEqual(['epi_1', 'fct_2']);
    expect(await index.search(query, { limit: 10, ids: [] })).toEqual([]);
    expect(await index.search(query, { limit: 0 })).toEqual([]);
  });

  it('upserting an id again keeps one row with the latest vector', async () => {
    const index = await openIndex();
    await index.upsert([item('ent_1', 'entity', 'bob'), item('ent_1', 'entity', 'robert smith'), item('ent_2', 'entity', 'carol')]);
    expect(await index.count()).toBe(2);
    await index.upsert([item('ent_1', 'entity', 'bobby tables')]);
    expect(await index.count()).toBe(2);
    const [hit] = await index.search(hashVector('bobby tables'), { limit: 1 });
    expect(hit).toMatchObject({ id: 'ent_1' });
    expect(hit!.distance).toBeCloseTo(0, 5);
  });

  it('deletes by id, also ids that need escaping and long lists', async () => {
    const index = await openIndex();
    const odd = ["it's", 'back\\slash', "''", '日本語', 'new\nline', "x' OR '1'='1"];
    await index.upsert([...odd.map((id) => item(id, 'fact', id)), item('keep', 'fact', 'keep me')]);
    expect(await index.count()).toBe(7);
    await index.delete(["x' OR '1'='1"]);
    expect(await index.ids()).toEqual(new Set(["it's", 'back\\slash', "''", '日本語', 'new\nline', 'keep']));
    await index.delete([...odd, 'never-stored', ...Array.from({ length: 2500 }, (_, i) => `fct_${i}`)]);
    expect(await index.ids()).toEqual(new Set(['keep']));
    expect(sqlString("a'b")).toBe("'a''b'");
  });

  it('lists ids by kind and counts, after the writes queued before (fire and forget)', async () => {
    const index = await openIndex();
    const errors: unknown[] = [];
    void index.upsert([item('fct_1', 'fact', 'one'), item('ent_1', 'entity', 'two')]);
    void index.upsert([item('epi_1', 'episode', 'three')]);
    void index.delete(['ent_1']);
    expect(await index.ids()).toEqual(new Set(['fct_1', 'epi_1']));
    expect(await index.ids('fact')).toEqual(new Set(['fct_1']));
    expect(await index.ids(['fact', 'episode'])).toEqual(new Set(['fct_1', 'epi_1']));
    expect(await index.count('episode')).toBe(1);
    expect(errors).toEqual([]);
  });

  it('rejects vectors of the wrong length or with NaN, writing nothing, and keeps working', async () => {
    const errors: unknown[] = [];
    const index = await openIndex(freshPath(), DIM, { onError: (e) => errors.push(e) });
    const short = index.upsert([item('fct_1', 'fact', 'fine'), { id: 'fct_2', kind: 'fact', vector: new Float32Array(DIM - 1) }]);
    await expect(short).rejects.toThrow(MemoryInputError);
    await expect(short).rejects.toThrow(/31 floats .* 32 dimensions/);
    const nan = new Float32Array(DIM);
    nan[3] = Number.NaN;
    await expect(index.upsert([{ id: 'fct_3', kind: 'fact', vector: nan }])).rejects.toThrow(/not a finite number/);
    await expect(index.upsert([{ id: 'fct_4', kind: 'thing' as VectorKind, vector: hashVector('x') }])).rejects.toThrow(/unknown vector kind/);
    await expect(index.search(new Float32Array(8), { limit: 3 })).rejects.toThrow(MemoryInputError);
    // A rejected fire-and-forget write is not an unhandled rejection; the next write goes through.
    void index.upsert([{ id: 'fct_5', kind: 'fact', vector: new Float32Array(1) }]);
    await index.upsert([item('fct_6', 'fact', 'after')]);
    expect(await index.ids()).toEqual(new Set(['fct_6']));
    expect(errors).toHaveLength(4);
  });

  it('persists across reopen, and resets when the dimension or the model changes', async () => {
    const path = freshPath();
    const first = await openIndex(path, DIM, { model: 'model-a' });
    await first.upsert([item('fct_1', 'fact', 'kept')]);
    await first.close();

    const same = await openIndex(path, DIM, { model: 'model-a' });
    expect(same.wasReset).toBe(false);
    expect(await same.ids()).toEqual(new Set(['fct_1']));
    await same.close();
    const noModel = await openIndex(path, DIM);
    expect(noModel.wasReset).toBe(false);
    expect(noModel.model).toBe('model-a');
    await noModel.reset(); // keeps the table's model
    await noModel.upsert([item('fct_1', 'fact', 'kept')]);
    await noModel.close();
    const stamped = await openIndex(path, DIM, { model: 'model-a' });
    expect(stamped.wasReset).toBe(false);
    await stamped.close();

    const otherModel = await openIndex(path, DIM, { model: 'model-b' });
    expect(otherModel.resetReason).toBe('model');
    expect(await otherModel.count()).toBe(0);
    await otherModel.upsert([item('fct_2', 'fact', 'b')]);
    await otherModel.close();

    const wider = await openIndex(path, 48, { model: 'model-b' });
    expect(wider.wasReset).toBe(true);
    expect(wider.resetReason).toBe('dimensions');
    expect(await wider.count()).toBe(0);
    await wider.upsert([{ id: 'fct_3', kind: 'fact', vector: hashVector('wide', 48) }]);
    expect((await wider.search(hashVector('wide', 48), { limit: 5 })).map((h) => h.id)).toEqual(['fct_3']);
    await wider.close();
    const again = await openIndex(path, 48, { model: 'model-b' });
    expect(again.wasReset).toBe(false);
    expect(await again.ids()).toEqual(new Set(['fct_3']));
    await expect(VectorIndex.open(freshPath(), 0)).rejects.toThrow(MemoryInputError);
  });

  it('reset empties the index; a closed index refuses work', async () => {
    const index = await openIndex();
    await index.upsert([item('fct_1', 'fact', 'a'), item('fct_2', 'fact', 'b')]);
    const searching = index.search(hashVector('a'), { limit: 5 });
    await index.reset();
    await searching; // a read racing a reset still answers (before or after it)
    expect(await index.count()).toBe(0);
    expect(await index.search(hashVector('a'), { limit: 5 })).toEqual([]);
    await index.upsert([item('fct_3', 'fact', 'c')]);
    expect(await index.ids()).toEqual(new Set(['fct_3']));
    await index.close();
    await index.close();
    await expect(index.upsert([item('fct_4', 'fact', 'd')])).rejects.toThrow(/closed/);
    await expect(index.search(hashVector('a'), { limit: 1 })).rejects.toThrow(/closed/);
  });

  it('keeps kinds apart in named tables of one directory, and moves an all-kinds table to its kinds on open', async () => {
    const path = freshPath();
    // as before the split: one table of every kind
    const mixed = await openIndex(path);
    await mixed.upsert([item('fct_1', 'fact', 'my manager is alice'), item('ent_1', 'entity', 'alice'), item('epi_1', 'episode', 'my manager is alice')]);
    await mixed.close();

    const facts = await openIndex(path, DIM, { table: 'items', kinds: ['fact'] });
    const others = await openIndex(path, DIM, { table: 'others', kinds: ['entity', 'episode'] });
    expect([...(await facts.ids())]).toEqual(['fct_1']); // the other kinds left the facts table on open
    expect(await others.count()).toBe(0);
    await others.upsert([item('ent_1', 'entity', 'alice'), item('epi_1', 'episode', 'my manager is alice')]);
    await expect(facts.upsert([item('ent_2', 'entity', 'bob')])).rejects.toThrow(/holds fact, not entity/);
    await expect(others.upsert([item('fct_2', 'fact', 'x')])).rejects.toThrow(/holds entity, episode, not fact/);
    const query = hashVector('my manager is alice');
    expect((await facts.search(query, { kind: 'fact', limit: 5 })).map((h) => h.id)).toEqual(['fct_1']);
    expect((await others.search(query, { kind: 'episode', limit: 5 })).map((h) => h.id)).toEqual(['epi_1']);
    expect((await others.search(query, { limit: 5 })).map((h) => h.id).sort()).toEqual(['ent_1', 'epi_1']);
    expect(await others.count('entity')).toBe(1);
    // each table resets alone
    await others.reset();
    expect(await others.count()).toBe(0);
    expect(await facts.count()).toBe(1);
    await expect(VectorIndex.open(path, DIM, { table: 'Bad-Name' })).rejects.toThrow(/table name/);
    await expect(VectorIndex.open(path, DIM, { kinds: [] })).rejects.toThrow(/at least one kind/);
  });

  it('builds an ANN index past annMinRows and still ranks the exact match first', async () => {
    const index = await openIndex(freshPath(), DIM, { annMinRows: 300 });
    const rows = Array.from({ length: 400 }, (_, i) => item(`${i % 4 === 0 ? 'ent' : 'fct'}_${i}`, i % 4 === 0 ? 'entity' : 'fact', `word${i} topic${i % 17} extra${i % 5}`));
    await index.upsert(rows.slice(0, 200));
    expect(index.annIndexed).toBe(false);
    await index.upsert(rows.slice(200));
    expect(index.annIndexed).toBe(true);
    const [hit] = await index.search(hashVector('word123 topic4 extra3'), { limit: 5 });
    expect(hit).toMatchObject({ id: 'fct_123', kind: 'fact' });
    // Through the ANN index the distance is the codes' estimate, near but not exactly 0.
    expect(hit!.distance).toBeLessThan(0.05);
    const entities = await index.search(hashVector('word120 topic1 extra0'), { limit: 5, kind: 'entity' });
    expect(entities[0]!.id).toBe('ent_120');
    expect(entities.every((h) => h.kind === 'entity')).toBe(true);
    // Rows written after the index was trained are found too (searched flat until compacted).
    await index.upsert([item('fct_new', 'fact', 'completely fresh sentence')]);
    expect((await index.search(hashVector('completely fresh sentence'), { limit: 1 }))[0]!.id).toBe('fct_new');
    await index.optimize();
    expect((await index.search(hashVector('completely fresh sentence'), { limit: 1 }))[0]!.id).toBe('fct_new');
  });

  it('tells once that the search runs on its own threads, before its hits, and finds the same hits', async () => {
    const index = await openIndex();
    await index.upsert(Array.from({ length: 200 }, (_, i) => item(`fct_${i}`, i % 5 === 0 ? 'entity' : 'fact', `word${i} topic${i % 7}`)));
    const query = hashVector('word42 topic0');
    for (const options of [{ limit: 10, kind: 'fact' as const }, { limit: 5, ids: ['fct_1', 'fct_2', 'fct_42'] }, { limit: 3, ids: Array.from({ length: 1_200 }, (_, i) => `fct_${i}`) }]) {
      const events: string[] = [];
      const told = await index.search(query, { ...options, onSearching: () => events.push('searching') }).then((hits) => (events.push('hits'), hits));
      expect(events).toEqual(['searching', 'hits']);
      expect(told).toEqual(await index.search(query, options));
      expect(told.length).toBeGreaterThan(0);
    }
    // The early first batch goes through LanceDB's own `nativeExecute` (what its toArrow calls; not
    // in its typings): an upgrade without it would fall back to toArrow and lose the overlap silently.
    const lancedb = await import('@lancedb/lancedb');
    expect(typeof (lancedb.VectorQuery.prototype as unknown as { nativeExecute?: unknown }).nativeExecute).toBe('function');
  });

  it('through the ANN index, the exact ten nearest of a query are among the thirty it finds', async () => {
    // Chat and search fuse the vector list by rank: what they need is the nearest near the top,
    // which the codes' estimated distances give without re-ranking by the exact vectors. LanceDB
    // trains the index with its own unseeded randomness, so the bounds are rates over 20 queries:
    // measured over 45 trainings, at most 1 of the 200 nearest fell outside the thirty and 0.845 …
    // 0.91 were in the first ten; with 3-bit codes 0.80 … 0.83, with 2-bit 2 … 7 outside and 0.64.
    const dimensions = 96;
    const random = prng(7);
    const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
    const centres = Array.from({ length: 40 }, () => Array.from({ length: dimensions }, gauss));
    const unit = (v: number[]) => Float32Array.from(v, (x) => x / Math.hypot(...v));
    const near = () => unit(centres[Math.floor(random() * centres.length)]!.map((c) => c + 0.9 * gauss()));
    const rows = Array.from({ length: 3_000 }, (_, i) => ({ id: `fct_${i}`, kind: 'fact' as const, vector: near() }));
    const index = await openIndex(freshPath(), dimensions, { annMinRows: 1_000 });
    await index.upsert(rows);
    expect(index.annIndexed).toBe(true);
    const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
    const outside: string[] = [];
    let inFirstTen = 0;
    for (let q = 0; q < 20; q++) {
      const query = near();
      const exact = [...rows].sort((a, b) => cosine(b.vector, query) - cosine(a.vector, query)).slice(0, 10).map((r) => r.id);
      const hits = (await index.search(query, { limit: 30, kind: 'fact' })).map((h) => h.id);
      outside.push(...exact.filter((id) => !hits.includes(id)));
      inFirstTen += exact.filter((id) => hits.slice(0, 10).includes(id)).length;
    }
    expect(outside.length, `nearest outside the thirty: ${outside.join(', ')}`).toBeLessThanOrEqual(2);
    expect(inFirstTen / 200).toBeGreaterThanOrEqual(0.8);
  });
});

class ListSource {
  constructor(public items: VectorSourceItem[]) {}
  liveItems(): Iterable<VectorSourceItem> {
    return this.items;
  }
}

function sourceOf(count: number): ListSource {
  return new ListSource(
    Array.from({ length: count }, (_, i) => {
      const kind: VectorKind = i % 5 === 0 ? 'entity' : i % 7 === 0 ? 'episode' : 'fact';
      return { id: `${kind.slice(0, 3)}_${i}`, kind, text: `item number ${i} about topic ${i % 3}` };
    }),
  );
}

describe('vector sync', () => {
  it('reconcile embeds what is missing, removes orphans, and is idempotent', async () => {
    const index = await openIndex();
    const source = sourceOf(25);
    const embedder = fakeEmbedder();
    // Already indexed: one live item (with its hash), one orphan (gone from SQLite).
    await indexItems(index, embedder, [source.items[0]!]);
    await index.upsert([item('fct_forgotten', 'fact', 'forgotten')]);
    embedder.calls.length = 0;

    const progress: [number, number][] = [];
    const first = await reconcile(index, source, embedder, { batchSize: 10, onProgress: (done, total) => progress.push([done, total]) });
    expect(first).toEqual({ added: 24, updated: 0, removed: 1, total: 25, skipped: 0 });
    expect(embedder.calls.map((c) => c.length)).toEqual([10, 10, 4]);
    expect(progress).toEqual([
      [10, 24],
      [20, 24],
      [24, 24],
    ]);
    expect(await index.ids()).toEqual(new Set(source.items.map((i) => i.id)));
    expect(await index.ids('entity')).toEqual(new Set(source.items.filter((i) => i.kind === 'entity').map((i) => i.id)));

    embedder.calls.length = 0;
    const second = await reconcile(index, source, embedder, { batchSize: 10 });
    expect(second).toEqual({ added: 0, updated: 0, removed: 0, total: 25, skipped: 0 });
    expect(embedder.calls).toEqual([]);

    // The search finds what reconcile embedded.
    const target = source.items[7]!;
    expect((await index.search(hashVector(target.text), { limit: 1 }))[0]!.id).toBe(target.id);
  });

  it('reconcile re-embeds items whose text changed, and drops what the source no longer has', async () => {
    const index = await openIndex();
    const source = sourceOf(12);
    const embedder = fakeEmbedder();
    await reconcile(index, source, embedder);
    const entity = source.items[5]!;
    expect(entity.kind).toBe('entity');
    entity.text = 'a brand new summary of this entity';
    source.items.splice(1, 2);
    embedder.calls.length = 0;
    expect(await reconcile(index, source, embedder)).toEqual({ added: 0, updated: 1, removed: 2, total: 10, skipped: 0 });
    expect(embedder.calls).toEqual([[entity.text]]);
    expect((await index.search(hashVector(entity.text), { limit: 1 }))[0]!.id).toBe(entity.id);
    expect((await index.hashes()).get(entity.id)).toBe(textHash('entity', entity.text));
  });

  it('a bulk reconcile compacts and builds the ANN index once, at the end, and finds what it embedded', async () => {
    const index = await openIndex(freshPath(), DIM, { annMinRows: 300 });
    const source = sourceOf(1_200);
    const embedder = fakeEmbedder();
    expect(await reconcile(index, source, embedder, { batchSize: 64 })).toMatchObject({ added: 1_200, total: 1_200 });
    expect(index.annIndexed).toBe(true);
    expect(await index.count()).toBe(1_200);
    expect(await index.ids()).toEqual(new Set(source.items.map((i) => i.id)));
    // An approximate index: the exact item is among the nearest few.
    const target = source.items[777]!;
    expect((await index.search(hashVector(target.text), { limit: 10, kind: target.kind })).map((h) => h.id)).toContain(target.id);
  });

  it('reconcile appends what was never stored and merges only what changed: one row per id', async () => {
    // New items are appended (a merge on id reads the whole table: embedding a large memory the
    // first time grew with the square of its size); a changed one is merged in place.
    const index = await openIndex();
    const source = sourceOf(30);
    const embedder = fakeEmbedder();
    await reconcile(index, new ListSource(source.items.slice(0, 20)), embedder, { batchSize: 7 });
    source.items[3]!.text = 'changed text for item three';
    const result = await reconcile(index, source, embedder, { batchSize: 7 });
    expect(result).toMatchObject({ added: 10, updated: 1, removed: 0, total: 30 });
    const ids = await index.ids();
    expect(ids).toEqual(new Set(source.items.map((i) => i.id)));
    expect(await index.count()).toBe(30);
    expect((await index.hashes()).get(source.items[3]!.id)).toBe(textHash(source.items[3]!.kind, 'changed text for item three'));
  });

  it('an abort stops reconcile between batches, keeps the batches done, and the next run finishes', async () => {
    const index = await openIndex();
    const source = sourceOf(50);
    const embedder = fakeEmbedder();
    const controller = new AbortController();
    embedder.during = (call) => {
      if (call === 2) controller.abort();
    };
    await expect(reconcile(index, source, embedder, { batchSize: 8, signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(embedder.calls).toHaveLength(2);
    expect(await index.count()).toBe(16);

    embedder.during = undefined;
    embedder.calls.length = 0;
    expect(await reconcile(index, source, embedder, { batchSize: 8 })).toEqual({ added: 34, updated: 0, removed: 0, total: 50, skipped: 0 });
    expect(embedder.calls.flat()).toHaveLength(34);

    const aborted = new AbortController();
    aborted.abort();
    await expect(reconcile(index, source, embedder, { signal: aborted.signal })).rejects.toThrow(/abort/i);
  });

  it('rebuild drops everything and embeds every live item again', async () => {
    const index = await openIndex();
    const source = sourceOf(15);
    const embedder = fakeEmbedder();
    await reconcile(index, source, embedder);
    await index.upsert([item('fct_orphan', 'fact', 'orphan')]);
    embedder.calls.length = 0;
    expect(await rebuild(index, source, embedder, { batchSize: 4 })).toEqual({ added: 15, updated: 0, removed: 0, total: 15, skipped: 0 });
    expect(embedder.calls.flat()).toHaveLength(15);
    expect(await index.ids()).toEqual(new Set(source.items.map((i) => i.id)));
  });

  it('refuses an embedder of another dimension, an unloaded one, and a wrong number of vectors', async () => {
    const index = await openIndex();
    const source = sourceOf(3);
    await expect(reconcile(index, source, fakeEmbedder(16))).rejects.toThrow(/16-dimension .* 32/);
    await expect(reconcile(index, source, { dimensions: 0, embed: async () => [] })).rejects.toThrow(/no embedding model/);
    const short: TextEmbedder = { dimensions: DIM, embed: async (texts) => texts.slice(1).map((t) => hashVector(t)) };
    await expect(reconcile(index, source, short)).rejects.toThrow(/returned 2 vectors for 3 texts/);
    const narrow: TextEmbedder = { dimensions: DIM, embed: async (texts) => texts.map(() => new Float32Array(DIM - 1)) };
    await expect(reconcile(index, source, narrow)).rejects.toThrow(/31 floats, not 32/);
    expect(await index.count()).toBe(0);
  });

  it('skips an item whose embedding is not finite, stores the others, and tries it again next time', async () => {
    const index = await openIndex();
    const source = sourceOf(4);
    const bad = source.items[2]!.text;
    const embedder: TextEmbedder = {
      dimensions: DIM,
      embed: async (texts) => texts.map((t) => (t === bad ? new Float32Array(DIM).fill(Number.NaN) : hashVector(t))),
    };
    expect(await reconcile(index, source, embedder)).toEqual({ added: 4, updated: 0, removed: 0, total: 4, skipped: 1 });
    expect(await index.count()).toBe(3);
    expect(await reconcile(index, source, fakeEmbedder())).toEqual({ added: 1, updated: 0, removed: 0, total: 4, skipped: 0 });
    expect(await index.count()).toBe(4);
  });
});
