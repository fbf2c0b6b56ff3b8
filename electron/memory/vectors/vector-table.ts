/**
 * The stored form of the vector tables (vector-index.ts): the kinds, the Arrow schema with its
 * layout and model stamps, the check that a stored table still fits, rows to Arrow, and the two
 * libraries (LanceDB and its apache-arrow), loaded on first use.
 *
 * Layout 2 stores each vector in float16 (half-float.ts): half the bytes of layout 1's float32,
 * with the same nearest neighbours. A layout-1 table is still read and written as it is, and
 * vector-migration.ts rewrites it in float16 when it is opened.
 */
import { createRequire } from 'node:module';
import { MemoryInputError } from '../memory-errors';
import { toHalf } from './half-float';

export type LanceDb = typeof import('@lancedb/lancedb');

let lanceDb: Promise<LanceDb> | undefined;

/**
 * LanceDB, loaded when the first index opens: importing memory must not load its native addon
 * (the quick `tempora` commands never open a vector index).
 */
export function loadLanceDb(): Promise<LanceDb> {
  return (lanceDb ??= import('@lancedb/lancedb'));
}

let arrowLib: typeof import('apache-arrow') | undefined;

/**
 * apache-arrow as LanceDB itself loads it (its CommonJS build, resolved from LanceDB's package),
 * on first use. An ESM `import` of apache-arrow would be a second copy of the library, and LanceDB
 * does not reliably convert nested Arrow data (the vector column) between copies.
 */
export function arrow(): typeof import('apache-arrow') {
  return (arrowLib ??= createRequire(createRequire(import.meta.url).resolve('@lancedb/lancedb'))('apache-arrow') as typeof import('apache-arrow'));
}

export type VectorKind = 'fact' | 'entity' | 'episode';
export const VECTOR_KINDS: readonly VectorKind[] = ['fact', 'entity', 'episode'];

export type VectorResetReason = 'dimensions' | 'model' | 'layout' | 'unreadable';

export const VECTOR_TABLE = 'items';
/**
 * Bump when the table's columns change: older tables are then reset (and rebuilt by reconcile),
 * except layout 1 (float32 vectors), which is migrated (vector-migration.ts).
 */
export const VECTOR_LAYOUT_VERSION = '2';
/** The layout before float16: the same columns with float32 vectors. */
export const FLOAT32_LAYOUT_VERSION = '1';
export const META_LAYOUT = 'tempora.vectors.layout';
export const META_MODEL = 'tempora.vectors.model';

/** A SQL string literal (DataFusion: quotes doubled; backslashes are ordinary characters). */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export function isKind(value: unknown): value is VectorKind {
  return value === 'fact' || value === 'entity' || value === 'episode';
}

export function kindList(kind: VectorKind | readonly VectorKind[] | undefined, where: string): VectorKind[] | null {
  if (kind === undefined) return null;
  const kinds = typeof kind === 'string' ? [kind] : [...kind];
  for (const k of kinds) if (!isKind(k)) throw new MemoryInputError(`unknown vector kind ${JSON.stringify(k)} (fact, entity or episode)`, where);
  return kinds;
}

export function kindPredicate(kinds: VectorKind[] | null): string | null {
  if (!kinds) return null;
  if (kinds.length === 0) return 'false';
  return kinds.length === 1 ? `kind = ${sqlString(kinds[0]!)}` : `kind IN (${kinds.map(sqlString).join(', ')})`;
}

export function schemaFor(dimensions: number, model: string): import('apache-arrow').Schema {
  const { Field, FixedSizeList, Float16, Schema, Utf8 } = arrow();
  return new Schema(
    [
      new Field('id', new Utf8(), false),
      new Field('kind', new Utf8(), false),
      new Field('hash', new Utf8(), false),
      new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float16(), true)), false),
    ],
    new Map([
      [META_LAYOUT, VECTOR_LAYOUT_VERSION],
      [META_MODEL, model],
    ]),
  );
}

/** How a table stores its vectors: 'half' (float16, layout 2), 'single' (float32, layout 1, to migrate), or null (neither). */
export function vectorPrecision(schema: import('apache-arrow').Schema): 'half' | 'single' | null {
  const { DataType, Precision } = arrow();
  const field = (name: string) => schema.fields.find((f) => f.name === name);
  const vector = field('vector');
  const element = (vector?.type as { children?: { type: { typeId: number; precision?: number } }[] } | undefined)?.children?.[0]?.type;
  const columnsOk = ['id', 'kind', 'hash'].every((name) => DataType.isUtf8(field(name)?.type)) && vector !== undefined && DataType.isFixedSizeList(vector.type) && DataType.isFloat(element);
  if (!columnsOk) return null;
  const layout = schema.metadata.get(META_LAYOUT);
  if (layout === VECTOR_LAYOUT_VERSION && element?.precision === Precision.HALF) return 'half';
  if (layout === FLOAT32_LAYOUT_VERSION && element?.precision === Precision.SINGLE) return 'single';
  return null;
}

/** Why a stored table cannot be used for (dimensions, model); null when it can (in either precision). */
export function mismatch(schema: import('apache-arrow').Schema, dimensions: number, model: string | undefined): VectorResetReason | null {
  const vectorType = schema.fields.find((f) => f.name === 'vector')?.type as { listSize?: number } | undefined;
  if (vectorPrecision(schema) === null) return 'layout';
  if (vectorType?.listSize !== dimensions) return 'dimensions';
  if (model !== undefined && (schema.metadata.get(META_MODEL) ?? '') !== model) return 'model';
  return null;
}

/** One Arrow table of rows (deduplicated by the caller), its vectors in the precision `schema` stores. */
export function toArrow(rows: readonly { id: string; kind: VectorKind; hash: string; vector: Float32Array | readonly number[] }[], schema: import('apache-arrow').Schema, dimensions: number) {
  const flat = new Float32Array(rows.length * dimensions);
  rows.forEach((row, i) => flat.set(row.vector, i * dimensions));
  return columnsToArrow(
    rows.map((r) => r.id),
    rows.map((r) => r.kind),
    rows.map((r) => r.hash),
    flat,
    schema,
    dimensions,
  );
}

/** One Arrow table of `ids.length` rows whose vectors lie one after another in `flat` (float32). */
export function columnsToArrow(ids: string[], kinds: string[], hashes: string[], flat: Float32Array, schema: import('apache-arrow').Schema, dimensions: number) {
  const { Float16, Float32, RecordBatch, Struct, Table, Utf8, makeData, vectorFromArray } = arrow();
  const n = ids.length;
  const column = (values: string[]) => vectorFromArray(values, new Utf8()).data[0]!;
  const vectorType = schema.fields[3]!.type as import('apache-arrow').FixedSizeList;
  const child =
    vectorPrecision(schema) === 'single'
      ? makeData({ type: new Float32(), length: n * dimensions, data: flat.subarray(0, n * dimensions) })
      : makeData({ type: new Float16(), length: n * dimensions, data: toHalf(flat, 0, n * dimensions) });
  const vectors = makeData({ type: vectorType, length: n, nullCount: 0, child });
  const struct = makeData({
    type: new Struct(schema.fields),
    length: n,
    nullCount: 0,
    children: [column(ids), column(kinds), column(hashes), vectors],
  });
  return new Table(schema, [new RecordBatch(schema, struct)]);
}
