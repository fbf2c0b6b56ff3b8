/**
 * Rows as callers hand them to the vector index (vector-index.ts), and the checks they pass before
 * anything is written: a non-empty id, a kind the table holds, and a vector of the index's length
 * made of finite floats. A later row with the same id replaces an earlier one.
 */
import { MemoryInputError } from '../memory-errors';
import { isKind, type VectorKind } from './vector-table';

export interface VectorRow {
  id: string;
  kind: VectorKind;
  vector: Float32Array | readonly number[];
  /** Hash of the text the vector was made from (vector-sync's `textHash`); '' or absent = unknown. */
  hash?: string;
}

/** A checked row, as it is written (vector-table.ts `toArrow`). */
export interface StoredRow {
  id: string;
  kind: VectorKind;
  hash: string;
  vector: Float32Array | readonly number[];
}

/** Throws a MemoryInputError (at `where`) unless `vector` holds `dimensions` finite numbers. */
export function checkVector(vector: Float32Array | readonly number[], dimensions: number, where: string): void {
  if (!vector || typeof vector.length !== 'number') throw new MemoryInputError('a vector must be a Float32Array or an array of numbers', where);
  if (vector.length !== dimensions) {
    throw new MemoryInputError(`a vector of ${vector.length} floats does not fit this index of ${dimensions} dimensions`, where);
  }
  for (let i = 0; i < vector.length; i++) {
    if (!Number.isFinite(vector[i])) throw new MemoryInputError(`vector value ${i} is not a finite number`, where);
  }
}

/**
 * The rows to write, one per id (the last occurrence, in its position), or a MemoryInputError for
 * the first bad one: then nothing is written.
 */
export function validRows(items: readonly VectorRow[], dimensions: number, kinds: readonly VectorKind[]): StoredRow[] {
  const byId = new Map<string, StoredRow>();
  items.forEach((item, i) => {
    if (typeof item.id !== 'string' || item.id.length === 0) throw new MemoryInputError('a vector row needs a non-empty string id', `items.${i}.id`);
    if (!isKind(item.kind)) throw new MemoryInputError(`unknown vector kind ${JSON.stringify(item.kind)} (fact, entity or episode)`, `items.${i}.kind`);
    if (!kinds.includes(item.kind)) throw new MemoryInputError(`this vector table holds ${kinds.join(', ')}, not ${item.kind}`, `items.${i}.kind`);
    checkVector(item.vector, dimensions, `items.${i}.vector`);
    byId.delete(item.id); // keep the last occurrence, in its position
    byId.set(item.id, { id: item.id, kind: item.kind, hash: item.hash ?? '', vector: item.vector });
  });
  return [...byId.values()];
}

/** `items` in slices of at most `size` (rows per merge, ids per `IN (...)` list). */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
