/**
 * An export document as pretty JSON, in pieces: the same text as JSON.stringify(doc, null, 2), but
 * one record at a time, so a memory of a million facts (a document of more than a gigabyte, past
 * the longest string JavaScript can hold) can still be written to a file or a download. The
 * records may come from arrays (exportJsonChunks) or from any iterables — the memory's export
 * stream reads them from SQLite one row at a time (exportSectionChunks), never holding the document.
 */
import type { MemoryExport } from './memory-schema';

const INDENT = '    ';

/** A document's values in its own key order: plain values, or its lists as any iterables. */
export type ExportSections = { [K in keyof MemoryExport]: MemoryExport[K] extends readonly (infer R)[] ? Iterable<R> : MemoryExport[K] };

/** The document's pretty JSON in pieces of about `chunkBytes` characters; joined, they equal JSON.stringify(doc, null, 2). */
export function exportJsonChunks(doc: MemoryExport, chunkBytes = 1 << 20): Generator<string> {
  return exportSectionChunks(doc, chunkBytes);
}

/**
 * The same pieces from a document whose lists are iterables, read once each, in key order; the
 * pieces are cut only between records (about `chunkBytes` characters each, a record never split).
 */
export function* exportSectionChunks(doc: ExportSections, chunkBytes = 1 << 20): Generator<string> {
  let buffer = '{';
  let first = true;
  for (const [key, value] of Object.entries(doc) as [string, unknown][]) {
    buffer += `${first ? '' : ','}\n  ${JSON.stringify(key)}: `;
    first = false;
    if (typeof value !== 'object' || value === null || !(Symbol.iterator in value) || typeof value === 'string') {
      buffer += JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
      continue;
    }
    let count = 0;
    for (const record of value as Iterable<unknown>) {
      buffer += `${count === 0 ? '[' : ','}\n${INDENT}${JSON.stringify(record, null, 2).replace(/\n/g, `\n${INDENT}`)}`;
      count++;
      if (buffer.length >= chunkBytes) {
        yield buffer;
        buffer = '';
      }
    }
    buffer += count === 0 ? '[]' : '\n  ]';
  }
  buffer += '\n}';
  yield buffer;
}
