/**
 * What an import of a document would do, without writing: whether it passes the import's checks (the
 * same first pass and words: import-checks.ts, so a file cut or edited by hand is refused here as
 * the import would refuse it), how many records of each kind it holds, and how many of their ids
 * already exist here (an import refuses those unless replacing).
 */
import type { Database } from 'better-sqlite3';
import { MemoryInputError } from '../memory-errors';
import { documentRecords, ExportFile, NotStreamable, type RecordProgress } from './export-records';
import type { ImportChecker } from './import-checks';
import { streamJsonFile } from './json-file-stream';
import { parseExport } from './parse-export';
import { importChecker } from './memory-import';

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
}

/** The import's own first pass (import-checks.ts) with ids that exist counted, not refused; nothing is written. */
function previewOf(checker: ImportChecker): ImportPreview {
  const { counts, clashes } = checker.finish(true);
  return { valid: true, error: null, conversations: counts.conversations, episodes: counts.episodes, entities: counts.entities, facts: counts.facts, clashes: clashes.length };
}

function invalid(error: unknown): ImportPreview {
  return { valid: false, error: (error as Error).message, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0 };
}

/** Never throws: a document that does not parse (or a failing count) gives valid: false and the error's message. */
export function previewImport(db: Database, document: unknown): ImportPreview {
  try {
    const checker = importChecker(db, true);
    documentRecords(parseExport(document)).read(checker);
    return previewOf(checker);
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
    return previewOf(checker);
  } catch (error) {
    if (error instanceof NotStreamable) return previewImport(db, await streamJsonFile(path, { ...options, onProgress: (p) => options.onProgress?.({ records: 0, ...p }) }));
    if (error instanceof MemoryInputError) return invalid(error);
    throw error;
  }
}
