/**
 * The store's parts over one SQLite connection, built once per Memory and handed to the write and
 * read modules inside memory (the writes get the write batch with them: temporal/write-batch.ts). Nothing outside electron/memory/ sees it: the Memory class is the way in.
 */
import type { Database } from 'better-sqlite3';
import { ClaimRows } from './claim-rows';
import type { Clock } from './clock';
import { EntityStore } from './entity-store';
import { EpisodeStore } from './episode-store';
import { FactRows } from './fact-rows';
import { IngestionJobs } from './ingestion-jobs';

export interface StoreContext {
  db: Database;
  clock: Clock;
  rows: FactRows;
  claims: ClaimRows;
  entities: EntityStore;
  episodes: EpisodeStore;
  jobs: IngestionJobs;
}

export function storeContext(db: Database, clock: Clock): StoreContext {
  const rows = new FactRows(db);
  const claims = new ClaimRows(db);
  return {
    db,
    clock,
    rows,
    claims,
    entities: new EntityStore(db, clock),
    episodes: new EpisodeStore(db, clock),
    jobs: new IngestionJobs(db, clock),
  };
}
