/**
 * Loading a whole memory into an empty store (memory-import.ts): the secondary indexes and the
 * full-text queue triggers of the loaded tables are dropped while rows go in, then everything is
 * indexed once, in the same transaction.
 */
import type { Database } from 'better-sqlite3';
import { indexAllFullText } from './fts-index';

/**
 * A load into an empty store: drops the secondary indexes and full-text queue triggers of the loaded
 * tables; finish() indexes everything once (full text, then the indexes from their stored SQL).
 */
export function startBulkLoad(db: Database): { finish(): void } {
  const objects = db
    .prepare<[], { type: string; name: string; sql: string }>(
      `SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name IN ('facts', 'episodes', 'fact_episodes', 'claims')
       AND ((type = 'index') OR (type = 'trigger' AND name IN ('facts_fts_insert', 'episodes_fts_insert')))`,
    )
    .all();
  for (const o of objects) db.exec(`DROP ${o.type === 'index' ? 'INDEX' : 'TRIGGER'} ${o.name}`);
  return {
    finish() {
      // FTS5 writes a segment each time its buffer fills (1 MiB by default) and keeps merging them;
      // with a buffer as large as a whole memory's terms it writes each index once (trigram build
      // ~1.5 s -> ~0.95 s at 100k). Back to the default after, in the same transaction.
      setFtsBuffer(db, FTS_BULK_HASHSIZE);
      indexAllFullText(db);
      setFtsBuffer(db, FTS_DEFAULT_HASHSIZE);
      for (const o of objects) db.exec(o.sql);
    },
  };
}

const FTS_TABLES = ['facts_fts', 'facts_cjk', 'episodes_fts', 'episodes_cjk'];
const FTS_DEFAULT_HASHSIZE = 1024 * 1024;
const FTS_BULK_HASHSIZE = 64 * 1024 * 1024;

function setFtsBuffer(db: Database, bytes: number): void {
  for (const table of FTS_TABLES) db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ${Math.trunc(bytes)})`);
}
