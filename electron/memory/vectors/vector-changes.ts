/**
 * What changed for the vector index since its last sync, as SQLite records it (migration
 * 0020_vector_changes), so a start-up reads the changes instead of every item:
 *
 * - `vector_changes`, an outbox: triggers on facts (the one kind embedded: vector-source.ts) append
 *   the id of every fact whose embedded text or liveness changed, in the same transaction as the
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
 * (transfer/bulk-load.ts drops indexes and the facts and episodes triggers while rows go in, so the
 * loaded rows are not in the outbox, and clears what the entity triggers, still there, recorded:
 * clearVectorChanges) — both lead to the full reconcile.
 *
 * Several processes may sync the same tables (the app and `tempora serve` or a CLI command with
 * --embedding share this database and the vector directory). One may drain a row another has read
 * but not yet written, and write after it: a sync's commit therefore reads again, under the write
 * lock, the texts of what it wrote or deleted, and puts back in the outbox each one that differs
 * now (VectorTableSync.commit).
 */
import type { Database } from 'better-sqlite3';
import type { VectorKind } from './vector-table';

/**
 * The triggers on facts that record one outbox row per written row: a bulk load drops them
 * (transfer/bulk-load.ts ROW_TRIGGERS) and the schema change it makes leads to the full reconcile.
 * (Entities, their aliases and messages had triggers too while they were embedded: migration 0037.)
 */
export const VECTOR_CHANGE_TRIGGERS = ['facts_vector_insert', 'facts_vector_update', 'facts_vector_delete'] as const;

/**
 * Empties the outbox, inside the caller's transaction: for a bulk load, whose schema change makes
 * every table's next sync the full reconcile, so any rows waiting would only be read to be drained.
 */
export function clearVectorChanges(db: Database): void {
  db.prepare('DELETE FROM vector_changes').run();
}

/**
 * The generation recorded when the outbox was dropped unread (VectorChanges.trim): never a stamp's,
 * so the next sync of every table is the full reconcile.
 */
export const DROPPED = 'dropped';

/** What `vector_sync` holds for one LanceDB table. */
export interface VectorSyncState {
  /** The generation of the last successful sync; null while a full reconcile runs (or failed); DROPPED after a trim. */
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

  /** How many outbox rows wait for these kinds (duplicates included), counted up to `limit`: from the index. */
  waiting(kinds: readonly VectorKind[], limit: number): number {
    return this.db
      .prepare<[string, number], { n: number }>('SELECT COUNT(*) AS n FROM (SELECT 1 FROM vector_changes WHERE kind IN (SELECT value FROM json_each(?)) LIMIT ?)')
      .get(kindsJson(kinds), limit)!.n;
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
   * rows read (up to `upTo`) and records the generation, in one IMMEDIATE transaction. `retry` are
   * ids to keep for the next sync (their embedding failed); `recheck`, run under the write lock,
   * returns the ids whose text or liveness changed since the sync read them: both go back in with a
   * new sequence number, which no sync that read before can drain.
   *
   * A sync of the recorded changes (`mode` 'changes'): when the record says "not trusted" now — another
   * process started a full reconcile, or the outbox was dropped (trim) while this sync ran — it stays
   * so, since the rows this sync did not read may be gone. A drop (trim) is kept after a full
   * reconcile too: it may have taken rows written after that reconcile read the items.
   */
  commit(
    table: string,
    kinds: readonly VectorKind[],
    upTo: number,
    next: VectorSyncState,
    retry: readonly { id: string; kind: VectorKind }[] = [],
    recheck: () => readonly { id: string; kind: VectorKind }[] = () => [],
    mode: 'full' | 'changes' = 'full',
  ): void {
    this.db
      .transaction(() => {
        this.db.prepare('DELETE FROM vector_changes WHERE kind IN (SELECT value FROM json_each(?)) AND seq <= ?').run(kindsJson(kinds), upTo);
        const again = this.db.prepare('INSERT INTO vector_changes (item_id, kind) VALUES (?, ?)');
        for (const item of [...retry, ...recheck()]) again.run(item.id, item.kind);
        this.db
          .prepare(
            `INSERT INTO vector_sync (table_name, generation, schema_version, recipe, model) VALUES (@table, @generation, @schemaVersion, @recipe, @model)
             ON CONFLICT (table_name) DO UPDATE SET generation = CASE WHEN vector_sync.generation = @dropped THEN @dropped
                 WHEN @changes AND vector_sync.generation IS NULL THEN NULL ELSE excluded.generation END,
               schema_version = excluded.schema_version, recipe = excluded.recipe, model = excluded.model`,
          )
          .run({ table, ...next, dropped: DROPPED, changes: mode === 'changes' ? 1 : 0 });
      })
      .immediate();
  }

  /**
   * Bounds the outbox while nothing drains it (no embedding model attached): once more than `limit`
   * rows wait, reading them would be slower than the full reconcile the next sync then runs anyway,
   * so they are dropped and every table's record says so (generation DROPPED), in one transaction.
   * Not NULL: a full reconcile running elsewhere set NULL itself, and must not take the drop for
   * its own mark (commit keeps DROPPED). Cheap when under the bound: the span of sequence numbers
   * (two primary-key seeks) is an upper bound on the rows, and only a span over `limit` counts
   * them (at most limit + 1). Returns whether it dropped them.
   */
  trim(limit: number): boolean {
    // Two subqueries: SQLite seeks the primary key for a lone MAX or MIN, but scans for both in one.
    const span = this.db.prepare<[], { n: number | null }>('SELECT (SELECT MAX(seq) FROM vector_changes) - (SELECT MIN(seq) FROM vector_changes) + 1 AS n').get()?.n ?? 0;
    if (span <= limit) return false;
    return this.db
      .transaction(() => {
        const rows = this.db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM (SELECT 1 FROM vector_changes LIMIT ?)').get(limit + 1)!.n;
        if (rows <= limit) return false;
        this.db.prepare('DELETE FROM vector_changes').run();
        this.db.prepare('UPDATE vector_sync SET generation = ?').run(DROPPED);
        return true;
      })
      .immediate();
  }
}
