/**
 * The stored form of the vector tables (vector-index.ts): the kinds, the Arrow schema with its
 * layout and model stamps, the check that a stored table still fits, rows to Arrow, and the two
 * libraries (LanceDB and its apache-arrow), loaded on first use.
 */
import { createRequire } from 'node:module';
import { MemoryInputError } from '../memory-errors';

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
/** Bump when the table's columns change: older tables are then reset (and rebuilt by reconcile). */
export const VECTOR_LAYOUT_VERSION = '1';
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
  const { Field, FixedSizeList, Float32, Schema, Utf8 } = arrow();
  return new Schema(
    [
      new Field('id', new Utf8(), false),
      new Field('kind', new Utf8(), false),
      new Field('hash', new Utf8(), false),
      new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
    ],
    new Map([
      [META_LAYOUT, VECTOR_LAYOUT_VERSION],
      [META_MODEL, model],
    ]),
  );
}

/** Why a stored table cannot be used for (dimensions, model); null when it can. */
export function mismatch(schema: import('apache-arrow').Schema, dimensions: number, model: string | undefined): VectorResetReason | null {
  const { DataType, Precision } = arrow();
  const field = (name: string) => schema.fields.find((f) => f.name === name);
  const vector = field('vector');
  const vectorType = vector?.type as { listSize?: number; children?: { type: { typeId: number; precision?: number } }[] } | undefined;
  const layoutOk =
    schema.metadata.get(META_LAYOUT) === VECTOR_LAYOUT_VERSION &&
    ['id', 'kind', 'hash'].every((name) => DataType.isUtf8(field(name)?.type)) &&
    vector !== undefined &&
    DataType.isFixedSizeList(vector.type) &&
    DataType.isFloat(vectorType?.children?.[0]?.type) &&
    vectorType?.children?.[0]?.type.precision === Precision.SINGLE;
  if (!layoutOk) return 'layout';
  if (vectorType?.listSize !== dimensions) return 'dimensions';
  if (model !== undefined && (schema.metadata.get(META_MODEL) ?? '') !== model) return 'model';
  return null;
}

/** One Arrow table of rows (deduplicated by the caller), built over a single Float32 buffer. */
export function toArrow(rows: readonly { id: string; kind: VectorKind; hash: string; vector: Float32Array | readonly number[] }[], schema: import('apache-arrow').Schema, dimensions: number) {
  const { Float32, RecordBatch, Struct, Table, Utf8, makeData, vectorFromArray } = arrow();
  const n = rows.length;
  const flat = new Float32Array(n * dimensions);
  rows.forEach((row, i) => flat.set(row.vector, i * dimensions));
  const column = (values: string[]) => vectorFromArray(values, new Utf8()).data[0]!;
  const vectorType = schema.fields[3]!.type as import('apache-arrow').FixedSizeList<import('apache-arrow').Float32>;
  const child = makeData({ type: new Float32(), length: n * dimensions, data: flat });
  const vectors = makeData({ type: vectorType, length: n, nullCount: 0, child });
  const struct = makeData({
    type: new Struct(schema.fields),
    length: n,
    nullCount: 0,
    children: [column(rows.map((r) => r.id)), column(rows.map((r) => r.kind)), column(rows.map((r) => r.hash)), vectors],
  });
  return new Table(schema, [new RecordBatch(schema, struct)]);
}
