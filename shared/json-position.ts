/**
 * Where a JSON text stops being JSON, as a line and a column: JSON.parse says a character offset at
 * best ("at position 2841") and sometimes nothing at all ("Unexpected token 'o', "…" is not valid
 * JSON"), which is no help in a hand-edited export of 10,000 lines. A small scanner following the
 * JSON grammar finds the offset of the first character that cannot be there.
 */

/** The 1-based line and column (in characters) of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: end - start + 1 };
}

/** The offset of the first character at which `text` is not JSON (text.length for an early end); null when it is JSON. */
export function jsonErrorOffset(text: string): number | null {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (at = i): never => {
    throw new Offset(at);
  };
  const literal = (word: string) => {
    for (const ch of word) if (text[i++] !== ch) fail(i - 1);
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const code = text.charCodeAt(i);
      if (code === 0x22) return void i++;
      if (code < 0x20) fail();
      if (code === 0x5c) {
        const next = text[i + 1];
        if (next === 'u') {
          // Where V8 says: the first of the four that is not a hex digit.
          for (let k = i + 2; k < i + 6; k++) if (!/[0-9a-fA-F]/.test(text[k] ?? '')) fail(k);
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail(i + 1);
      } else i++;
    }
  };
  const digit = () => i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39;
  const digits = () => {
    if (!digit()) fail();
    while (digit()) i++;
  };
  // Character by character, so that the place is the first character that cannot continue it.
  const number = () => {
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else digits();
    if (text[i] === '.') {
      i++;
      digits();
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      digits();
    }
  };
  const value = (depth: number): void => {
    if (depth > 2_000) fail(); // deeper than any export: said there, not overflowing the stack
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail();
  };
  try {
    value(0);
    ws();
    return i < text.length ? i : null;
  } catch (error) {
    if (error instanceof Offset) return error.offset;
    throw error;
  }
}

class Offset extends Error {
  constructor(readonly offset: number) {
    super(`not JSON at ${offset}`);
  }
}

/**
 * JSON.parse's complaint with the place said as "line L, column C" ("line 3, column 5: Expected
 * double-quoted property name"); its own "at position N" is dropped, and newlines quoted in it are escaped.
 */
export function describeJsonError(text: string, error: unknown): string {
  const message = ((error as Error).message ?? String(error))
    .replace(/\s*in JSON at position \d+(?: \(line \d+ column \d+\))?/, '')
    .replace(/\s*at position \d+/, '')
    .replace(/\r?\n/g, '\\n');
  const offset = jsonErrorOffset(text) ?? Number(/position (\d+)/.exec((error as Error).message ?? '')?.[1] ?? text.length);
  const { line, column } = lineAndColumn(text, offset);
  return `line ${line}, column ${column}: ${message}`;
}
