/**
 * The items of an export's top-level array, one at a time, in bounded memory whatever the file
 * holds: the JSON is tokenised as it is read, every string, key and number is packed here with a
 * cap (a 300 MB message never becomes a 300 MB string: a string keeps at most `stringChars`
 * characters, which is one more than a message may keep, so that the cut can be seen and counted),
 * and an item whose text passes `itemChars` in all is not assembled further: it comes back as
 * `tooLarge`, with nothing of it kept. A top-level value that is not an array is refused in words.
 */
import type { Duplex, Readable } from 'node:stream';
import Assembler from 'stream-json/assembler.js';
import parser from 'stream-json/parser.js';

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

export async function* exportItems(text: Readable, limits: ItemLimits): AsyncGenerator<ExportItem> {
  const tokens: Duplex = parser.asStream({ packValues: false, streamValues: true });
  text.on('error', (error) => tokens.destroy(error));
  text.pipe(tokens);
  let depth = 0; // containers open, the top-level array included
  let started = false;
  let key = 0;
  let asm: Assembler | null = null;
  let spent = 0;
  let skipping = false;
  let packed: string | null = null; // a string, key or number being packed
  let cap = 0;
  try {
    for await (const token of tokens as AsyncIterable<Token>) {
      const name = token.name;
      if (!started) {
        if (name !== 'startArray') throw new NotAListError(FOUND[name] ?? 'something else');
        started = true;
        depth = 1;
        continue;
      }
      if (name === 'startObject' || name === 'startArray') depth++;
      else if (name === 'endObject' || name === 'endArray') depth--;
      if (depth === 0) continue; // the end of the top-level array
      if (skipping) {
        if (depth === 1 && (name === 'endObject' || name === 'endArray' || name === 'endString' || name === 'endNumber' || name.endsWith('Value'))) {
          skipping = false;
          yield { key: key++, tooLarge: true };
        }
        continue;
      }
      let packedToken: Token | null = null;
      switch (name) {
        case 'startString':
        case 'startKey':
        case 'startNumber':
          packed = '';
          cap = name === 'startString' ? limits.stringChars : name === 'startKey' ? KEY_CHARS : NUMBER_CHARS + 1;
          break;
        case 'stringChunk':
        case 'numberChunk':
          if (packed !== null && packed.length < cap) {
            // Only what is kept counts: a long message is cut, not a reason to leave its conversation out.
            const kept = (token.value as string).slice(0, cap - packed.length);
            packed += kept;
            spent += kept.length;
          }
          break;
        case 'endString':
          packedToken = { name: 'stringValue', value: packed ?? '' };
          break;
        case 'endKey':
          packedToken = { name: 'keyValue', value: packed ?? '' };
          break;
        case 'endNumber':
          packedToken = { name: 'numberValue', value: packed !== null && packed.length <= NUMBER_CHARS ? packed : 'NaN' };
          break;
        default:
          packedToken = token;
      }
      if (packedToken === null) {
        if (spent > limits.itemChars) skipping = leaveOut();
        continue;
      }
      packed = null;
      spent += TOKEN_CHARS;
      asm ??= new Assembler();
      asm.consume(packedToken as Parameters<Assembler['consume']>[0]);
      if (asm.done) {
        const value: unknown = asm.current;
        asm = null;
        spent = 0;
        yield { key: key++, tooLarge: false, value };
      } else if (spent > limits.itemChars) skipping = leaveOut();
    }
    if (!started) throw new NotAListError('nothing');
  } finally {
    text.destroy();
    tokens.destroy();
  }

  /** Drops what was assembled of the item; the rest of it is read past. */
  function leaveOut(): true {
    asm = null;
    packed = null;
    spent = 0;
    return true;
  }
}
