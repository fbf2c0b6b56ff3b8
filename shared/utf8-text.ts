/**
 * Where text that should be UTF-8 is not: a file saved as Shift_JIS or Latin-1 is refused naming the
 * place, never read with U+FFFD in place of what the user wrote.
 */

/**
 * The offset of the first byte at which `bytes` stops being UTF-8 (a byte no character can start or
 * continue there), or -1 when every byte is. A character cut short by the end is not a fault (the
 * next read continues it) unless `atEnd` says these are the text's last bytes: then it is one, at
 * the character's first byte. Only called once a decode has failed: a binary search over prefixes.
 */
export function firstNotUtf8(bytes: Uint8Array, options: { atEnd?: boolean } = {}): number {
  const fails = (end: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  if (!fails(bytes.length)) {
    const whole = wholeCharactersEnd(bytes, bytes.length);
    return options.atEnd && whole < bytes.length ? whole : -1;
  }
  // The shortest failing prefix ends one byte past the fault.
  let low = 0;
  let high = bytes.length;
  while (high - low > 1) {
    const mid = (low + high) >>> 1;
    if (fails(mid)) high = mid;
    else low = mid;
  }
  return high - 1;
}

/**
 * Where the last whole UTF-8 character of bytes[0, end) ends: a character whose bytes run past
 * `end` is left for the next read. Bytes that are not UTF-8 are left as they are (the decoder
 * refuses or replaces them).
 */
export function wholeCharactersEnd(bytes: Uint8Array, end: number): number {
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const byte = bytes[i]!;
    if (byte < 0x80) return end; // ASCII: everything before it is whole
    if (byte >= 0xc0) {
      const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
      return i + length > end ? i : end;
    }
  }
  return end;
}

/**
 * Whether the only bytes of `bytes` that are not UTF-8 are a character cut short by its end: a UTF-8
 * file cut off (a copy or download stopped early), which "not UTF-8, save it as UTF-8" would misname.
 */
export function endsMidCharacter(bytes: Uint8Array): boolean {
  return firstNotUtf8(bytes) === -1 && firstNotUtf8(bytes, { atEnd: true }) !== -1;
}

/** How a file cut in the middle of a character is said, by every reader ("… at byte N" may follow). */
export const ENDS_MID_CHARACTER = 'the file ends in the middle of a character';

/** The 1-based line the byte at `offset` is on. */
export function lineOfByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
