/**
 * Loading a whole memory into an empty store (memory-import.ts): the secondary indexes, the
 * full-text queue triggers, the live-count triggers (store/live-counts.ts), the timeline's row
 * triggers (store/timeline-rows.ts) and the sync outbox's (store/sync-outbox.ts) of the loaded tables
 * are dropped while rows go in, then everything is indexed and counted once, in the same transaction.
 */
import type { Database } from 'better-sqlite3';
import type { BulkLoadHelper } from './bulk-load-helper';
import { indexAllFullText, setFullTextBuffer } from '../text-search/fts-index';
import { CONVERSATION_COUNT_TRIGGERS, LIVE_COUNT_TRIGGERS, recountConversations, recountLiveFacts } from '../store/live-counts';
import { recountTimelineRows, TIMELINE_ROW_TRIGGERS } from '../store/timeline-rows';
import { queueLoaded, SYNC_ROW_TRIGGERS } from '../store/sync-outbox';
import { clearVectorChanges, VECTOR_CHANGE_TRIGGERS } from '../vectors/vector-changes';
import { CLAIM_EPISODES_INSERT_TRIGGER, indexClaimEpisodes } from '../store/claim-rows';

/** Triggers that would run once per loaded row: dropped while loading, their work done once after. */
const ROW_TRIGGERS = ['facts_fts_insert', 'episodes_fts_insert', ...LIVE_COUNT_TRIGGERS, ...CONVERSATION_COUNT_TRIGGERS, ...TIMELINE_ROW_TRIGGERS, ...VECTOR_CHANGE_TRIGGERS, ...SYNC_ROW_TRIGGERS].map((name) => `'${name}'`).join(', ');

/**
 * The indexes a write reads (resolving a slot against what is stored, a segment's removals). A first
 * sync (sync/sync-first.ts) needs none while its segments only add — the slots then hold nothing
 * stored and are resolved once at its end — and builds them when a segment that removes comes
 * (readyForWrites); every other index is built once at the end.
 */
const WRITE_PATH_INDEXES = [
  'claims_by_fact',
  'claims_by_object',
  'claims_one_by_slot',
  'claims_by_slot_time',
  'claims_by_sync_id',
  'facts_by_lineage',
  'facts_live_by_slot_time',
  'facts_live_by_slot_end',
  'fact_episodes_by_episode',
] as const;

/**
 * What only a forget reads (it finds the claims citing a message in claim_episodes, the claims a
 * forgotten fact ended by claims_by_end_by, and scrubs a slot's history by facts_by_subject_time).
 * A load that deletes rows (a first sync's forgets) drops them too and builds them when its first
 * forget comes (readyForDeletes): most first syncs forget nothing, and recording every claim's
 * messages as it goes in costs a quarter of the claims' inserts.
 */
const DELETE_PATH_INDEXES = ['claims_by_end_by', 'facts_by_subject_time'];

export interface BulkLoadOptions {
  /** Queue everything loaded for sync (default true); a load of what another device sent must not. */
  queueForSync?: boolean;
  /** The load deletes rows too (a first sync's forgets): see startBulkLoad. */
  deletesRows?: boolean;
}

export interface BulkLoad {
  /** Builds every index dropped, the full text and the counts, and puts the triggers back. */
  finish(writeLeftToHelper: () => void): void;
  /**
   * Builds the indexes a write reads (WRITE_PATH_INDEXES), so that what follows reads what is stored
   * as outside a load: a first sync calls it before its first segment that removes. Only the first
   * call does anything.
   */
  readyForWrites(): void;
  /**
   * Makes whole what a delete reads (DELETE_PATH_INDEXES, claim_episodes and its trigger), so that
   * what follows finds it as outside a load. A load that deletes calls it before each forget (an
   * undone claim's delete reads none of it); only the first call does anything.
   */
  readyForDeletes(): void;
}

