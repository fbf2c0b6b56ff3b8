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
 * Why a JSON text stops being JSON, in words a person who edits the file understands, from the
 * parser's complaint (V8's JSON.parse, or the import's own scanner: "Unexpected token ','") and the
 * character found there. `atEnd`: the fault is that the text ended; `whole` names the text ("the
 * file", "the line"; null for a value taken out of a larger text, whose end is not the text's). A complaint it does not know is said as it came, without its "at position".
 */
export function jsonFaultWords(message: string, found: string | undefined, atEnd: boolean, whole: string | null = 'the file'): string {
  if (atEnd || /Unexpected end of JSON input|Unterminated string/.test(message)) {
    // A value cut out of a larger text (an import's record) ends where the record does, not the file.
    return whole === null ? 'a value is not finished here' : `${whole} ends before the JSON value does (a closing quote or brace missing?)`;
  }
  const name = 'a field\'s name must be in double quotes, as "name": value';
  if (/Expected double-quoted property name|Expected property name or '\}'/.test(message)) return found === '}' ? `${name} (a comma before the closing brace?)` : name;
  if (/Expected ':' after property name/.test(message)) return "expected ':' after the field's name";
  if (/Expected ',' or '\}' after property value/.test(message)) return "expected ',' or '}' after the value";
  if (/Expected ',' or '\]' after array element/.test(message)) return "expected ',' or ']' after the array's item";
  if (/Unexpected non-whitespace character after JSON/.test(message)) return 'more follows the end of the JSON value';
  if (/Bad control character in string literal/.test(message)) return 'a tab or line break inside quotes: write it as \\t or \\n';
  if (/Bad escaped character/.test(message)) return 'an unknown escape after a backslash (a backslash itself is written \\\\)';
  if (/Bad Unicode escape/.test(message)) return 'a \\u escape needs four hex digits';
  if (/No number after minus sign|Unterminated fractional number|Exponent part is missing a number|Unexpected number/.test(message)) return 'a number written wrongly';
  const token = /Unexpected token '(.)'|Unexpected token (.)/.exec(message);
  const ch = found ?? (token ? (token[1] ?? token[2]) : undefined);
  if (/Unexpected token/.test(message) && ch !== undefined) {
    if (ch === ',' || ch === ']' || ch === '}') return `unexpected '${ch}' (a value missing before it, or a comma too many?)`;
    if (/[A-Za-z_]/.test(ch)) return `unexpected '${ch}': text must be in double quotes`;
    return `unexpected '${ch}'`;
  }
  return message
    .replace(/\s*in JSON at position \d+(?: \(line \d+ column \d+\))?/, '')
    .replace(/\s*at position \d+/, '')
    .replace(/, (?:\.\.\.)?".*" is not valid JSON$/s, '')
    .replace(/\r?\n/g, '\\n');
}

/** Where `text` stops being JSON (line, column) and why in words, from JSON.parse's error. */
export function jsonFault(text: string, error: unknown, whole: string | null = 'the file'): { line: number; column: number; reason: string } {
  const raw = (error as Error).message ?? String(error);
  const offset = jsonErrorOffset(text) ?? Number(/position (\d+)/.exec(raw)?.[1] ?? text.length);
  const { line, column } = lineAndColumn(text, offset);
  return { line, column, reason: jsonFaultWords(raw, text[offset], offset >= text.length, whole) };
}

/**
 * JSON.parse's complaint with the place said as "line L, column C" and the fault in words ("line 3,
 * column 5: a field's name must be in double quotes, as "name": value"); its "at position N" is dropped.
 */
export function describeJsonError(text: string, error: unknown, whole: string | null = 'the file'): string {
  const { line, column, reason } = jsonFault(text, error, whole);
  return `line ${line}, column ${column}: ${reason}`;
}
