/**
 * Import of an export document: validated whole before anything is written, written in one
 * transaction (the caller's), refusing ids that already exist unless `replace`.
 * Internal columns that the format does not carry (lineage, end kind, reference time) are derived.
 *
 * The steps, one file each: parse-export.ts (shape), import-checks.ts (duplicates, clashes,
 * references, times), replace-rows.ts and text-search/full-text-upkeep.ts (what `replace` rewrites),
 * import-entities.ts (joining the memory's entities), import-episodes.ts (conversations, episodes,
 * links), import-facts.ts with fact-lineage.ts (facts and claims), bulk-load*.ts (into an empty
 * store), import-summary.ts.
 */
import type { Database } from 'better-sqlite3';
import type { MemoryExport } from '../../../shared/memory-schema';
import type { ClaimRows } from '../store/claim-rows';
import type { EntityStore } from '../store/entity-store';
import type { FactRows } from '../store/fact-rows';
import type { WriteBatch } from '../temporal/write-batch';
import { startBulkLoad } from './bulk-load';
import type { BulkLoadHelper } from './bulk-load-helper';
import { withCanonicalPredicates } from './canonical-predicates';
import { checkDocument } from './import-checks';
import { entityIdMapper, joinedSlotsInUse, joinExistingEntities, refreshSlots, writeEntities } from './import-entities';
import { linkEpisodes, writeConversations, writeEpisodes } from './import-episodes';
import { writeFacts } from './import-facts';
import { writeProvenance } from './import-provenance';
import { importSummary, type ImportSummary } from './import-summary';
import { deleteReplacedFacts } from './replace-rows';
import { isEmptyStore, storeLookups } from './store-lookups';

export { parseExport } from './parse-export';
export { isEmptyStore } from './store-lookups';
export type { ImportSummary } from './import-summary';

export interface ImportContext {
  db: Database;
  rows: FactRows;
  claims: ClaimRows;
  entities: EntityStore;
  slots: WriteBatch;
}

export function importMemory(ctx: ImportContext, document: MemoryExport, replace: boolean, helper: BulkLoadHelper | null = null): ImportSummary {
  const { db, rows, claims, entities } = ctx;
  // Predicates in the one vocabulary of observe and ingestion, before any rule is checked.
  const doc = withCanonicalPredicates(document);
  // Into a store without facts and episodes, no fact or episode can clash or be cited from the store:
  // their lookups are skipped, and indexes and queue triggers are rebuilt once after loading instead
  // of being updated row by row (several times faster for a whole memory moving to a new machine).
  const bulk = isEmptyStore(db);
  const exists = storeLookups(db, !bulk);
  const checked = checkDocument(doc, exists, bulk, replace);
  const replacing = replace ? exists : null;

  const bulkLoad = bulk ? startBulkLoad(db, helper) : null;
  if (replace) deleteReplacedFacts(db, claims, checked.clashes);
  writeConversations(db, doc.conversations);
  const joined = joinExistingEntities(doc.entities, entities, exists);
  const entityId = entityIdMapper(joined);
  writeEntities(db, entities, doc.entities, joined, replacing);
  const meeting = joinedSlotsInUse(claims, doc.facts, joined, entityId);
  // With a helper, a worker writes episodes and fact_episodes meanwhile (bulk-load-helper.ts).
  if (!helper) writeEpisodes(db, doc.episodes, replacing);
  writeFacts(rows, claims, checked, doc.facts, entityId, !helper);
  bulkLoad?.finish(() => {
    writeEpisodes(db, doc.episodes, replacing);
    linkEpisodes(rows, doc.facts);
  });
  writeProvenance(db, doc);
  refreshSlots(ctx.slots, meeting);
  return importSummary(doc, checked.clashes, joined);
}
