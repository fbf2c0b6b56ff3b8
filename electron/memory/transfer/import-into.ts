/**
 * An import as one write: the document is validated whole, then written in one transaction
 * (memory-import.ts). A large import into an empty store has its full-text indexes built on a second
 * thread (bulk-load-helper.ts), which then checkpoints the WAL in the background (`background`).
 */
import type { WriteContext } from '../temporal/write-batch';
import { flushFullText } from '../text-search/fts-index';
import { BULK_HELPER_MIN_ROWS, BulkLoadHelper } from './bulk-load-helper';
import { importMemory, isEmptyStore, parseExport, type ImportSummary } from './memory-import';

export type { ImportSummary } from './memory-import';
export { previewImport, type ImportPreview } from './import-preview';

/** SQLite's default automatic checkpoint threshold, restored after an import's own checkpoint. */
const WAL_AUTOCHECKPOINT_PAGES = 1000;

export function importInto(
  ctx: WriteContext,
  file: { path: string; nativeBinding: string | undefined },
  input: unknown,
  options: { replace?: boolean; helper?: boolean },
  /** Called with the helper's exit (its WAL checkpoint), whether the import succeeds or not. */
  onBackground: (work: Promise<unknown>) => void,
): ImportSummary {
  const { db } = ctx;
  // Into an empty store the import checks every reference itself (memory-import.ts), so SQLite's
  // per-row foreign key lookups are skipped; the pragma only takes effect outside a transaction.
  const bulk = isEmptyStore(db);
  const helper = bulk && file.path !== ':memory:' && (options.helper ?? rowCount(input) >= BULK_HELPER_MIN_ROWS) ? BulkLoadHelper.spawn(db, file.path, file.nativeBinding) : null;
  let summary: ImportSummary | undefined;
  try {
    // The worker starts on the rows while they are validated here: it only fills a scratch
    // database, which is used only if the document passes every check below.
    helper?.load(input);
    const doc = parseExport(input);
    if (bulk) db.pragma('foreign_keys = OFF');
    // The worker checkpoints after the commit, so the commit itself does not.
    if (helper) db.pragma('wal_autocheckpoint = 0');
    // One write: the slots the document's facts joined are resolved once, when it commits (write-batch.ts).
    summary = db.transaction(() => {
      ctx.slots.begin();
      const imported = importMemory(ctx, doc, options.replace ?? false, helper);
      ctx.slots.commit();
      return imported;
    })();
    flushFullText(db);
  } finally {
    if (bulk) db.pragma('foreign_keys = ON');
    if (helper) {
      db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      helper.finish(summary ? { dbPath: file.path } : null);
      onBackground(helper.exited);
    }
  }
  return summary;
}

/** Facts + episodes of what looks like an export document (before it is validated). */
function rowCount(input: unknown): number {
  if (typeof input !== 'object' || input === null) return 0;
  const { facts, episodes } = input as { facts?: unknown; episodes?: unknown };
  return (Array.isArray(facts) ? facts.length : 0) + (Array.isArray(episodes) ? episodes.length : 0);
}
