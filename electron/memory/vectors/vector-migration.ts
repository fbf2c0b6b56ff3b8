/**
 * A table written before vectors were stored in float16 (layout 1, float32 vectors), rewritten in
 * the current layout when it is opened (vector-index.ts), with no embedding model and no re-embedding:
 * its rows are read from the version found on open and written back, batch by batch, as a new
 * version of the same table (the first batch overwrites, the rest append). LanceDB cannot rename a
 * table, so the rewrite happens in place; the old version's files go with the next clean-up of old
 * versions (ann-index.ts), and its indexes are built again by the next maintenance.
 *
 * The sync stamp beside the table (sync-stamp.ts) is taken away while the rows are rewritten and put
 * back after: if the process stops halfway, the table holds only part of its rows, and the missing
 * stamp makes the next sync read everything (vector-table-sync.ts) and embed what is missing.
 */
import type * as lancedb from '@lancedb/lancedb';
import { readStamp, removeStamp, writeStamp } from './sync-stamp';
import { columnsToArrow } from './vector-table';

/** Rows per write of the rewritten table. */
const WRITE_ROWS = 65_536;

/** What a migration did, for the index's owner to tell. */
export interface VectorMigration {
  rows: number;
  ms: number;
}

/** The float32 values of a FixedSizeList<float32> column of one record batch, row after row. */
function flatVectors(column: import('apache-arrow').Vector, dimensions: number): Float32Array {
  const out = new Float32Array(column.length * dimensions);
  let at = 0;
  for (const data of column.data) {
    const values = data.children[0]!;
    const start = (data.offset + values.offset) * dimensions;
    // Arrow's own offsets: the list's rows start at `data.offset`, the values at `values.offset`.
    out.set((values.values as Float32Array).subarray(start, start + data.length * dimensions), at);
    at += data.length * dimensions;
  }
  return out;
}

/**
 * Rewrites `table` (named `name` in `db` at `path`) in `schema`'s layout and returns what it did.
 * The caller holds the table alone (it is being opened).
 */
export async function migrateVectorTable(
  db: lancedb.Connection,
  table: lancedb.Table,
  path: string,
  name: string,
  schema: import('apache-arrow').Schema,
  dimensions: number,
): Promise<VectorMigration> {
  const started = performance.now();
  const stamp = readStamp(path, name);
  removeStamp(path, name);
  const before = await db.openTable(name);
  let rows = 0;
  let ids: string[] = [];
  let kinds: string[] = [];
  let hashes: string[] = [];
  let vectors: Float32Array[] = [];
  // Rows gathered into writes of WRITE_ROWS: each write is a version and a fragment of its own.
  const write = async () => {
    const flat = new Float32Array(ids.length * dimensions);
    let at = 0;
    for (const part of vectors) {
      flat.set(part, at);
      at += part.length;
    }
    await table.add(columnsToArrow(ids, kinds, hashes, flat, schema, dimensions), { mode: rows === 0 ? 'overwrite' : 'append' });
    rows += ids.length;
    ids = [];
    kinds = [];
    hashes = [];
    vectors = [];
  };
  try {
    await before.checkout(await table.version());
    for await (const batch of before.query().select(['id', 'kind', 'hash', 'vector'])) {
      for (const [column, into] of [['id', ids], ['kind', kinds], ['hash', hashes]] as const) {
        for (const value of batch.getChild(column)!.toArray() as string[]) into.push(value);
      }
      vectors.push(flatVectors(batch.getChild('vector')!, dimensions));
      if (ids.length >= WRITE_ROWS) await write();
    }
    if (ids.length > 0 || rows === 0) await write(); // the rest; an empty table is overwritten empty
  } finally {
    before.close();
  }
  if (stamp !== null) writeStamp(path, name, stamp);
  return { rows, ms: performance.now() - started };
}
