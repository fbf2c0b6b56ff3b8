/**
 * FROZEN: used only by migration 0007_cjk_ascii_tokenizer. A copy of cjkGrams
 * (text-search/fts-index.ts) as it was when that step shipped. Never edit it, never import it from
 * anywhere else: the step must rebuild the CJK indexes tomorrow exactly as it did then, whatever the
 * live indexer becomes. The step calls it as the SQL function `tempora_0007_cjk_grams`, so the
 * connection's own `tempora_cjk_grams` (the live one) is left as it is.
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

/** Every overlapping pair of CJK characters and each kanji alone, space-separated; "" without CJK. */
function cjkGrams0007(text: string): string {
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

/** Registers `tempora_0007_cjk_grams(text)` on the migrating connection. */
export function registerCjkGrams0007(db: Database): void {
  db.function('tempora_0007_cjk_grams', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? cjkGrams0007(text) : ''));
}
