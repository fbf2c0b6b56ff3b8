/**
 * The records of an export found over the file's bytes (issue 29: the import reads its file twice).
 * One loop over each piece's bytes tracks strings and brackets; each record's bytes alone are decoded
 * and parsed by JSON.parse, and what lies around the records (the header, the brackets of the empty
 * sections) is kept as a small skeleton parsed at the end. Only a document in the shape the exporter
 * writes is read this way: anything else — a fault, a record that is not an object, a member it
 * cannot name — throws NotByteReadable before saying anything, and the reader reads the file again
 * with JsonRecords, which places the fault by line and column.
 */
import { isUtf8 } from 'node:buffer';
import type { StreamedMembers } from './json-records';

/** This document is not read here: JsonRecords reads it (and says what is wrong with it, if anything). */
export class NotByteReadable extends Error {
  constructor() {
    super('not read over bytes');
    this.name = 'NotByteReadable';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
/** The key of the array just opened, at the skeleton's end: `"facts": [`. */
const OPENED_KEY = /"((?:[^"\\]|\\.)*)"\s*:\s*\[$/s;

type Where = 'skeleton' | 'between' | 'record';

/** Feed the file's bytes in pieces (`push`, each piece free to be reused after), then `end()` for the value around the records. */
export class JsonRecordBytes {
  constructor(private readonly streamed: StreamedMembers) {}

  private where: Where = 'skeleton';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private begun = false;
  /** Inside a streamed array: a record ended and a comma or the array's end must come next. */
  private afterRecord = false;
  private member = '';
  private index = 0;
  private before: Record<string, unknown> = {};
  private readonly skeleton: Buffer[] = [];
  private readonly record: Buffer[] = [];

  push(bytes: Buffer): void {
    let from = 0; // where the current run of skeleton or record bytes began in this piece
    for (let i = 0; i < bytes.length; i++) {
      if (this.inString) {
        i = this.stringEnd(bytes, i);
        continue;
      }
      const b = bytes[i]!;
      if (this.where === 'between') {
        if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
        if (b === OPEN_OBJECT && !this.afterRecord) {
          this.where = 'record';
          this.depth++;
          from = i;
        } else if (b === COMMA && this.afterRecord) this.afterRecord = false;
        else if (b === CLOSE_ARRAY && (this.afterRecord || this.index === 0)) {
          this.where = 'skeleton';
          this.depth--;
          from = i;
        } else throw new NotByteReadable();
        continue;
      }
      if (this.depth === 0) {
        if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) continue;
        // One object, and nothing after it.
        if (this.begun || b !== OPEN_OBJECT) throw new NotByteReadable();
        this.begun = true;
      }
      if (b === QUOTE) this.inString = true;
      else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        this.depth++;
        if (this.where === 'skeleton' && this.depth === 2 && b === OPEN_ARRAY && this.opensStreamed(bytes, from, i)) from = i + 1;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        this.depth--;
        if (this.where === 'record' && this.depth === 2) {
          this.record.push(bytes.subarray(from, i + 1));
          this.endRecord();
        }
      }
    }
    if (this.where === 'skeleton') this.skeleton.push(Buffer.from(bytes.subarray(from)));
    else if (this.where === 'record') this.record.push(Buffer.from(bytes.subarray(from)));
  }

  /**
   * Inside a string from `i`: the index of its closing quote (the string ends), or the piece's last
   * byte (it goes on in the next piece, `escaped` saying whether that piece begins escaped). Jumps
   * from quote to quote (Buffer.indexOf) instead of stepping through the text byte by byte: most of
   * an export's bytes are inside strings (at 1M facts the byte loop was 14 s of a 146 s import).
   */
  private stringEnd(bytes: Buffer, i: number): number {
    if (this.escaped) {
      this.escaped = false;
      i++;
    }
    for (let from = i; ; ) {
      const quote = bytes.indexOf(QUOTE, from);
      const stop = quote === -1 ? bytes.length : quote;
      // The backslashes just before the quote (or the piece's end), counted back to where this run began.
      let slashes = 0;
      while (stop - slashes - 1 >= i && bytes[stop - slashes - 1] === BACKSLASH) slashes++;
      if (quote === -1) {
        this.escaped = slashes % 2 === 1;
        return bytes.length - 1;
      }
      if (slashes % 2 === 0) {
        this.inString = false;
        return quote;
      }
      from = quote + 1;
    }
  }

  /** The value around the records, each streamed section an empty array (as JsonRecords leaves it). */
  end(): unknown {
    if (this.where !== 'skeleton' || this.depth !== 0 || this.inString || !this.begun) throw new NotByteReadable();
    const skeleton = Buffer.concat(this.skeleton);
    if (!isUtf8(skeleton)) throw new NotByteReadable();
    return parsed(skeleton.toString('utf8'));
  }

  /** An array opened at the top object's members: when its member is streamed, the records inside go to `onElement`. */
  private opensStreamed(bytes: Buffer, from: number, at: number): boolean {
    this.skeleton.push(Buffer.from(bytes.subarray(from, at + 1)));
    const text = Buffer.concat(this.skeleton).toString('utf8');
    const key = OPENED_KEY.exec(text);
    if (!key) throw new NotByteReadable();
    const member = parsed(`"${key[1]}"`) as string;
    if (!this.streamed.members.has(member)) {
      this.skeleton.pop();
      return false;
    }
    // The members before this one, as JsonRecords has them when the first record comes; they and
    // their commas must be whole JSON before any record is told (JsonRecords would stop there).
    const head = text.slice(0, key.index).trimEnd();
    const members = head.endsWith(',') ? head.slice(0, -1).trimEnd() : head;
    if (members === head ? !head.endsWith('{') : members.endsWith('{')) throw new NotByteReadable();
    this.before = parsed(`${members}}`) as Record<string, unknown>;
    this.member = member;
    this.index = 0;
    this.afterRecord = false;
    this.where = 'between';
    return true;
  }

  private endRecord(): void {
    const bytes = this.record.length === 1 ? this.record[0]! : Buffer.concat(this.record);
    // Not UTF-8: the text reader (json-file-stream.ts) refuses it in words.
    if (!isUtf8(bytes)) throw new NotByteReadable();
    const text = bytes.toString('utf8');
    this.record.length = 0;
    const value = parsed(text);
    if (typeof value !== 'object' || value === null) throw new NotByteReadable();
    this.where = 'between';
    this.afterRecord = true;
    this.streamed.onElement(this.member, value, this.index++, this.before);
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new NotByteReadable();
  }
}
