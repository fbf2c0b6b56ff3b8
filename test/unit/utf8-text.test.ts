/** Where bytes stop being UTF-8 (shared/utf8-text.ts): the place a refused file is named by. */
import { describe, expect, it } from 'vitest';
import { endsMidCharacter, firstNotUtf8, lineOfByte } from '../../shared/utf8-text';

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

describe('firstNotUtf8', () => {
  it('is -1 for UTF-8, also when the last character is cut short by the end (the next read continues it)', () => {
    expect(firstNotUtf8(bytes('東京 Kyoto'))).toBe(-1);
    expect(firstNotUtf8(bytes('ab', [0xe6, 0x9d]))).toBe(-1);
    expect(firstNotUtf8(new Uint8Array())).toBe(-1);
  });

  it('names the first byte no character can start or continue there', () => {
    // 東京 in Shift_JIS after three ASCII bytes: 0x93 cannot start a character.
    expect(firstNotUtf8(bytes('abc', [0x93, 0x8c, 0x8b, 0x9e]))).toBe(3);
    expect(firstNotUtf8(bytes([0xff], 'abc'))).toBe(0);
    // A three-byte character broken at its second byte: the fault is that byte.
    expect(firstNotUtf8(bytes('x', [0xe6, 0x41, 0x41]))).toBe(2);
    // An overlong encoding of "/" (C0 AF) and a surrogate (ED A0 80) are not UTF-8.
    expect(firstNotUtf8(bytes('ok', [0xc0, 0xaf]))).toBe(2);
    expect(firstNotUtf8(bytes('ok', [0xed, 0xa0, 0x80]))).toBe(3);
  });

  it('at the end of the text, a character cut short is a fault at its first byte', () => {
    expect(firstNotUtf8(bytes('ab', [0xe6, 0x9d]), { atEnd: true })).toBe(2);
    expect(firstNotUtf8(bytes('a\nb\n', [0xf0, 0x9f, 0x98]), { atEnd: true })).toBe(4);
    expect(firstNotUtf8(bytes('東京'), { atEnd: true })).toBe(-1);
    expect(firstNotUtf8(bytes('x', [0xe6, 0x41, 0x41]), { atEnd: true })).toBe(2);
  });

  it('endsMidCharacter: only a character cut short by the end, nothing else wrong', () => {
    expect(endsMidCharacter(bytes('ab', [0xe6, 0x9d]))).toBe(true);
    expect(endsMidCharacter(bytes('東京'))).toBe(false);
    expect(endsMidCharacter(bytes([0x93], 'x', [0xe6, 0x9d]))).toBe(false);
    expect(endsMidCharacter(bytes('x', [0xe6, 0x41]))).toBe(false);
  });

  it('lineOfByte counts the newlines before the byte', () => {
    const text = bytes('a\nb\n', [0x93], '\n');
    expect(lineOfByte(text, firstNotUtf8(text))).toBe(3);
    expect(lineOfByte(text, 0)).toBe(1);
  });
});
