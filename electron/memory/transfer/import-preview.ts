/**
 * What an import of a document would do, without writing: whether it passes the shape check, how
 * many records of each kind it holds, and how many of their ids already exist here (an import
 * refuses those unless replacing). Of the references, only what a claim stands behind is checked
 * here (claimedFact, the import's own check and words: a file cut down by hand keeps claims whose
 * facts it lost); the import checks the rest.
 */
import type { Database } from 'better-sqlite3';
import { MemoryInputError } from '../memory-errors';
import type { ClaimRecord } from '../../../shared/memory-schema';
import { documentRecords, ExportFile, NotStreamable, type RecordProgress, type RecordVisitor } from './export-records';
import { claimedFact } from './import-claims';
import { streamJsonFile } from './json-file-stream';
import { parseExport } from './parse-export';

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

/** One fixed statement per table: how many of a JSON array of ids it holds. */
const COUNT_EXISTING = {
  conversations: 'SELECT COUNT(*) AS n FROM conversations WHERE id IN (SELECT value FROM json_each(?))',
  episodes: 'SELECT COUNT(*) AS n FROM episodes WHERE id IN (SELECT value FROM json_each(?))',
  entities: 'SELECT COUNT(*) AS n FROM entities WHERE id IN (SELECT value FROM json_each(?))',
  facts: 'SELECT COUNT(*) AS n FROM facts WHERE id IN (SELECT value FROM json_each(?))',
} as const;

/** What the preview keeps of a fact for the claims: whether it is held now (one object for all that are). */
interface FactKept {
  expired_at: string | null;
}
const HELD_NOW: FactKept = { expired_at: null };

/**
 * Counts the records of each kind and, a batch of ids at a time, those whose id the store holds;
 * checks that each claim stands behind a fact of the document held now, as the import does.
 */
class PreviewCounter implements RecordVisitor {
  readonly counts = { conversations: 0, episodes: 0, entities: 0, facts: 0 };
  clashes = 0;
  private readonly pending: Record<Table, string[]> = { conversations: [], episodes: [], entities: [], facts: [] };
  private readonly facts = new Map<string, FactKept>();

  constructor(private readonly db: Database) {}

  conversation(c: { id: string }): void {
    this.add('conversations', c.id);
  }
  episode(e: { id: string }): void {
    this.add('episodes', e.id);
  }
  entity(e: { id: string }): void {
    this.add('entities', e.id);
  }
  fact(f: { id: string; expired_at: string | null }): void {
    this.add('facts', f.id);
    this.facts.set(f.id, f.expired_at === null ? HELD_NOW : { expired_at: f.expired_at });
  }
  claim(c: ClaimRecord, i: number): void {
    claimedFact(c, i, this.facts);
  }

  private add(table: Table, id: string): void {
    this.counts[table]++;
    const ids = this.pending[table];
    ids.push(id);
    if (ids.length >= ID_BATCH) this.flush(table);
  }

  flush(table: Table): void {
    const ids = this.pending[table].splice(0);
    if (ids.length) this.clashes += this.db.prepare<[string], { n: number }>(COUNT_EXISTING[table]).get(JSON.stringify(ids))!.n;
  }

  preview(): ImportPreview {
    for (const table of Object.keys(this.pending) as Table[]) this.flush(table);
    return { valid: true, error: null, ...this.counts, clashes: this.clashes };
  }
}

type Table = keyof typeof COUNT_EXISTING;
/** Ids counted against the store at once. */
const ID_BATCH = 10_000;

function invalid(error: unknown): ImportPreview {
  return { valid: false, error: (error as Error).message, conversations: 0, episodes: 0, entities: 0, facts: 0, clashes: 0 };
}

/** Never throws: a document that does not parse (or a failing count) gives valid: false and the error's message. */
export function previewImport(db: Database, document: unknown): ImportPreview {
  try {
    const counter = new PreviewCounter(db);
    documentRecords(parseExport(document)).read(counter);
    return counter.preview();
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
  const counter = new PreviewCounter(db);
  try {
    await new ExportFile(path, options.label).scan(counter, options);
    return counter.preview();
  } catch (error) {
    if (error instanceof NotStreamable) return previewImport(db, await streamJsonFile(path, { ...options, onProgress: (p) => options.onProgress?.({ records: 0, ...p }) }));
    if (error instanceof MemoryInputError) return invalid(error);
    throw error;
  }
}