/** The full text of every stored row, built in this thread with FTS5's bulk buffer. */
function indexAllHere(db: Database): void {
  setFullTextBuffer(db, 'bulk');
  indexAllFullText(db);
  setFullTextBuffer(db, 'default');
}

/**
 * A load into an empty store: drops the secondary indexes and full-text queue triggers of the loaded
 * tables; finish() indexes everything once (the indexes from their stored SQL, then the full text).
 * With a helper, the caller leaves episodes and fact_episodes to its worker, which also builds the
 * full text; finish() copies them in, or, if the helper cannot deliver, calls `writeLeftToHelper`
 * and indexes here. With a full-text-only helper (a first sync's) the caller writes every row, and
 * finish() has the worker build only their full text, copied in, or built here if it cannot deliver.
 */
export function startBulkLoad(db: Database, helper: BulkLoadHelper | null, options: BulkLoadOptions = {}): BulkLoad {
  // A load that deletes drops the full-text delete triggers, so a row never indexed is never deleted
  // from the index; what a forget reads is dropped until its first forget (readyForDeletes).
  const triggers = `${ROW_TRIGGERS}, '${CLAIM_EPISODES_INSERT_TRIGGER}'${options.deletesRows ? ", 'facts_fts_delete', 'episodes_fts_delete'" : ''}`;
  let objects = db
    .prepare<[], { type: string; name: string; sql: string }>(
      `SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name IN ('facts', 'episodes', 'fact_episodes', 'claims')
       AND ((type = 'index') OR (type = 'trigger' AND name IN (${triggers})))`,
    )
    .all();
  for (const o of objects) db.exec(`DROP ${o.type === 'index' ? 'INDEX' : 'TRIGGER'} ${o.name}`);
  let deletesReady = !options.deletesRows;
  /** Builds the dropped objects named here now (and not again at the end). */
  const buildNow = (names: readonly string[]) => {
    const now = objects.filter((o) => names.includes(o.name));
    for (const o of now) if (o.type === 'index') db.exec(o.sql);
    if (now.some((o) => o.name === CLAIM_EPISODES_INSERT_TRIGGER)) indexClaimEpisodes(db);
    for (const o of now) if (o.type === 'trigger') db.exec(o.sql);
    objects = objects.filter((o) => !now.includes(o));
  };
  return {
    readyForWrites: () => buildNow(WRITE_PATH_INDEXES),
    readyForDeletes() {
      if (deletesReady) return;
      deletesReady = true;
      buildNow([...DELETE_PATH_INDEXES, CLAIM_EPISODES_INSERT_TRIGGER]);
    },
    finish(writeLeftToHelper) {
      // A full-text-only helper indexes the stored rows' text on the other core while this thread
      // builds the indexes and counts; it reads nothing those write.
      const fullTextOnly = helper?.fullTextOnly ?? false;
      if (fullTextOnly) helper!.sendStoredRows();
      // Indexes before the helper's copy (SQLite then copies their entries too); the queue triggers
      // after it, or they would queue every copied episode for indexing again.
      for (const o of objects) if (o.type === 'index') db.exec(o.sql);
      let indexed = false;
      if (helper && !fullTextOnly) {
        indexed = helper.adopt();
        if (!indexed) writeLeftToHelper();
      }
      if (!indexed && !fullTextOnly) indexAllHere(db);
      if (objects.some((o) => o.name === CLAIM_EPISODES_INSERT_TRIGGER)) indexClaimEpisodes(db);
      recountLiveFacts(db);
      recountConversations(db);
      recountTimelineRows(db);
      if (fullTextOnly && !helper!.adopt()) indexAllHere(db);
      // The schema change makes the next vector sync read everything: what waits would only be drained.
      clearVectorChanges(db);
      if (options.queueForSync ?? true) queueLoaded(db);
      for (const o of objects) if (o.type === 'trigger') db.exec(o.sql);
    },
  };
}
