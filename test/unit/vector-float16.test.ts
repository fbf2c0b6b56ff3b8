/**
 * Vectors stored in float16 (electron/memory/vectors/half-float.ts, vector-table.ts layout 2), and
 * a vector directory written before them (float32, layout 1: test/fixtures/float32-vectors, made by
 * the code of c8472ed) opened, rewritten in float16 on open and searched — real LanceDB.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromHalf, halfBits, halfValue, toHalf } from '../../electron/memory/vectors/half-float';
import { VectorIndex } from '../../electron/memory/vectors/vector-index';
import { loadLanceDb, META_LAYOUT } from '../../electron/memory/vectors/vector-table';

const DIM = 32;
const FIXTURE = join(__dirname, '../fixtures/float32-vectors');

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The fixture's vectors: each word adds ±1 to one bucket, L2-normalised. */
function hashVector(text: string): Float32Array {
  const v = new Float32Array(DIM);
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    const h = fnv1a(word);
    v[h % DIM]! += h & 0x8000_0000 ? -1 : 1;
  }
  if (v.every((x) => x === 0)) v[0] = 1;
  const norm = Math.hypot(...v);
  for (let i = 0; i < DIM; i++) v[i]! /= norm;
  return v;
}

const factText = (i: number) => `fact number ${i} about topic${i % 7} and colour${i % 5}`;

/** The vector column's element type and the layout stamp of a stored table. */
async function storedForm(dir: string, table: string): Promise<{ element: string; layout: string | undefined; vectors: number[][] }> {
  const db = await (await loadLanceDb()).connect(dir);
  try {
    const t = await db.openTable(table);
    const schema = await t.schema();
    const vector = schema.fields.find((f) => f.name === 'vector')!;
    const rows = await t.query().select(['vector']).limit(1).toArray();
    t.close();
    return { element: String((vector.type as { children: { type: unknown }[] }).children[0]!.type), layout: schema.metadata.get(META_LAYOUT), vectors: rows.map((r) => Array.from((r.vector as { toArray(): ArrayLike<number> }).toArray())) };
  } finally {
    db.close();
  }
}

let root: string;
beforeAll(() => {
  process.env.LANCEDB_LOG ??= 'error';
  root = mkdtempSync(join(tmpdir(), 'tempora-float16-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('float16 values', () => {
  it('round-trips every float16 value, rounds to the nearest (ties to even) and saturates', () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      const value = halfValue(bits);
      if (Number.isNaN(value)) expect(halfBits(value) & 0x7c00).toBe(0x7c00);
      else expect(halfBits(value)).toBe(bits);
    }
    expect(halfValue(halfBits(1 + 2 ** -11))).toBe(1); // a tie between 1 and 1 + 2⁻¹⁰: the even one
    expect(halfValue(halfBits(1 + 3 * 2 ** -11))).toBe(1 + 2 ** -9); // a tie, rounded up to the even one
    expect(halfValue(halfBits(65504))).toBe(65504); // the largest
    expect(halfValue(halfBits(65520))).toBe(Number.POSITIVE_INFINITY); // just past it
    expect(halfValue(halfBits(2 ** -24))).toBe(2 ** -24); // the smallest subnormal
    expect(halfValue(halfBits(2 ** -26))).toBe(0); // below half of it
  });

  it('keeps a unit vector within 0.0005 per value and its cosine with itself within 1e-6', () => {
    const v = hashVector('my manager is alice since september');
    const back = fromHalf(toHalf(v));
    let dot = 0;
    v.forEach((x, i) => {
      expect(Math.abs(back[i]! - x)).toBeLessThanOrEqual(0.0005);
      dot += x * back[i]!;
    });
    expect(1 - dot / Math.hypot(...back)).toBeLessThan(1e-6);
  });
});

describe('float16 vector tables', () => {
  it('a new table stores float16 and finds the exact vector at distance 0', async () => {
    const dir = join(root, 'fresh');
    const index = await VectorIndex.open(dir, DIM, { table: 'items', kinds: ['fact'] });
    const texts = Array.from({ length: 20 }, (_, i) => factText(i));
    await index.upsert(texts.map((t, i) => ({ id: `fct_${i}`, kind: 'fact' as const, vector: hashVector(t), hash: `h${i}` })));
    const [hit] = await index.search(hashVector(factText(12)), { limit: 3 });
    expect(hit).toMatchObject({ id: 'fct_12', kind: 'fact' });
    expect(hit!.distance).toBeCloseTo(0, 5);
    await index.close();
    const form = await storedForm(dir, 'items');
    expect(form.element).toBe('Float16');
    expect(form.layout).toBe('2');
    // stored as the float16 bits of the vector
    expect(texts.map((t) => [...toHalf(hashVector(t))])).toContainEqual(form.vectors[0]);
  });

  it('a float32 table written by the code before float16 opens, is rewritten in float16, keeps rows, hashes and stamp, and answers the same', async () => {
    const dir = join(root, 'old');
    cpSync(FIXTURE, dir, { recursive: true });
    expect((await storedForm(dir, 'items')).element).toBe('Float32');
    const errors: unknown[] = [];
    const facts = await VectorIndex.open(dir, DIM, { table: 'items', kinds: ['fact'], model: 'fixture-model', onError: (e) => errors.push(e) });
    expect(facts.wasReset).toBe(false);
    expect(facts.created).toBe(false);
    expect(facts.migrated?.rows).toBe(59); // 60 written, fct_59 deleted
    const hashes = await facts.hashes();
    expect(hashes.size).toBe(59);
    expect(hashes.get('fct_7')).toBe('h7');
    expect(hashes.has('fct_59')).toBe(false);
    const hits = await facts.search(hashVector(factText(12)), { limit: 3 });
    expect(hits[0]).toMatchObject({ id: 'fct_12', kind: 'fact' });
    expect(hits[0]!.distance).toBeCloseTo(0, 5);
    // written and deleted like any table
    await facts.upsert([{ id: 'fct_new', kind: 'fact', vector: hashVector('a fresh sentence'), hash: 'n' }]);
    await facts.delete(['fct_12']);
    expect((await facts.search(hashVector('a fresh sentence'), { limit: 1 }))[0]!.id).toBe('fct_new');
    expect((await facts.search(hashVector(factText(12)), { limit: 1 }))[0]!.id).not.toBe('fct_12');
    await facts.close();
    expect(errors).toEqual([]);
    // the stamp that vouches for the table is back, so the next sync reads only what changed
    expect(JSON.parse(readFileSync(join(dir, 'items.sync.json'), 'utf8'))).toEqual({ generation: 'fixture-generation' });
    const form = await storedForm(dir, 'items');
    expect(form).toMatchObject({ element: 'Float16', layout: '2' });

    const others = await VectorIndex.open(dir, DIM, { table: 'others', kinds: ['entity', 'episode'], model: 'fixture-model' });
    expect(others.migrated?.rows).toBe(2);
    expect((await others.search(hashVector('my manager is alice'), { limit: 1, kind: 'episode' }))[0]!.id).toBe('epi_1');
    await others.close();

    // opened again: nothing left to rewrite
    const again = await VectorIndex.open(dir, DIM, { table: 'items', kinds: ['fact'], model: 'fixture-model' });
    expect(again.migrated).toBeNull();
    expect(await again.count()).toBe(59);
    await again.close();
  });
});
