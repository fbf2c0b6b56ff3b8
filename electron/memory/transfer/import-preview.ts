/**
 * What an import of a document would do, without writing: whether it passes the import's checks (the
 * same first pass and words: import-checks.ts, so a file cut or edited by hand is refused here as
 * the import would refuse it), how many records of each kind it holds, how many of their ids
 * already exist here (an import refuses those unless replacing), and how many of its entities the
 * import would join to one here (the user, the same name: import-entities.ts).
 */
import type { Database } from 'better-sqlite3';
import { MemoryInputError } from '../memory-errors';
import { documentRecords, ExportFile, NotStreamable, type RecordProgress } from './export-records';
import type { ImportChecker } from './import-checks';
import { streamJsonFile } from './json-file-stream';
import { parseExport } from './parse-export';
import { importChecker } from './memory-import';
import { joinExistingEntities } from './import-entities';
import { isEmptyStore, storeLookups } from './store-lookups';
import { EntityStore } from '../store/entity-store';
import { systemClock } from '../store/clock';

export interface ImportPreview {
  valid: boolean;
  /** What is wrong with the document, naming the field, when not valid. */
  error: string | null;
  conversations: number;
  episodes: number;
  entities: number;
  facts: number;
  /** Ids of the document that already exist in the store. */
  clashes: number;
  /** Entities of the document the import would join to a stored one under another id. */
  joins: number;
}

/** The import's own first pass (import-checks.ts) with ids that exist counted, not refused; nothing is written. */
function previewOf(db: Database, checker: ImportChecker): ImportPreview {
  const { counts, clashes, entities } = checker.finish(true);
  const joins = joinExistingEntities(entities, new EntityStore(db, systemClock()), storeLookups(db, !isEmptyStore(db))).size;
  return { valid: true, error: null, conversations: counts.conversations, episodes: counts.episodes, entities: counts.entities, facts: counts.facts, clashes: clashes.length, joins };
}

function invalid(error: unknown): ImportPreview {
  return { valid: false, error: (error as Error).message, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0, joins: 0 };
}

/** Never throws: a document that does not parse (or a failing count) gives valid: false and the error's message. */
export function previewImport(db: Database, document: unknown): ImportPreview {
  try {
    const checker = importChecker(db, true);
    documentRecords(parseExport(document)).read(checker);
    return previewOf(db, checker);
  } catch (error) {
    return invalid(error);
  }
}

/**
 * The same for an export file of any size, read record by record (`signal` stops it: rejects with
 * ReadCancelled). A file that is not JSON rejects with NotJsonError; one whose records are not in
 * an export's order is read whole.
 */
export async function previewImportFile(db: Database, path: string, options: { label: string; signal?: AbortSignal; onProgress?: (p: RecordProgress) => void }): Promise<ImportPreview> {
  const checker = importChecker(db, true);
  try {
    await new ExportFile(path, options.label).scan(checker, options);
    return previewOf(db, checker);
  } catch (error) {
    if (error instanceof NotStreamable) return previewImport(db, await streamJsonFile(path, { ...options, onProgress: (p) => options.onProgress?.({ records: 0, ...p }) }));
    if (error instanceof MemoryInputError) return invalid(error);
    throw error;
  }
}
