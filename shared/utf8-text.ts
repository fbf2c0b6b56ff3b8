/**
 * Where text that should be UTF-8 is not: a file saved as Shift_JIS or Latin-1 is refused naming the
 * place, never read with U+FFFD in place of what the user wrote.
 */

/**
 * The offset of the first byte at which `bytes` stops being UTF-8 (a byte no character can start or
 * continue there; a character cut short by the end is not a fault: the next read continues it), or
 * -1 when every byte is. Only called once a decode has failed: a binary search over prefixes.
 */
export function firstNotUtf8(bytes: Uint8Array): number {
  const fails = (end: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  if (!fails(bytes.length)) return -1;
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

/** The 1-based line the byte at `offset` is on. */
export function lineOfByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
  return line;
}
