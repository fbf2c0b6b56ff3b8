/**
 * An export document as its records, section by section, each checked for shape and in the current
 * version's form (its predicate in the one vocabulary: canonical-predicates.ts), handed one at a
 * time to a visitor — from a document already in memory (documentRecords) or from a file of any
 * size (ExportFile), read again for each pass of an import and never held: the reader keeps one
 * record and the document's few header members (json-records.ts). A file read record by record must
 * name its version before its records and keep the sections in the order an export writes them
 * (conversations, episodes, entities, facts, claims: each section refers only to those before it);
 * one that does not is said so (NotStreamable), and the import reads it whole instead.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { ZodError, type z } from 'zod';
import { EXPORT_SECTIONS, isExportRecord, type ExportSection } from '../../../shared/export-check';
import {
  claimRecord,
  conversationRecord,
  describeZodError,
  entityRecord,
  episodeRecord,
  episodeRecordV1,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  factRecord,
  factRecordV1,
  type ClaimRecord,
  type ConversationRecord,
  type EntityRecord,
  type EpisodeRecord,
  type FactRecord,
  type MemoryExport,
} from '../../../shared/memory-schema';
import { MemoryInputError } from '../memory-errors';
import { canonicalPredicate } from './canonical-predicates';
import { cutMidCharacter, NotJsonError, notUtf8 } from './json-file-stream';
import { NotByteReadable, JsonRecordBytes } from './json-record-bytes';
import { countingTold, drain, drainAsync, skippingTold } from './record-reading';
import { JsonFault, JsonRecords, type StreamedMembers } from './json-records';
import { parseExport } from './parse-export';
import { endsMidCharacter, firstNotUtf8, wholeCharactersEnd } from '../../../shared/utf8-text';

/** What a pass does with each record; a section it has no method for is read past. */
export interface RecordVisitor {
  conversation?(c: ConversationRecord, i: number): void;
  episode?(e: EpisodeRecord, i: number): void;
  entity?(e: EntityRecord, i: number): void;
  fact?(f: FactRecord, i: number): void;
  claim?(c: ClaimRecord, i: number): void;
}

/** How far a read is: records handed over, bytes read of the file (0 of 0 for a document in memory). */
export interface RecordProgress {
  records: number;
  bytes: number;
  totalBytes: number;
}

export interface ReadRecordsOptions {
  /** Told after each piece of the file (256 KiB). */
  onProgress?: (progress: RecordProgress) => void;
}

/** A document's records, read as often as an import needs. Throws MemoryInputError (a record's shape), NotJsonError, NotStreamable. */
export interface ExportRecords {
  read(visitor: RecordVisitor, options?: ReadRecordsOptions): void;
}

/** The file is JSON but not in the order a record-by-record read needs (see the header). */
export class NotStreamable extends Error {
  constructor(reason: string) {
    super(`the export cannot be read record by record: ${reason}`);
    this.name = 'NotStreamable';
  }
}

/** The records of a document in memory, already checked whole (parseExport). */
export function documentRecords(doc: MemoryExport): ExportRecords {
  return {
    read(visitor) {
      doc.conversations.forEach((c, i) => visitor.conversation?.(c, i));
      doc.episodes.forEach((e, i) => visitor.episode?.(e, i));
      doc.entities.forEach((e, i) => visitor.entity?.(e, i));
      if (visitor.fact) doc.facts.forEach((f, i) => visitor.fact!(withCanonicalPredicate(f), i));
      doc.claims.forEach((c, i) => visitor.claim?.(c, i));
    },
  };
}

function withCanonicalPredicate(f: FactRecord): FactRecord {
  const predicate = canonicalPredicate(f.predicate);
  return predicate === f.predicate ? f : { ...f, predicate };
}

const CHUNK_BYTES = 256 * 1024;
const BOM = [0xef, 0xbb, 0xbf];
const SECTIONS = new Set<string>(EXPORT_SECTIONS);

/** An export file read record by record, as often as asked. */
export class ExportFile implements ExportRecords {
  /** `label`: how the file is named in errors ("export.json"). */
  constructor(
    readonly path: string,
    readonly label: string,
  ) {}

  /**
   * The whole read at once (inside the import's transaction): over the file's bytes
   * (json-record-bytes.ts), or — for a document not in the exporter's shape, a faulty one included —
   * again as text, the records already told skipped, so the visitor hears each once and in order.
   */
  read(visitor: RecordVisitor, options: ReadRecordsOptions = {}): void {
    const told = countingTold(visitor);
    try {
      return drain(this.reader(told.visitor, options, true), this.pieces());
    } catch (error) {
      if (!(error instanceof NotByteReadable)) throw error;
    }
    drain(this.reader(skippingTold(visitor, told.count()), options), this.chunks());
  }

