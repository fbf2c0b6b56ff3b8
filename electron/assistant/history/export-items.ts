/**
 * The items of an export's top-level array, one at a time, in bounded memory whatever the file
 * holds: the JSON is tokenised as it is read, every string, key and number is packed here with a
 * cap (a 300 MB message never becomes a 300 MB string: a string keeps at most `stringChars`
 * characters, which is one more than a message may keep, so that the cut can be seen and counted),
 * and an item whose text passes `itemChars` in all is not assembled further: it comes back as
 * `tooLarge`, with nothing of it kept. A top-level value that is not an array is refused in words.
 */
import type { Readable } from 'node:stream';
import Assembler from 'stream-json/assembler.js';
import { jsonParser } from 'stream-json/core/parser.js';

export interface ItemLimits {
  /** Characters a string keeps; the rest is dropped as it is read. */
  stringChars: number;
  /** Characters (strings, keys, numbers, and a few per token) an item may hold before it is left out. */
  itemChars: number;
}

export type ExportItem = { key: number; tooLarge: false; value: unknown } | { key: number; tooLarge: true };

/** The top-level value is not an array: `found` says what it is ("an object", "a string" …). */
export class NotAListError extends Error {
  constructor(readonly found: string) {
    super(`expected a list of conversations ([ … ]), as ChatGPT and Claude export them, but the file holds ${found}`);
    this.name = 'NotAListError';
  }
}

/** Keys are names: a long one is cut short (no export has one over a few dozen characters). */
const KEY_CHARS = 1_000;
/** A number longer than this is no number an export holds: it is read as NaN (and refused where it matters). */
const NUMBER_CHARS = 400;
/** What each token costs an item beyond its text (the object, the array slot). */
const TOKEN_CHARS = 16;

const FOUND: Record<string, string> = {
  startObject: 'an object ({ … })',
  startString: 'a string',
  startNumber: 'a number',
  nullValue: 'null',
  trueValue: 'true',
  falseValue: 'false',
};

interface Token {
  name: string;
  value?: string | null | boolean;
}

/**
 * The parser's core, called directly on decoded text (no stream per token: a token costs a function
 * call, not an async step): text in, its tokens out; `END` (stream-chain's "none") flushes it.
 */
const END = Symbol.for('object-stream.none');
const MANY = Symbol.for('object-stream.many');
type Tokenize = (text: string | typeof END) => unknown;

function tokensOf(out: unknown): readonly Token[] {
  if (out === END) return [];
  if (typeof out === 'object' && out !== null && (out as Record<symbol, unknown>)[MANY] === 1) return (out as { values: Token[] }).values;
  return [out as Token];
}

export async function* exportItems(text: Readable, limits: ItemLimits): AsyncGenerator<ExportItem> {
  const tokenize = jsonParser({ packValues: false, streamValues: true }) as unknown as Tokenize;
  const items = new ItemAssembler(limits);
  try {
    let first = true;
    for await (const piece of text as AsyncIterable<string>) {
      // A byte-order mark (Notepad and some tools write one) is not part of the JSON.
      const chunk = first && piece.startsWith('\uFEFF') ? piece.slice(1) : piece;
      first = false;
      for (const token of tokensOf(tokenize(chunk))) items.take(token);
      yield* items.drain();
    }
    for (const token of tokensOf(tokenize(END))) items.take(token);
    items.end();
    yield* items.drain();
  } finally {
    text.destroy();
  }
}

/** Tokens in, the top-level array's items out (as `drain` gives them), each within the limits. */
class ItemAssembler {
  private depth = 0; // containers open, the top-level array included
  private started = false;
  private key = 0;
  private asm: Assembler | null = null;
  private spent = 0;
  private skipping = false;
  private packed: string | null = null; // a string, key or number being packed
  private cap = 0;
  private done: ExportItem[] = [];

  constructor(private readonly limits: ItemLimits) {}

  drain(): ExportItem[] {
    const items = this.done;
    this.done = [];
    return items;
  }

  end(): void {
    if (!this.started) throw new NotAListError('nothing');
  }

  take(token: Token): void {
    const name = token.name;
    if (!this.started) {
      if (name !== 'startArray') throw new NotAListError(FOUND[name] ?? 'something else');
      this.started = true;
      this.depth = 1;
      return;
    }
    if (name === 'startObject' || name === 'startArray') this.depth++;
    else if (name === 'endObject' || name === 'endArray') this.depth--;
    if (this.depth === 0) return; // the end of the top-level array
    if (this.skipping) {
      if (this.depth === 1 && (name === 'endObject' || name === 'endArray' || name === 'endString' || name === 'endNumber' || name.endsWith('Value'))) {
        this.skipping = false;
        this.done.push({ key: this.key++, tooLarge: true });
      }
      return;
    }
    let packedToken: Token | null = null;
    switch (name) {
      case 'startString':
      case 'startKey':
      case 'startNumber':
        this.packed = '';
        this.cap = name === 'startString' ? this.limits.stringChars : name === 'startKey' ? KEY_CHARS : NUMBER_CHARS + 1;
        break;
      case 'stringChunk':
      case 'numberChunk':
        if (this.packed !== null && this.packed.length < this.cap) {
          // Only what is kept counts: a long message is cut, not a reason to leave its conversation out.
          const kept = (token.value as string).slice(0, this.cap - this.packed.length);
          this.packed += kept;
          this.spent += kept.length;
        }
        break;
      case 'endString':
        packedToken = { name: 'stringValue', value: this.packed ?? '' };
        break;
      case 'endKey':
        packedToken = { name: 'keyValue', value: this.packed ?? '' };
        break;
      case 'endNumber':
        packedToken = { name: 'numberValue', value: this.packed !== null && this.packed.length <= NUMBER_CHARS ? this.packed : 'NaN' };
        break;
      default:
        packedToken = token;
    }
    if (packedToken === null) {
      if (this.spent > this.limits.itemChars) this.leaveOut();
      return;
    }
    this.packed = null;
    this.spent += TOKEN_CHARS;
    this.asm ??= new Assembler();
    this.asm.consume(packedToken as Parameters<Assembler['consume']>[0]);
    if (this.asm.done) {
      const value: unknown = this.asm.current;
      this.asm = null;
      this.spent = 0;
      this.done.push({ key: this.key++, tooLarge: false, value });
    } else if (this.spent > this.limits.itemChars) this.leaveOut();
  }

  /** Drops what was assembled of the item; the rest of it is read past. */
  private leaveOut(): void {
    this.asm = null;
    this.packed = null;
    this.spent = 0;
    this.skipping = true;
  }
}
