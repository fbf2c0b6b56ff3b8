/**
 * An import as one write: the document is checked whole (the first pass over its records), then
 * written in one transaction (the second: memory-import.ts). A document in memory is read from its
 * arrays; a file of any size record by record (export-records.ts), its first pass without blocking
 * (progress, cancel), its second inside the transaction. A large import into an empty store has its
 * episodes and full-text indexes built on a second thread (bulk-load-helper.ts), which then
 * checkpoints the WAL in the background (`background`).
 */
import { statSync } from 'node:fs';
import type { WriteContext } from '../temporal/write-batch';
import { flushFullText } from '../text-search/fts-index';
import { TEMP_STORE_WRITES } from '../store/database/open-database';
import { BULK_HELPER_MIN_ROWS, BulkLoadHelper } from './bulk-load-helper';
import { WAL_AUTOCHECKPOINT_PAGES } from './background-checkpoint';
import { documentRecords, ExportFile, NotStreamable, type ExportRecords, type RecordProgress } from './export-records';
import type { ImportChecker, ImportPlan } from './import-checks';
import { streamJsonFile } from './json-file-stream';
import { importChecker, isEmptyStore, parseExport, planImport, writeImport, type ImportSummary } from './memory-import';

export type { ImportSummary } from './memory-import';
export { previewImport, previewImportFile, type ImportPreview } from './import-preview';

/** A file this large is taken to hold enough rows for the helper, which is started before the file is checked. */
const HELPER_MIN_BYTES = 8 << 20;

export interface MemoryFile {
  path: string;
  nativeBinding: string | undefined;
}

export interface ImportOptions {
  replace?: boolean;
  /** Use the bulk-load helper (default: when the document is large and the store empty). */
  helper?: boolean;
}

/** An import's progress: checking (the first pass, which can be cancelled) or writing (the second). */
export interface ImportProgress extends RecordProgress {
  phase: 'checking' | 'writing';
}

export interface ImportFileOptions extends ImportOptions {
  /** How the file is named in errors ("export.json"). */
  label: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Stops the import while the file is checked (ReadCancelled); nothing has been written then. */
  signal?: AbortSignal;
}

/** A document in memory. */
export function importInto(ctx: WriteContext, file: MemoryFile, input: unknown, options: ImportOptions, onBackground: (work: Promise<unknown>) => void): ImportSummary {
  const helper = startHelper(ctx, file, options, () => rowCount(input) >= BULK_HELPER_MIN_ROWS);
  return withHelper(ctx, file, helper, onBackground, () => {
    const records = documentRecords(parseExport(input));
    const plan = planImport(ctx.db, records, options.replace ?? false);
    return commit(ctx, records, () => plan, options, helper);
  });
}

/**
 * An export file of any size, never held whole, checked without blocking (progress, cancel: the
 * app's screens). Throws MemoryInputError, NotJsonError, ReadCancelled.
 */
export async function importFileInto(ctx: WriteContext, file: MemoryFile, path: string, options: ImportFileOptions, onBackground: (work: Promise<unknown>) => void): Promise<ImportSummary> {
  const fileImport = new FileImport(ctx, file, path, options, onBackground);
  try {
    await fileImport.records.scan(fileImport.checker, { signal: options.signal, onProgress: fileImport.checking });
  } catch (error) {
    if (!(error instanceof NotStreamable)) throw fileImport.failed(error);
    // Not in the order a record-by-record read needs: read whole, as a document in memory.
    fileImport.failed(error);
    const document = await streamJsonFile(path, { label: options.label, signal: options.signal, onProgress: (p) => fileImport.checking({ records: 0, ...p }) });
    return importInto(ctx, file, document, options, onBackground);
  }
  // Told before the transaction, which holds the thread until it commits (the page hears it first).
  options.onProgress?.({ phase: 'writing', records: 0, bytes: 0, totalBytes: statSync(path).size });
  await new Promise((resolve) => setImmediate(resolve));
  return fileImport.write();
}

/** The same, all at once (the `tempora` command: a Ctrl-C ends the process, and an import not committed writes nothing). */
export function importFileNow(ctx: WriteContext, file: MemoryFile, path: string, options: ImportFileOptions, onBackground: (work: Promise<unknown>) => void): ImportSummary {
  const fileImport = new FileImport(ctx, file, path, options, onBackground);
  try {
    fileImport.records.read(fileImport.checker, { onProgress: fileImport.checking });
  } catch (error) {
    if (!(error instanceof NotStreamable)) throw fileImport.failed(error);
    fileImport.failed(error);
    return importInto(ctx, file, fileImport.records.readWhole(), options, onBackground);
  }
  return fileImport.write();
}

/** One import of a file: its first pass's visitor, then its write. */
class FileImport {
  readonly records: ExportFile;
  readonly checker: ImportChecker;
  private readonly before: string;
  private helper: BulkLoadHelper | null;

  constructor(
    private readonly ctx: WriteContext,
    private readonly file: MemoryFile,
    path: string,
    private readonly options: ImportFileOptions,
    private readonly onBackground: (work: Promise<unknown>) => void,
  ) {
    this.records = new ExportFile(path, options.label);
    this.checker = importChecker(ctx.db, options.replace ?? false);
    this.before = storeVersion(ctx.db);
    // Started before the file is checked, so that it is up when the rows come.
    this.helper = startHelper(ctx, file, options, () => statSync(path).size >= HELPER_MIN_BYTES);
  }

