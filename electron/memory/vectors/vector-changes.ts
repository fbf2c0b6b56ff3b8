/**
 * What changed for the vector index since its last sync, as SQLite records it (migration
 * 0020_vector_changes), so a start-up reads the changes instead of every item:
 *
 * - `vector_changes`, an outbox: triggers on facts, entities (and their aliases) and episodes append
 *   the id of every item whose embedded text or liveness changed, in the same transaction as the
 *   change itself — whoever wrote it (the app, the CLI, a session without an embedding model). A
 *   sync drains the rows it has read (up to a sequence number) only after LanceDB holds its writes,
 *   so a crash in between leaves them there and the next sync does them again (idempotent: stored
 *   hashes tell what is already embedded). Rows are appended, never replaced: a change made while
 *   a sync runs gets a later sequence number and survives that sync's drain.
 * - `vector_sync`, one row per LanceDB table: the generation last synced (also stamped beside the
 *   table: sync-stamp.ts), the database's schema version then, the text recipe and the model. When
 *   any no longer matches, the outbox cannot be trusted and the full reconcile runs instead.
 *   The triggers record only once some table has a row here: a memory that never had a vector
 *   index keeps no outbox (its first sync reads everything anyway).
 *
 * PRAGMA schema_version changes with every schema change: a migration, and a bulk load
 * (transfer/bulk-load.ts drops indexes and these triggers while rows go in, so the loaded rows are
 * not in the outbox) — both lead to the full reconcile.
 */
import type { Database } from 'better-sqlite3';
import type { VectorKind } from './vector-table';

/**
 * The triggers on facts and episodes that record one outbox row per written row: a bulk load drops
 * them (transfer/bulk-load.ts ROW_TRIGGERS) and the schema change it makes leads to the full reconcile.
 */
export const VECTOR_CHANGE_TRIGGERS = ['facts_vector_insert', 'facts_vector_update', 'facts_vector_delete', 'episodes_vector_insert', 'episodes_vector_update', 'episodes_vector_delete'] as const;

/** What `vector_sync` holds for one LanceDB table. */
export interface VectorSyncState {
  /** The generation of the last successful sync; null while a full reconcile runs (or failed). */
  generation: string | null;
  schemaVersion: number;
  recipe: string;
  model: string;
}

/** The changes waiting for some kinds, read up to one sequence number. */
export interface PendingChanges {
  /** The sequence number read up to: draining removes exactly these rows. */
  upTo: number;
  /** Distinct item ids (changes of the same item collapse). */
  ids: string[];
}

interface StateRow {
  generation: string | null;
  schema_version: number;
  recipe: string;
  model: string;
}

function kindsJson(kinds: readonly VectorKind[]): string {
  return JSON.stringify(kinds);
}

/** The outbox and sync record of one memory's database. Only this file runs their SQL. */
export class VectorChanges {
  constructor(private readonly db: Database) {}

  /** The schema version SQLite keeps (bumped by every CREATE / DROP / ALTER). */
  schemaVersion(): number {
    return this.db.pragma('schema_version', { simple: true }) as number;
  }

  state(table: string): VectorSyncState | null {
    const row = this.db.prepare<[string], StateRow>('SELECT generation, schema_version, recipe, model FROM vector_sync WHERE table_name = ?').get(table);
    return row ? { generation: row.generation, schemaVersion: row.schema_version, recipe: row.recipe, model: row.model } : null;
  }

  /**
   * Before a full reconcile: the table's record says "not trusted" (so a crash midway leads to
   * another full reconcile), and exists (so the triggers record what changes meanwhile).
   */
  distrust(table: string, recipe: string, model: string): void {
    this.db
      .prepare(
        `INSERT INTO vector_sync (table_name, generation, schema_version, recipe, model) VALUES (?, NULL, ?, ?, ?)
         ON CONFLICT (table_name) DO UPDATE SET generation = NULL`,
      )
      .run(table, this.schemaVersion(), recipe, model);
  }

  /** The last sequence number recorded for these kinds (0: none). */
  upTo(kinds: readonly VectorKind[]): number {
    return this.db.prepare<[string], { n: number | null }>('SELECT MAX(seq) AS n FROM vector_changes WHERE kind IN (SELECT value FROM json_each(?))').get(kindsJson(kinds))?.n ?? 0;
  }

  /** How many outbox rows wait for these kinds (duplicates included): cheap, from the index. */
  waiting(kinds: readonly VectorKind[]): number {
    return this.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM vector_changes WHERE kind IN (SELECT value FROM json_each(?))').get(kindsJson(kinds))!.n;
  }

  /** The ids changed for these kinds, up to the latest sequence number now. */
  pending(kinds: readonly VectorKind[]): PendingChanges {
    const upTo = this.upTo(kinds);
    const ids = this.db
      .prepare<[string, number], { item_id: string }>('SELECT DISTINCT item_id FROM vector_changes WHERE kind IN (SELECT value FROM json_each(?)) AND seq <= ?')
      .all(kindsJson(kinds), upTo)
      .map((r) => r.item_id);
    return { upTo, ids };
  }

  /**
   * After LanceDB holds the sync's writes (and the stamp beside it says `generation`): drains the
   * rows read (up to `upTo`) and records the generation, in one transaction. `retry` are ids to
   * keep for the next sync (their embedding failed): they go back in with a new sequence number.
   */
  commit(table: string, kinds: readonly VectorKind[], upTo: number, next: VectorSyncState, retry: readonly { id: string; kind: VectorKind }[] = []): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM vector_changes WHERE kind IN (SELECT value FROM json_each(?)) AND seq <= ?').run(kindsJson(kinds), upTo);
      const again = this.db.prepare('INSERT INTO vector_changes (item_id, kind) VALUES (?, ?)');
      for (const item of retry) again.run(item.id, item.kind);
      this.db
        .prepare(
          `INSERT INTO vector_sync (table_name, generation, schema_version, recipe, model) VALUES (@table, @generation, @schemaVersion, @recipe, @model)
           ON CONFLICT (table_name) DO UPDATE SET generation = excluded.generation, schema_version = excluded.schema_version, recipe = excluded.recipe, model = excluded.model`,
        )
        .run({ table, ...next });
    })();
  }
}