  /** The whole value, as JSON.parse would give it (a file whose records are not in an export's order). */
  readWhole(): unknown {
    const json = new JsonRecords();
    try {
      for (const chunk of this.chunks()) json.push(chunk.text);
      return json.end();
    } catch (error) {
      throw error instanceof JsonFault ? new NotJsonError(this.label, error.message) : error;
    }
  }

  /** The same read, letting the event loop run after each piece: `signal` stops it (ReadCancelled). */
  async scan(visitor: RecordVisitor, options: ReadRecordsOptions & { signal?: AbortSignal } = {}): Promise<void> {
    const told = countingTold(visitor);
    try {
      return await drainAsync(this.reader(told.visitor, options, true), this.pieces(), options.signal);
    } catch (error) {
      if (!(error instanceof NotByteReadable)) throw error;
    }
    await drainAsync(this.reader(skippingTold(visitor, told.count()), options), this.chunks(), options.signal);
  }

  /** The file's bytes in pieces, a leading byte-order mark skipped; each piece is overwritten by the next. */
  private *pieces(): Generator<{ data: Buffer; bytes: number }> {
    const fd = openSync(this.path, 'r');
    try {
      const buffer = Buffer.alloc(CHUNK_BYTES);
      let position = 0;
      for (;;) {
        const n = readSync(fd, buffer, 0, CHUNK_BYTES, position);
        if (n === 0) return;
        const skip = position === 0 && n >= BOM.length && BOM.every((b, i) => buffer[i] === b) ? BOM.length : 0;
        position += n;
        yield { data: buffer.subarray(skip, n), bytes: n };
      }
    } finally {
      closeSync(fd);
    }
  }

  /**
   * The file's text in pieces, a leading byte-order mark skipped (as a text reader would). Each piece
   * ends after a whole UTF-8 character (the bytes of one cut by the read begin the next piece), so
   * it is decoded by Buffer's own decoder, several times faster than a StringDecoder.
   */
  private *chunks(): Generator<{ text: string; bytes: number }> {
    const fd = openSync(this.path, 'r');
    try {
      const buffer = Buffer.alloc(CHUNK_BYTES);
      let position = 0;
      let carried = 0;
      for (;;) {
        const n = readSync(fd, buffer, carried, CHUNK_BYTES - carried, position);
        const end = carried + n;
        if (n === 0) {
          // What is left is a character begun and not finished (a file cut short), or bytes that are no UTF-8.
          if (carried && !isUtf8(buffer.subarray(0, carried))) throw (endsMidCharacter(buffer.subarray(0, carried)) ? cutMidCharacter : notUtf8)(this.label, position - carried);
          if (carried) yield { text: buffer.toString('utf8', 0, carried), bytes: 0 };
          return;
        }
        const skip = position === 0 && end >= BOM.length && BOM.every((b, i) => buffer[i] === b) ? BOM.length : 0;
        position += n;
        const whole = wholeCharactersEnd(buffer, end);
        const piece = buffer.subarray(skip, whole);
        if (!isUtf8(piece)) throw notUtf8(this.label, position - n - carried + skip + Math.max(0, firstNotUtf8(piece)));
        yield { text: piece.toString('utf8'), bytes: n };
        buffer.copy(buffer, 0, whole, end);
        carried = end - whole;
      }
    } finally {
      closeSync(fd);
    }
  }

