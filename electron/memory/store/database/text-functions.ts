/**
 * The SQL functions every connection registers before the schema is used (the full-text triggers
 * and migrations call them): tempora_cjk_grams, the index terms of CJK text.
 */
import type { Database } from 'better-sqlite3';

/** CJK by code point (Hiragana, Katakana, CJK ideographs and extensions, Hangul, 々〆ー). */
function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0x3130 && code <= 0x318f) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0x20000 && code <= 0x3134f) ||
    code === 0x3005 ||
    code === 0x3006
  );
}

function isHan(code: number): boolean {
  return (code >= 0x3400 && code <= 0x4dbf) || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff) || (code >= 0x20000 && code <= 0x3134f);
}

const MAYBE_CJK = /[\u1100-\u11ff\u3000-\ud7af\uf900-\ufaff\ud840-\ud87f]/;

/**
 * The index terms of CJK runs in `text`: every overlapping pair of characters, and each kanji
 * alone (父, 母 are words). Terms are space-separated for the ascii tokenizer. "" without CJK.
 * Runs on every indexed row, so it works on code points rather than Unicode-property regexes.
 */
export function cjkGrams(text: string): string {
  if (!MAYBE_CJK.test(text)) return '';
  const grams: string[] = [];
  let previous = '';
  for (const char of text.normalize('NFKC')) {
    const code = char.codePointAt(0)!;
    if (!isCjk(code)) {
      previous = '';
      continue;
    }
    if (isHan(code)) grams.push(char);
    if (previous !== '') grams.push(previous + char);
    previous = char;
  }
  return grams.join(' ');
}

export function registerTextFunctions(db: Database): void {
  db.function('tempora_cjk_grams', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? cjkGrams(text) : ''));
}
