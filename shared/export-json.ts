/**
 * An export document as pretty JSON, in pieces: the same text as JSON.stringify(doc, null, 2), but
 * one record at a time, so a memory of a million facts (a document of more than a gigabyte, past
 * the longest string JavaScript can hold) can still be written to a file or a download.
 */
import type { MemoryExport } from './memory-schema';

const INDENT = '    ';

/** The document's pretty JSON in pieces of about `chunkBytes` characters; joined, they equal JSON.stringify(doc, null, 2). */
export function* exportJsonChunks(doc: MemoryExport, chunkBytes = 1 << 20): Generator<string> {
  let buffer = '';
  const keys = Object.keys(doc) as (keyof MemoryExport)[];
  buffer += '{';
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const value = doc[key];
    buffer += `${k === 0 ? '' : ','}\n  ${JSON.stringify(key)}: `;
    if (!Array.isArray(value)) {
      buffer += JSON.stringify(value, null, 2).replace(/\n/g, '\n  ');
      continue;
    }
    if (value.length === 0) {
      buffer += '[]';
      continue;
    }
    buffer += '[';
    for (let i = 0; i < value.length; i++) {
      buffer += `${i === 0 ? '' : ','}\n${INDENT}${JSON.stringify(value[i], null, 2).replace(/\n/g, `\n${INDENT}`)}`;
      if (buffer.length >= chunkBytes) {
        yield buffer;
        buffer = '';
      }
    }
    buffer += '\n  ]';
  }
  buffer += '\n}';
  yield buffer;
}