  readonly checking = (p: RecordProgress) => this.options.onProgress?.({ phase: 'checking', ...p });

  /** The first pass failed: the helper is let go; gives the error back. */
  failed(error: unknown): unknown {
    this.letHelperGo();
    return error;
  }

  private letHelperGo(): void {
    dropHelper(this.helper, this.onBackground);
    this.helper = null;
  }

  /** The second pass, in one transaction. */
  write(): ImportSummary {
    const { ctx, records, options } = this;
    const replace = options.replace ?? false;
    let summary: ImportSummary | undefined;
    try {
      const checked = this.checker.finish(replace);
      if (this.helper && options.helper === undefined && checked.counts.facts + checked.counts.episodes < BULK_HELPER_MIN_ROWS) this.letHelperGo();
      // The memory may have written while the file was checked (the app goes on): checked again then, inside the write.
      const plan = () => (storeVersion(ctx.db) === this.before ? checked : planImport(ctx.db, records, replace));
      summary = commit(ctx, records, plan, { ...options, onProgress: (p) => options.onProgress?.({ phase: 'writing', ...p }) }, this.helper);
      return summary;
    } finally {
      if (this.helper) {
        this.helper.finish(summary ? { dbPath: this.file.path } : null);
        this.onBackground(this.helper.exited);
      }
    }
  }
}

function dropHelper(helper: BulkLoadHelper | null, onBackground: (work: Promise<unknown>) => void): void {
  if (!helper) return;
  helper.finish(null);
  onBackground(helper.exited);
}

/** What changes when anyone writes the store: this connection's changes and the file's version (other connections). */
function storeVersion(db: WriteContext['db']): string {
  return `${db.prepare('SELECT total_changes()').pluck().get() as number}/${db.pragma('data_version', { simple: true }) as number}`;
}

function startHelper(ctx: WriteContext, file: MemoryFile, options: ImportOptions, large: () => boolean): BulkLoadHelper | null {
  const use = isEmptyStore(ctx.db) && file.path !== ':memory:' && (options.helper ?? large());
  return use ? BulkLoadHelper.spawn(ctx.db, file.path, file.nativeBinding) : null;
}

/** Runs `work` with the helper (if any) told how it ended: its checkpoint after a commit, else just its end. */
function withHelper(ctx: WriteContext, file: MemoryFile, helper: BulkLoadHelper | null, onBackground: (work: Promise<unknown>) => void, work: () => ImportSummary): ImportSummary {
  let summary: ImportSummary | undefined;
  try {
    summary = work();
    return summary;
  } finally {
    if (helper) {
      helper.finish(summary ? { dbPath: file.path } : null);
      onBackground(helper.exited);
    }
  }
}

/** The second pass in one transaction, with the plan of the first. */
function commit(ctx: WriteContext, records: ExportRecords, plan: () => ImportPlan, options: ImportOptions & { onProgress?: (p: RecordProgress) => void }, helper: BulkLoadHelper | null): ImportSummary {
  const { db } = ctx;
  // Into an empty store the import checks every reference itself (import-checks.ts), so SQLite's
  // per-row foreign key lookups are skipped; the pragma only takes effect outside a transaction.
  const bulk = isEmptyStore(db);
  try {
    if (bulk) db.pragma('foreign_keys = OFF');
    // Building a whole memory's indexes sorts as much as the document holds: on disk, not in RAM.
    if (bulk) db.pragma('temp_store = FILE');
    // The worker checkpoints after the commit, so the commit itself does not.
    if (helper) db.pragma('wal_autocheckpoint = 0');
    // One write: the slots the document's facts joined are resolved once, when it commits (write-batch.ts).
    // It takes the write lock before it reads, as every write does (memory-kernel.ts write): begun
    // deferred, its first reads would pin a snapshot that another process's commit (the app learning
    // a message) leaves stale, and its first write would fail at once ("database is locked") instead
    // of waiting. With the helper's scratch attached, BEGIN IMMEDIATE would lock that too, so the
    // write begins deferred and first writes to the memory's own database, which waits the same way.
    const write = db.transaction(() => {
      if (helper) db.prepare('DELETE FROM main.fts_queue WHERE 0').run();
      ctx.slots.begin();
      const imported = writeImport(ctx, records, plan(), options.replace ?? false, helper, { onProgress: options.onProgress });
      ctx.slots.commit();
      return imported;
    });
    const summary = helper ? write.deferred() : write.immediate();
    flushFullText(db);
    return summary;
  } finally {
    if (bulk) db.pragma('foreign_keys = ON');
    if (bulk) db.pragma(`temp_store = ${TEMP_STORE_WRITES}`);
    if (helper) db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  }
}

/** Facts + episodes of what looks like an export document (before it is validated). */
function rowCount(input: unknown): number {
  if (typeof input !== 'object' || input === null) return 0;
  const { facts, episodes } = input as { facts?: unknown; episodes?: unknown };
  return (Array.isArray(facts) ? facts.length : 0) + (Array.isArray(episodes) ? episodes.length : 0);
}
