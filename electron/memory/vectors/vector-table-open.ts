/**
 * Opening a stored vector table for use (vector-index.ts): one whose vector length, embedding model
 * or layout no longer fits, or that cannot be read, is dropped and made again empty, never mixed; a
 * float32 table is rewritten in float16 (vector-migration.ts; if that fails it is used as it is);
 * rows of kinds the table no longer holds are removed. The connection is closed again on failure.
 */
import type * as lancedb from '@lancedb/lancedb';
import { mkdirSync } from 'node:fs';
import { migrateVectorTable, type VectorMigration } from './vector-migration';
import { kindPredicate, loadLanceDb, type LanceDb, META_MODEL, mismatch, schemaFor, VECTOR_KINDS, vectorPrecision, type VectorKind, type VectorResetReason } from './vector-table';

export interface OpenedTable {
  lance: LanceDb;
  db: lancedb.Connection;
  table: lancedb.Table;
  /** The embedding model the table is stamped with: the one given, else the stored one. */
  model: string | undefined;
  /** Why a stored table was dropped, or null. */
  reason: VectorResetReason | null;
  /** Set when a float32 table was rewritten in float16. */
  migrated: VectorMigration | null;
  /** True when no usable table was stored: this one is new and empty. */
  created: boolean;
}

export async function openStoredTable(
  path: string,
  name: string,
  dimensions: number,
  options: { model?: string; kinds: VectorKind[] | null; onError?: (error: unknown) => void },
): Promise<OpenedTable> {
  mkdirSync(path, { recursive: true });
  const lance = await loadLanceDb();
  const db = await lance.connect(path);
  try {
    let table: lancedb.Table | null = null;
    let reason: VectorResetReason | null = null;
    let migrated: VectorMigration | null = null;
    let model = options.model;
    if ((await db.tableNames()).includes(name)) {
      try {
        table = await db.openTable(name);
        const schema = await table.schema();
        reason = mismatch(schema, dimensions, options.model);
        // Opened without a model: keep the one the table was built with (also across reset()).
        model ??= schema.metadata.get(META_MODEL) || undefined;
        if (reason === null) await table.countRows();
      } catch {
        reason = 'unreadable';
      }
      if (reason !== null) {
        table?.close();
        table = null;
        await db.dropTable(name).catch(() => undefined);
      }
    }
    if (table && vectorPrecision(await table.schema()) === 'single') {
      try {
        migrated = await migrateVectorTable(db, table, path, name, schemaFor(dimensions, model ?? ''), dimensions);
      } catch (error) {
        // Still usable in float32 (written in the form it has); the next open tries again.
        options.onError?.(new Error(`the vector table ${name} could not be rewritten in float16: ${(error as Error).message}`));
      }
    }
    // A table kept from when it held every kind: what is not ours goes now.
    const kinds = options.kinds;
    if (table && kinds && kinds.length < VECTOR_KINDS.length && (await table.countRows(`NOT (${kindPredicate(kinds)})`)) > 0) {
      await table.delete(`NOT (${kindPredicate(kinds)})`);
    }
    const created = table === null;
    table ??= await db.createEmptyTable(name, schemaFor(dimensions, model ?? ''), { mode: 'overwrite' });
    return { lance, db, table, model, reason, migrated, created };
  } catch (error) {
    db.close();
    throw error;
  }
}
