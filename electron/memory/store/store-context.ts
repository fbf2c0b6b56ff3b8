/**
 * The store's parts over one SQLite connection, built once per Memory and handed to the write and
 * read modules inside memory. Nothing outside electron/memory/ sees it: the Memory class is the way in.
 */
import type { Database } from 'better-sqlite3';
import { SlotResolver } from '../temporal/slot-resolver';
import { WriteBatch } from '../temporal/write-batch';
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
  /** The write in progress: claims gathered, each touched slot resolved once at commit. */
  slots: WriteBatch;
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
    slots: new WriteBatch(new SlotResolver(rows, claims), rows, clock),
    jobs: new IngestionJobs(db, clock),
  };
}