  private reader(visitor: RecordVisitor, { onProgress }: ReadRecordsOptions, overBytes = false): { push(chunk: { text?: string; data?: Buffer; bytes: number }): void; end(): void } {
    const totalBytes = statSync(this.path).size;
    let bytes = 0;
    let records = 0;
    let version = 0;
    let lastSection = -1;
    const faults = new ShapeFaults();
    const streamed: StreamedMembers = {
      members: SECTIONS,
      onElement: (member, value, index, before) => {
        const section = member as ExportSection;
        if (version === 0) version = headerVersion(before);
        const order = EXPORT_SECTIONS.indexOf(section);
        if (order < lastSection) throw new NotStreamable(`${section} comes after ${EXPORT_SECTIONS[lastSection]}`);
        if (section === 'claims' && version !== EXPORT_VERSION) throw new NotStreamable(`a version-${version} document has no claims`);
        lastSection = order;
        records++;
        const record = checkedRecord(section, value, index, version, faults);
        // Past a record of the wrong shape, only the shapes are checked: what the others would say of it is beside the point.
        if (record !== null && !faults.any) deliver(visitor, section, record, index);
      },
    };
    const bytesJson = overBytes ? new JsonRecordBytes(streamed) : null;
    const json = bytesJson ? null : new JsonRecords(streamed);
    const fault = (error: unknown) => (error instanceof JsonFault ? new NotJsonError(this.label, error.message) : error);
    return {
      push(chunk) {
        try {
          if (bytesJson) bytesJson.push(chunk.data!);
          else json!.push(chunk.text!);
        } catch (error) {
          throw fault(error);
        }
        bytes += chunk.bytes;
        onProgress?.({ records, bytes, totalBytes });
      },
      end() {
        let header: unknown;
        try {
          header = bytesJson ? bytesJson.end() : json!.end();
        } catch (error) {
          throw fault(error);
        }
        if (faults.any) throw faults.error();
        // The members around the records (their sections now empty arrays): a fault there is said as for the whole document.
        const isObject = typeof header === 'object' && header !== null && !Array.isArray(header);
        if (!isObject || (records > 0 && (header as { version?: unknown }).version !== version)) throw new NotStreamable('the document is not one export object');
        parseExport(header);
      },
    };
  }
}

/** The version named before the first record; a document that does not name it there cannot be read record by record. */
function headerVersion(before: Readonly<Record<string, unknown>>): number {
  const { format, version } = before;
  if (format !== EXPORT_FORMAT || (version !== 1 && version !== 2 && version !== EXPORT_VERSION)) throw new NotStreamable('its format and version do not come before its records');
  return version;
}

const SCHEMAS: Record<ExportSection, (version: number) => z.ZodType> = {
  conversations: () => conversationRecord,
  episodes: (version) => (version === 1 ? episodeRecordV1 : episodeRecord),
  entities: () => entityRecord,
  facts: (version) => (version === 1 ? factRecordV1 : factRecord),
  claims: () => claimRecord,
};

/** Records of the wrong shape a read goes on past, so that one error names them all (as the whole document's check did); at this many it stops. */
export const SHAPE_FAULTS_SAID = 200;

/** The records of the wrong shape a read has met, each fault naming its field (`facts.3.valid_at: …`). */
class ShapeFaults {
  private readonly issues: z.core.$ZodIssue[] = [];

  get any(): boolean {
    return this.issues.length > 0;
  }

  add(issues: readonly z.core.$ZodIssue[]): void {
    this.issues.push(...issues);
    if (this.issues.length >= SHAPE_FAULTS_SAID) throw this.error();
  }

  error(): MemoryInputError {
    const placed = new ZodError(this.issues);
    return new MemoryInputError(`not a valid Tempora export: ${describeZodError(placed)}`, this.issues[0]?.path.join('.') ?? '');
  }
}

/** A record as the current version has it; null for one of the wrong shape, whose faults go to `faults`. */
function checkedRecord(section: ExportSection, value: unknown, index: number, version: number, faults: ShapeFaults): unknown {
  let record = value;
  if (!isExportRecord(section, value, version)) {
    const parsed = SCHEMAS[section](version).safeParse(value, { reportInput: true }); // the value given, for the words (it was …)
    if (!parsed.success) {
      faults.add(parsed.error.issues.map((issue) => ({ ...issue, path: [section, index, ...issue.path] })));
      return null;
    }
    record = parsed.data;
  }
  if (version !== 1) return record;
  if (section === 'episodes') return { ...(record as object), utc_offset: null, time_zone: null };
  if (section === 'facts') {
    const f = record as FactRecord;
    return { ...f, valid_at_precision: 'instant', invalid_at_precision: f.invalid_at === null ? null : 'instant' };
  }
  return record;
}

function deliver(visitor: RecordVisitor, section: ExportSection, record: unknown, i: number): void {
  switch (section) {
    case 'conversations':
      return visitor.conversation?.(record as ConversationRecord, i);
    case 'episodes':
      return visitor.episode?.(record as EpisodeRecord, i);
    case 'entities':
      return visitor.entity?.(record as EntityRecord, i);
    case 'facts':
      if (visitor.fact) visitor.fact(withCanonicalPredicate(record as FactRecord), i);
      return;
    case 'claims':
      return visitor.claim?.(record as ClaimRecord, i);
  }
}
