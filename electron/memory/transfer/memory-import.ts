/**
 * Import of an export document in two passes over its records (export-records.ts), never holding
 * them all: the first checks everything and keeps only what the writing needs (import-checks.ts),
 * the second writes, in one transaction (the caller's), refusing ids that already exist unless
 * `replace`. Internal columns that the format does not carry (lineage, end kind, reference time)
 * are derived.
 *
 * The steps, one file each: export-records.ts (records and their shape), import-checks.ts
 * (duplicates, clashes, references, times; import-slot-rules.ts, import-claims.ts), replace-rows.ts
 * and text-search/full-text-upkeep.ts (what `replace` rewrites), import-entities.ts (joining the
 * memory's entities), import-episodes.ts (conversations, episodes, links), import-facts.ts with
 * fact-lineage.ts (facts and claims), bulk-load*.ts (into an empty store), import-summary.ts.
 */
import type { Database } from 'better-sqlite3';
import type { MemoryExport } from '../../../shared/memory-schema';
import type { ClaimRows } from '../store/claim-rows';
import type { EntityStore } from '../store/entity-store';
import type { FactRows } from '../store/fact-rows';
import type { IngestionJobs } from '../store/ingestion-jobs';
import type { WriteBatch } from '../temporal/write-batch';
import { startBulkLoad } from './bulk-load';
import type { BulkLoadHelper } from './bulk-load-helper';
import { documentRecords, type ExportRecords, type ReadRecordsOptions } from './export-records';
import { ImportChecker, type ImportPlan } from './import-checks';
import { entityIdMapper, joinedSlotsInUse, joinExistingEntities, refreshSlots, writeEntities } from './import-entities';
import { episodeWriter, linkEpisodes, writeConversations } from './import-episodes';
import { factWriter } from './import-facts';
import { episodeProvenanceWriter, learningQueuer, writeConversationProvenance } from './import-provenance';
import { importSummary, type ImportSummary } from './import-summary';
import { deleteReplacedFacts, replacedSlotsInUse } from './replace-rows';
import { isEmptyStore, storeLookups } from './store-lookups';
import { outboxOn } from '../store/sync-outbox';

export { parseExport } from './parse-export';
export { isEmptyStore } from './store-lookups';
export type { ImportSummary } from './import-summary';

export interface ImportContext {
  db: Database;
  rows: FactRows;
  claims: ClaimRows;
  entities: EntityStore;
  slots: WriteBatch;
  jobs: IngestionJobs;
}

/** The first pass: every check, against the store as it is now. */
export function planImport(db: Database, records: ExportRecords, replace: boolean, options?: ReadRecordsOptions): ImportPlan {
  const checker = importChecker(db, replace);
  records.read(checker, options);
  return checker.finish(replace);
}

/** The visitor of the first pass (a file's may run without blocking: ExportFile.scan), then finish(replace). */
export function importChecker(db: Database, replace: boolean): ImportChecker {
  // Into a store without facts and episodes, no fact or episode can clash or be cited from the store.
  const bulk = isEmptyStore(db);
  return new ImportChecker(storeLookups(db, !bulk), bulk, replace);
}

/** A whole document already in memory (checked by parseExport): both passes. */
export function importMemory(ctx: ImportContext, document: MemoryExport, replace: boolean, helper: BulkLoadHelper | null = null): ImportSummary {
  const records = documentRecords(document);
  return writeImport(ctx, records, planImport(ctx.db, records, replace), replace, helper);
}

/**
 * The second pass: writes what the first checked (`plan`, made against this store as it still is).
 * Into an empty store the indexes and queue triggers are rebuilt once after loading instead of being
 * updated row by row (several times faster for a whole memory moving to a new machine); with a
 * helper, its worker writes episodes and fact links, fed as they are read.
 */
export function writeImport(ctx: ImportContext, records: ExportRecords, plan: ImportPlan, replace: boolean, helperIfEmpty: BulkLoadHelper | null, options?: ReadRecordsOptions): ImportSummary {
  const { db, rows, claims, entities } = ctx;
  const bulk = isEmptyStore(db);
  // A helper loads only into an empty store (one that was empty when it started may not be any more).
  const helper = bulk ? helperIfEmpty : null;
  const exists = storeLookups(db, !bulk);
  const replacing = replace ? exists : null;

  const bulkLoad = bulk ? startBulkLoad(db, helper) : null;
  if (replace) deleteReplacedFacts(db, claims, plan.clashes);
  writeConversations(db, plan.conversations);
  const joined = joinExistingEntities(plan.entities, entities, exists);
  const entityId = entityIdMapper(joined);
  writeEntities(db, entities, plan.entities, joined, replacing);
  const meeting = joinedSlotsInUse(claims, plan.facts.values(), joined, entityId);
  if (replace) meeting.push(...replacedSlotsInUse(claims, plan.facts, plan.clashes, entityId));
  const writeEpisode = episodeWriter(db, replacing);
  const joinedOthers = new Set(plan.entities.filter((e) => e.type !== 'user' && joined.has(e.id)).map((e) => e.id));
  const facts = factWriter(rows, claims, plan.facts, entityId, bulk ? 'all' : outboxOn(db) ? 'none' : 'free', joinedOthers);
  helper?.begin();
  records.read(
    {
      episode: helper ? (e) => helper.episode(e) : writeEpisode,
      fact: (f) => {
        facts.fact(f, !helper);
        helper?.fact(f);
      },
      claim: (c) => facts.claim(c),
    },
    options,
  );
  helper?.end();
  // When the helper cannot deliver, its part is read again and written here.
  bulkLoad?.finish(() => records.read({ episode: writeEpisode, fact: (f) => linkEpisodes(rows, f) }));
  writeConversationProvenance(db, plan.conversations);
  if (plan.episodeSources) records.read({ episode: episodeProvenanceWriter(db) });
  const learning = learningQueuer(db, ctx.jobs);
  if (plan.episodesToLearn) records.read({ episode: learning.queue });
  refreshSlots(ctx.slots, meeting);
  return importSummary(plan, joined, learning.queued());
}
