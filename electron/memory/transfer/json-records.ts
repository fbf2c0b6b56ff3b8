/**
 * A JSON document read piece by piece, record by record: the top-level object's members are found
 * by a small scanner, and each value — each element of a member that is an array (a fact, an
 * episode…), each other member whole — is parsed by JSON.parse on its own text. So a document of a
 * million records never needs its text as one string, and each record costs what JSON.parse costs
 * (several times faster than a token stream). A fault is placed by line and column in the whole
 * document, whether the scanner finds it or JSON.parse does inside a record.
 */
import { describeJsonError, jsonFaultWords } from '../../../shared/json-position';

/** Where and why the text stops being JSON: "line 4, column 13: Unexpected token ','". */
export class JsonFault extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = 'JsonFault';
  }
}

type State = 'start' | 'firstKey' | 'key' | 'colon' | 'value' | 'firstElement' | 'element' | 'elementComma' | 'comma' | 'after';
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** What ends a run of plain characters inside a string (a control character: JSON.parse then says it is not allowed). */
// eslint-disable-next-line no-control-regex
const STRING_STOP = /["\\\u0000-\u001f]/g;
/** The characters a JSON value can begin with. */
const VALUE_START = /[[{"\-0-9tfn]/;

/**
 * Members whose array is handed over element by element instead of being kept: `onElement` gets
 * each element of a top-level member named in `members` (with its index and the members read so
 * far), and the member itself is left as an empty array. So a reader holds one record at a time.
 */
export interface StreamedMembers {
  members: ReadonlySet<string>;
  onElement(member: string, value: unknown, index: number, before: Readonly<Record<string, unknown>>): void;
}

/** Feed text in pieces (`push`), then `end()` for the value. Throws JsonFault. */
export class JsonRecords {
  constructor(private readonly streamed: StreamedMembers | null = null) {}

  private state: State = 'start';
  /** The member whose elements go to `streamed` (null: they are kept), and the next element's index. */
  private streamedMember: string | null = null;
  private elementIndex = 0;
  private line = 1;
  private column = 0;
  private result: Record<string, unknown> | undefined;
  private whole: unknown;
  private key = '';
  private array: unknown[] | null = null;
  // The value being captured: its text so far, where it began, and how to tell its end.
  private capture: string[] | null = null;
  private captureKind: 'container' | 'string' | 'scalar' = 'scalar';
  private captureAt = { line: 1, column: 1 };
  /** The brackets open in a captured container, innermost last. */
  private brackets: number[] = [];
  private inString = false;
  private escaped = false;
  private onCaptured: ((value: unknown) => void) | null = null;

  push(text: string): void {
    let from = 0; // the start of the capture's part in this piece
    for (let i = 0; i < text.length; i++) {
      // Inside a captured string, up to its next quote, backslash or control character at once (no line ends there).
      if (this.capture !== null && this.inString && !this.escaped) {
        STRING_STOP.lastIndex = i;
        const stop = STRING_STOP.exec(text);
        const next = stop ? stop.index : text.length;
        this.column += next - i;
        i = next;
        if (i === text.length) break;
      }
      const code = text.charCodeAt(i);
      if (code === 0x0a) {
        this.line++;
        this.column = 0;
      } else this.column++;
      if (this.capture) {
        if (!this.captureStep(code)) continue;
        // The capture ends: with this character (a container or a string), or just before it (a scalar).
        const through = this.captureKind === 'scalar' ? i : i + 1;
        this.capture.push(text.slice(from, through));
        this.finishCapture();
        if (this.captureKind !== 'scalar') continue;
      }
      if (WHITESPACE.has(code)) continue;
      const ch = text[i]!;
      if (this.structural(ch)) from = i;
    }
    if (this.capture) this.capture.push(text.slice(from));
  }

  end(): unknown {
    if (this.capture && this.captureKind === 'scalar') this.finishCapture();
    if (this.state !== 'after') throw new JsonFault(this.line, this.column + 1, jsonFaultWords('', undefined, true));
    return this.result ?? this.whole;
  }

  /** One character outside a capture; true when it begins a capture. */
  private structural(ch: string): boolean {
    switch (this.state) {
      case 'start':
        if (ch === '{') {
          this.result = {};
          this.state = 'firstKey';
          return false;
        }
        // Not an object (so not an export): the whole value, parsed at once.
        return this.begin(ch, (value) => {
          this.whole = value;
          this.state = 'after';
        });
      case 'firstKey':
        if (ch === '}') return this.to('after');
        return this.keyStart(ch);
      case 'key':
        return this.keyStart(ch);
      case 'colon':
        if (ch !== ':') this.fault(ch, "Expected ':' after property name");
        return this.to('value');
      case 'value':
        if (ch === '[') {
          this.array = [];
          this.streamedMember = this.streamed?.members.has(this.key) ? this.key : null;
          this.elementIndex = 0;
          return this.to('firstElement');
        }
        return this.begin(ch, (value) => {
          this.set(value);
          this.state = 'comma';
        });
      case 'firstElement':
        if (ch === ']') return this.endArray();
        return this.element(ch);
      case 'element':
        return this.element(ch);
      case 'elementComma':
        if (ch === ',') return this.to('element');
        if (ch === ']') return this.endArray();
        return this.fault(ch, "Expected ',' or ']' after array element");
      case 'comma':
        if (ch === ',') return this.to('key');
        if (ch === '}') return this.to('after');
        return this.fault(ch, "Expected ',' or '}' after property value");
      case 'after':
        throw new JsonFault(this.line, this.column, jsonFaultWords('Unexpected non-whitespace character after JSON', ch, false));
    }
  }

  private to(state: State): false {
    this.state = state;
    return false;
  }

  private keyStart(ch: string): boolean {
    if (ch !== '"') this.fault(ch, 'Expected double-quoted property name');
    return this.begin(ch, (key) => {
      this.key = key as string;
      this.state = 'colon';
    });
  }

  private element(ch: string): boolean {
    return this.begin(ch, (value) => {
      if (this.streamedMember === null) this.array!.push(value);
      else this.streamed!.onElement(this.streamedMember, value, this.elementIndex++, this.result!);
      this.state = 'elementComma';
    });
  }

  private endArray(): false {
    this.set(this.array);
    this.array = null;
    this.streamedMember = null;
    return this.to('comma');
  }

  /** A member, as JSON.parse would make it ("__proto__" included, as an own property). */
  private set(value: unknown): void {
    Object.defineProperty(this.result, this.key, { value, enumerable: true, writable: true, configurable: true });
  }

  private begin(ch: string, then: (value: unknown) => void): true {
    if (!VALUE_START.test(ch)) this.fault(ch);
    this.capture = [];
    this.captureKind = ch === '{' || ch === '[' ? 'container' : ch === '"' ? 'string' : 'scalar';
    this.captureAt = { line: this.line, column: this.column };
    this.brackets = [];
    this.inString = false;
    this.escaped = false;
    this.onCaptured = then;
    // The first character is stepped like the rest (it opens the container or the string).
    this.captureStep(ch.charCodeAt(0), true);
    return true;
  }

  /** One character of a capture; true when the capture ends here. */
  private captureStep(code: number, first = false): boolean {
    if (this.captureKind === 'scalar') return !first && (WHITESPACE.has(code) || code === 0x2c || code === 0x5d || code === 0x7d);
    if (this.inString) {
      // A control character cannot be in a string: the capture ends, for JSON.parse to say so there.
      if (code < 0x20) return true;
      if (this.escaped) this.escaped = false;
      else if (code === 0x5c) this.escaped = true;
      else if (code === 0x22) {
        this.inString = false;
        return this.captureKind === 'string';
      }
      return false;
    }
    if (code === 0x22) this.inString = true;
    else if (code === 0x7b || code === 0x5b) this.brackets.push(code);
    else if (code === 0x7d || code === 0x5d) {
      // A mismatched bracket ends the capture too: JSON.parse then says what is wrong there.
      const open = this.brackets.pop();
      return this.brackets.length === 0 || open !== code - 2;
    }
    return false;
  }

  private finishCapture(): void {
    const text = this.capture!.join('');
    const then = this.onCaptured!;
    this.capture = null;
    this.onCaptured = null;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.faultInside(text, error);
    }
    then(value);
  }

  /** JSON.parse's complaint about a captured value, placed in the whole document. */
  private faultInside(text: string, error: unknown): JsonFault {
    const match = /^line (\d+), column (\d+): (.*)$/s.exec(describeJsonError(text, error, null));
    if (!match) return new JsonFault(this.captureAt.line, this.captureAt.column, jsonFaultWords((error as Error).message, undefined, false));
    const line = Number(match[1]);
    const column = Number(match[2]);
    // V8 quotes the text around the fault (`…, "tempora" is not valid JSON`): the line and column say where already.
    const reason = match[3]!.replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '');
    return new JsonFault(this.captureAt.line + line - 1, line === 1 ? this.captureAt.column + column - 1 : column, reason);
  }

  /** `expected`: what JSON.parse would say was expected there, for the same words. */
  private fault(ch: string, expected = `Unexpected token '${ch}'`): never {
    throw new JsonFault(this.line, this.column, jsonFaultWords(expected, ch, false));
  }
}
