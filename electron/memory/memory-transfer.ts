/**
 * Memory's transfer: the whole memory out as one export document (streamed from one snapshot) and
 * back in (checked whole, then written in one transaction: transfer/import-into.ts).
 */
import type { MemoryExport } from '../../shared/memory-schema';
import type { MemoryKernel } from './memory-kernel';
import { flushFullText } from './text-search/fts-index';
import type { RecordProgress } from './transfer/export-records';
import { importFileInto, importFileNow, importInto, previewImport, previewImportFile, type ImportFileOptions, type ImportPreview, type ImportSummary } from './transfer/import-into';
import { exportMemory, openExportStream, type ExportStream } from './transfer/memory-export';

export class MemoryTransfer {
  /** Exports being read (openExport): ended when the memory closes. */
  private readonly openExports = new Set<ExportStream>();

  constructor(private readonly kernel: MemoryKernel) {}

  /** The whole export document as one object: for small memories and tests (the doors stream it: openExport). */
  export(): MemoryExport {
    return exportMemory(this.kernel.store.db, this.kernel.clock.now());
  }

  /** The export document in pieces, read from one snapshot while the memory goes on (memory-export.ts); close() it when done. */
  openExport(chunkChars?: number): ExportStream {
    const stream: ExportStream = openExportStream(this.kernel.store.db, this.kernel.clock.now(), { chunkChars, nativeBinding: this.kernel.nativeBinding, onClose: () => this.openExports.delete(stream) });
    this.openExports.add(stream);
    return stream;
  }

  /** What importing this document would do, without doing it. */
  previewImport(document: unknown): ImportPreview {
    return previewImport(this.kernel.store.db, document);
  }

  /**
   * Validates the whole document, then imports it in one transaction (see transfer/import-into.ts);
   * a large import into an empty store checkpoints in the background: Memory's `settled()` waits for that.
   */
  import(input: unknown, options: { replace?: boolean; helper?: boolean } = {}): ImportSummary {
    const { kernel } = this;
    flushFullText(kernel.store.db);
    const summary = importInto(kernel.store, { path: kernel.path, nativeBinding: kernel.nativeBinding }, input, options, (work) => kernel.inBackground(work));
    kernel.emit({ kind: 'imported', reason: 'import', summary });
    return summary;
  }

  /** What importing this export file would do, read record by record (import-preview.ts). */
  previewFile(path: string, options: { label: string; signal?: AbortSignal; onProgress?: (p: RecordProgress) => void }): Promise<ImportPreview> {
    return previewImportFile(this.kernel.store.db, path, options);
  }

  /**
   * Imports an export file of any size, never held whole: checked record by record (progress,
   * cancel: `signal`), then written in one transaction as it is read again (import-into.ts).
   */
  async importFile(path: string, options: ImportFileOptions): Promise<ImportSummary> {
    const { kernel } = this;
    flushFullText(kernel.store.db);
    const summary = await importFileInto(kernel.store, { path: kernel.path, nativeBinding: kernel.nativeBinding }, path, options, (work) => kernel.inBackground(work));
    kernel.emit({ kind: 'imported', reason: 'import', summary });
    return summary;
  }

  /** The same, all at once (the `tempora` command, where a Ctrl-C ends the process before the import commits). */
  importFileNow(path: string, options: ImportFileOptions): ImportSummary {
    const { kernel } = this;
    flushFullText(kernel.store.db);
    const summary = importFileNow(kernel.store, { path: kernel.path, nativeBinding: kernel.nativeBinding }, path, options, (work) => kernel.inBackground(work));
    kernel.emit({ kind: 'imported', reason: 'import', summary });
    return summary;
  }

  /** Ends the exports still being read (their snapshots and connections): the memory is closing. */
  closeExports(): void {
    for (const stream of [...this.openExports]) stream.close();
  }
}
